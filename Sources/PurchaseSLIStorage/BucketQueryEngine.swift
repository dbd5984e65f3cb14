public import PurchaseSLICore

/// Answers count queries from any ``BucketStore``: picks the coarsest buckets that fit the range and the
/// step, turns dimension filters into a series selection, groups the scanned entries and fills series.
///
/// The range is rounded out to whole minutes; each aligned stretch of it is read from the day, hour or
/// minute buckets, so a 7-day query reads mostly rollups. Queries with the same step (the minute series
/// of every slice that alert evaluation reads, say) share one scan of the union of their ranges: each
/// bucket is read once and its entries summed into the groups of every query whose range holds it.
/// O(bucket entries in the range + series).
public struct BucketQueryEngine {
    /// The store read.
    public let store: any BucketStore

    /// An engine over `store`.
    public init(store: any BucketStore) {
        self.store = store
    }

    /// The rows of each query: sorted by time, then key.
    public func counts(_ queries: [CountQuery]) async throws -> [[CountRow]] {
        try await scanTogether(queries, asSeries: false) { accumulator, grouping, query in accumulator.rows(grouping: grouping, query: query) }
    }

    /// Each query (every one needs a step) as a dense series.
    public func series(_ queries: [CountQuery]) async throws -> [CountSeries] {
        if let query = queries.first(where: { $0.step == nil || $0.groupsByResult }) {
            throw StorageError.invalidQuery("a series needs a step and no resultType grouping, got \(query.groupBy)")
        }
        return try await scanTogether(queries, asSeries: true) { accumulator, grouping, query in accumulator.series(grouping: grouping, query: query)
        }
    }

    /// Scans the buckets once for queries with the same step, over the union of their ranges (else one
    /// query at a time), each query taking the buckets of its own range, and turns each query's sums into
    /// its answer (summed `asSeries`, dense per group, or per time step read).
    private func scanTogether<Answer>(
        _ queries: [CountQuery], asSeries: Bool, answer: (CountAccumulator, SeriesGrouping, CountQuery) -> Answer
    ) async throws -> [Answer] {
        guard let first = queries.first else { return [] }
        if queries.contains(where: \.isAboutErrors) {
            throw StorageError.invalidQuery("errorDescription is answered by error counts, not outcome counts")
        }
        let plans = try queries.map(QueryPlan.init)
        let union = try QueryPlan(
            CountQuery(
                fromSeconds: plans.map(\.fromSeconds).min()!, toSeconds: plans.map(\.toSeconds).max()!, step: first.step))
        // Shared when that reads no more than the queries' own scans would together.
        let shared =
            queries.allSatisfy { $0.step == first.step } && plans.allSatisfy(union.readsWholeBuckets(of:))
            && union.toSeconds - union.fromSeconds <= plans.reduce(0) { $0 + $1.toSeconds - $1.fromSeconds }
        guard shared else {
            var answers: [Answer] = []
            for query in queries { answers.append(try await scanTogether([query], asSeries: asSeries, answer: answer)[0]) }
            return answers
        }
        let groupings = try await SeriesGrouping.make(for: queries, from: store)
        var accumulators = queries.indices.map { index in
            let (plan, groupCount) = (plans[index], groupings[index].groupKeys.count)
            return asSeries
                ? CountAccumulator(series: queries[index], origin: plan.origin, groupCount: groupCount)
                : CountAccumulator(stepSeconds: first.step?.seconds, origin: plan.origin, groupCount: groupCount)
        }
        var isReading = [Bool](repeating: false, count: queries.count)
        try await store.scanCounts(union.segments, selection: SeriesGrouping.selection(of: groupings)) { time, entries in
            for index in plans.indices {
                isReading[index] = plans[index].fromSeconds <= time && time < plans[index].toSeconds
                if isReading[index] { accumulators[index].beginStep(at: time) }
            }
            // Query by query, the bucket's entries through its grouping: an entry's series id indexes the
            // query's array (a table of every series' targets across the queries costs more to build, and
            // memory, than it saves).
            for index in groupings.indices where isReading[index] {
                let grouping = groupings[index]
                for entry in entries {
                    if let group = grouping.group(ofSeries: entry.series) { accumulators[index].add(entry.counts, to: group) }
                }
            }
            for index in plans.indices where isReading[index] {
                accumulators[index].endStep()
                if let limit = queries[index].maximumRows, accumulators[index].rowCount > limit {
                    throw StorageError.tooManyRows(limit: limit, groups: groupings[index].groupKeys.count, query: queries[index])
                }
            }
        }
        return queries.indices.map { answer(accumulators[$0], groupings[$0], queries[$0]) }
    }

