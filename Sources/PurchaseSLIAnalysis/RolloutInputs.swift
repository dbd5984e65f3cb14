public import PurchaseSLICore

/// What a rollout comparison reads: the counts of the candidate and the baseline app version over the
/// same hours, for each action and each product and plan of each action.
public struct RolloutInputs: Sendable {
    /// The candidate app version.
    public let candidate: String
    /// The baseline app version.
    public let baseline: String
    /// Start of the compared range (the candidate's first hour), in seconds since the epoch.
    public let fromSeconds: Int64
    /// End of the compared range (the evaluation time).
    public let toSeconds: Int64
    /// Per action or slice, the counts of each version.
    public let counts: [SeriesLabels: (candidate: OutcomeCounts, baseline: OutcomeCounts)]

    /// Builds the inputs from count rows keyed `[appVersion, actionType]` (`actionRows`) and
    /// `[appVersion, actionType, dimension]` (`sliceRows[dimension]`); rows of other versions are ignored.
    public init(
        candidate: String, baseline: String, fromSeconds: Int64, toSeconds: Int64,
        actionRows: [CountRow], sliceRows: [EventDimension: [CountRow]]
    ) {
        self.candidate = candidate
        self.baseline = baseline
        self.fromSeconds = fromSeconds
        self.toSeconds = toSeconds
        var counts: [SeriesLabels: (candidate: OutcomeCounts, baseline: OutcomeCounts)] = [:]
        func add(_ row: CountRow, _ labels: SeriesLabels) {
            let version = row.key[0]
            guard version == candidate || version == baseline else { return }
            var entry = counts[labels] ?? (OutcomeCounts(), OutcomeCounts())
            if version == candidate { entry.candidate += row.counts } else { entry.baseline += row.counts }
            counts[labels] = entry
        }
        for row in actionRows { add(row, SeriesLabels(actionType: row.key[1] ?? "")) }
        for (dimension, rows) in sliceRows {
            // Events without a value (no plan: a consumable) are not a slice of their own.
            for row in rows where row.key[2] != nil {
                add(row, SeriesLabels(actionType: row.key[1] ?? "", slice: .init(dimension: dimension, value: row.key[2])))
            }
        }
        self.counts = counts
    }
}
