#if PostgreSQL
/// What a node remembers of committed rows between its writes: dimension value ids, series ids, and the
/// values and series admitted per day. All of it is immutable once committed (an id never changes, an
/// admission holds for its day), so another node's writes cannot make it wrong, only incomplete: a miss
/// is looked up in the database. A write works on a copy and hands back its additions, which are kept
/// only once its transaction committed.
struct WriterCache: Sendable {
    /// A dimension's value.
    struct Value: Hashable, Sendable {
        var dimension: Int16
        var text: String
    }

    /// A day, a dimension and the app whose budget it is (as the events named it; "" for none).
    struct DayDimension: Hashable, Sendable {
        var day: Int32
        var dimension: Int16
        var app: String
    }

    /// A day and a series.
    struct DaySeries: Hashable, Sendable {
        var day: Int32
        var series: Int64
    }

    var valueIDs: [Value: Int64] = [:]
    /// Series ids by their value ids (in series dimension order, 0 for none).
    var seriesIDs: [[Int64]: Int64] = [:]
    var admittedValues: [DayDimension: Set<String>] = [:]
    var admittedSeries: Set<DaySeries> = []

    /// Entries kept before the cache starts over (the database keeps everything; a miss costs a lookup).
    static let limit = 200_000

    /// Keeps what a committed write learned.
    mutating func merge(_ additions: WriterCache) {
        if valueIDs.count + seriesIDs.count + admittedSeries.count > Self.limit { self = WriterCache() }
        valueIDs.merge(additions.valueIDs) { _, new in new }
        seriesIDs.merge(additions.seriesIDs) { _, new in new }
        admittedValues.merge(additions.admittedValues) { $0.union($1) }
        admittedSeries.formUnion(additions.admittedSeries)
    }

    /// Forgets the admissions of `days` (pruned past the dedup horizon).
    mutating func forgetAdmissions(days: Set<Int32>) {
        admittedValues = admittedValues.filter { !days.contains($0.key.day) }
        admittedSeries = admittedSeries.filter { !days.contains($0.day) }
    }
}
#endif
