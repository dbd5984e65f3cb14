/// The groups each stored series counts in across the queries of one scan, looked up once per bucket
/// entry rather than once per query: per series id, a run of (query, group) targets, 8 bytes each.
struct SeriesFanOut {
    /// One place an entry's counts go: a query's index and its group there.
    struct Target {
        private let queryIndex: Int32
        let group: Int32

        /// The query's index.
        var query: Int { Int(queryIndex) }

        init(query: Int, group: Int32) {
            queryIndex = Int32(query)
            self.group = group
        }
    }

    /// Per dense series id, where its targets start in `targets` (one more than the ids: the end).
    private var starts: [Int32] = [0]
    private var targets: [Target] = []
    /// The groupings, for series ids past the dense ones.
    private let groupings: [SeriesGrouping]

    /// The targets of every series `groupings` know, in query order for each series. One grouping alone
    /// is its own table: nothing is built.
    init(_ groupings: [SeriesGrouping]) {
        self.groupings = groupings
        guard groupings.count > 1 else { return }
        let denseCount = groupings.map(\.denseSeriesCount).max() ?? 0
        starts.reserveCapacity(denseCount + 1)
        // Sized first: a catalog of a million series with a query per slice dimension has millions of
        // targets, and an array grown by doubling would hold up to twice their memory.
        targets.reserveCapacity(
            (0..<denseCount).reduce(0) { total, series in total + groupings.count { $0.group(ofSeries: Int64(series)) != nil } })
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