    /// Counts the events that carried each error description over the range, grouped by dimensions
    /// (and by `errorDescription` itself when asked) and optionally by time steps. Sorted by time, then
    /// by events (most first). O(error entries in the range + series).
    public func errorCounts(_ query: CountQuery) async throws -> [ErrorCountRow] {
        let plan = try QueryPlan(query)
        let stepSeconds = query.step?.seconds
        let grouping = try await SeriesGrouping.make(for: [query], from: store)[0]
        let allowed = query.filters[.errorDescription]
        let keepsError = query.groupBy.contains(.errorDescription)
        let keepsResult = query.groupBy.contains(.resultType)
        var cells: [ErrorCell: Int64] = [:]
        try await store.scanErrors(plan.segments, selection: SeriesGrouping.selection(of: [grouping])) { time, entries in
            let slot = stepSeconds.map { (time - plan.origin) / $0 } ?? 0
            for entry in entries {
                guard let group = grouping.group(ofSeries: entry.series), grouping.results.contains(entry.result),
                    allowed?.contains(entry.description) ?? true
                else { continue }
                let cell = ErrorCell(
                    slot: slot, group: group, result: keepsResult ? entry.result : nil, error: keepsError ? entry.description : nil)
                cells[cell, default: 0] += entry.events
            }
            if let limit = query.maximumRows, cells.count > limit {
                throw StorageError.tooManyRows(limit: limit, groups: grouping.groupKeys.count, query: query)
            }
        }
        return cells.map { cell, events in
            var seriesValues = grouping.groupKeys[Int(cell.group)].makeIterator()
            let key = query.groupBy.map { dimension -> String? in
                switch dimension {
                case .errorDescription: cell.error
                case .resultType: cell.result?.rawValue
                default: seriesValues.next()!
                }
            }
            return ErrorCountRow(timeSeconds: stepSeconds.map { plan.origin + cell.slot * $0 }, key: key, events: events)
        }.sorted { lhs, rhs in
            if lhs.timeSeconds != rhs.timeSeconds { return (lhs.timeSeconds ?? 0) < (rhs.timeSeconds ?? 0) }
            if lhs.events != rhs.events { return lhs.events > rhs.events }
            return lhs.key.lexicographicallyPrecedes(rhs.key) { ($0 ?? "") < ($1 ?? "") }
        }
    }

    private struct ErrorCell: Hashable {
        var slot: Int64
        var group: Int32
        var result: ResultType?
        var error: String?
    }
}

extension BucketStore {
    /// Answers a count query; see ``BucketQueryEngine``.
    public func counts(_ query: CountQuery) async throws -> [CountRow] {
        try await BucketQueryEngine(store: self).counts([query])[0]
    }

    /// Answers several count queries, sharing scans; see ``BucketQueryEngine/counts(_:)``.
    public func counts(_ queries: [CountQuery]) async throws -> [[CountRow]] {
        try await BucketQueryEngine(store: self).counts(queries)
    }

    /// Answers count queries with a step as dense series; see ``BucketQueryEngine/series(_:)``.
    public func series(_ queries: [CountQuery]) async throws -> [CountSeries] {
        try await BucketQueryEngine(store: self).series(queries)
    }

    /// Counts the events that carried each error description; see ``BucketQueryEngine/errorCounts(_:)``.
    public func errorCounts(_ query: CountQuery) async throws -> [ErrorCountRow] {
        try await BucketQueryEngine(store: self).errorCounts(query)
    }
}

/// Where a query reads: its range rounded out to whole minutes, split into segments of the coarsest
/// buckets the step allows, and the start of its first step.
struct QueryPlan {
    let fromSeconds: Int64
    let toSeconds: Int64
    let segments: [BucketSegment]
    /// The start of the step holding `fromSeconds` (the range's start when there is no step).
    let origin: Int64

    init(_ query: CountQuery) throws {
        let fromSeconds = Resolution.minute.bucketStart(query.fromSeconds)
        let toSeconds = Resolution.minute.bucketStart(query.toSeconds + 59)
        (self.fromSeconds, self.toSeconds) = (fromSeconds, toSeconds)
        guard fromSeconds < toSeconds else { throw StorageError.invalidQuery("--from must be before --to") }
        let stepSeconds = query.step?.seconds
        if let stepSeconds, stepSeconds % .secondsPerMinute != 0 {
            throw StorageError.invalidQuery("--step must be a whole number of minutes, got \(query.step!)")
        }
        if let stepSeconds, (toSeconds - fromSeconds) / stepSeconds > 1_000_000 {
            throw StorageError.invalidQuery("--step \(query.step!) makes more than a million time steps; use a larger step")
        }
        let coarsest = Resolution.allCases.last { stepSeconds == nil || stepSeconds! % $0.seconds == 0 }!
        segments = Self.segments(from: fromSeconds, to: toSeconds, coarsest: coarsest)
        origin = stepSeconds.map { fromSeconds - fromSeconds.floorDividedBy($0).remainder } ?? fromSeconds
    }

    /// Whether each bucket this plan reads lies wholly inside or wholly outside `other`'s range, so that
    /// `other` can take its share of this plan's scan by the buckets' start times.
    func readsWholeBuckets(of other: QueryPlan) -> Bool {
        [other.fromSeconds, other.toSeconds].allSatisfy { edge in
            segments.allSatisfy { $0.resolution == .minute || edge <= $0.fromSeconds || edge >= $0.toSeconds }
        }
    }

    /// Splits `[from, to)` into stretches aligned to each resolution, coarsest in the middle.
    static func segments(from: Int64, to: Int64, coarsest: Resolution) -> [BucketSegment] {
        guard from < to else { return [] }
        guard let finer = coarsest.finer else { return [BucketSegment(.minute, from: from, to: to)] }
        let alignedFrom = coarsest.bucketStart(from + coarsest.seconds - 1)
        let alignedTo = coarsest.bucketStart(to)
        guard alignedFrom < alignedTo else { return segments(from: from, to: to, coarsest: finer) }
        return segments(from: from, to: alignedFrom, coarsest: finer) + [BucketSegment(coarsest, from: alignedFrom, to: alignedTo)]
            + segments(from: alignedTo, to: to, coarsest: finer)
    }
}
