/// The groups each stored series counts in across the queries of one scan, looked up once per bucket
/// entry rather than once per query: per series id, a run of (query, group) targets.
struct SeriesFanOut {
    /// One place an entry's counts go: a query's index and its group there.
    struct Target {
        let query: Int
        let group: Int32
    }

    /// Per dense series id, where its targets start in `targets` (one more than the ids: the end).
    private var starts: [Int32] = [0]
    private var targets: [Target] = []
    /// The groupings, for series ids past the dense ones.
    private let groupings: [SeriesGrouping]

    /// The targets of every series `groupings` know, in query order for each series.
    init(_ groupings: [SeriesGrouping]) {
        self.groupings = groupings
        let denseCount = groupings.map(\.denseSeriesCount).max() ?? 0
        starts.reserveCapacity(denseCount + 1)
        for series in 0..<denseCount {
            for (query, grouping) in groupings.enumerated() {
                if let group = grouping.group(ofSeries: Int64(series)) { targets.append(Target(query: query, group: group)) }
            }
            starts.append(Int32(targets.count))
        }
    }

    /// Calls `body` with each query and group `series` counts in.
    @inline(__always)
    func forEachTarget(ofSeries series: Int64, _ body: (Target) throws -> Void) rethrows {
        guard series >= 0, series < starts.count - 1 else {
            for (query, grouping) in groupings.enumerated() {
                if let group = grouping.group(ofSeries: series) { try body(Target(query: query, group: group)) }
            }
            return
        }
        try starts.withUnsafeBufferPointer { starts in
            try targets.withUnsafeBufferPointer { targets in
                for index in Int(starts[Int(series)])..<Int(starts[Int(series) + 1]) { try body(targets[index]) }
            }
        }
    }
}
