public import PurchaseSLICore

/// What a rollout comparison reads: the counts of the candidate and the baseline app version hour by
/// hour over the same hours, for each action and each product and plan of each action, and the phased
/// release as the candidate's share of its platforms shows it.
public struct RolloutInputs: Sendable {
    /// Both versions' counts in one hour.
    public struct HourCounts: Sendable, Hashable {
        /// Start of the hour, seconds since the epoch.
        public var startSeconds: Int64
        /// The candidate's counts.
        public var candidate = OutcomeCounts()
        /// The baseline's counts.
        public var baseline = OutcomeCounts()
    }

    /// The candidate app version.
    public let candidate: String
    /// The baseline app version.
    public let baseline: String
    /// Start of the compared range (the release's first hour, or `--since`), in seconds since the epoch.
    public let fromSeconds: Int64
    /// End of the compared range (the evaluation time).
    public let toSeconds: Int64
    /// Per action or slice, both versions' counts in each hour with events of either, in time order.
    public let hourly: [SeriesLabels: [HourCounts]]
    /// Per action or slice, both versions' counts over the range.
    public let counts: [SeriesLabels: (candidate: OutcomeCounts, baseline: OutcomeCounts)]
    /// The phased release, when the candidate's share of its platforms' events is known.
    public var release: PhasedRelease?
    /// Per action, the candidate's counts per feature-flag variant (nil: events without one).
    public var candidateVariants: [String: [String?: OutcomeCounts]] = [:]
    /// The platforms the candidate has events on (iOS, Android, …): which stores release it.
    public var platforms: Set<String> = []
    /// The latest price events carried per product and plan, for what lost purchases cost.
    public var prices: [ProductPrice] = []

    /// Builds the inputs from count rows of hourly steps keyed `[appVersion, actionType]` (`actionRows`)
    /// and `[appVersion, actionType, dimension]` (`sliceRows[dimension]`); rows of other versions are
    /// ignored, a row without a time counts in the hour the range starts in.
    public init(
        candidate: String, baseline: String, fromSeconds: Int64, toSeconds: Int64,
        actionRows: [CountRow], sliceRows: [EventDimension: [CountRow]], release: PhasedRelease? = nil
    ) {
        self.candidate = candidate
        self.baseline = baseline
        self.fromSeconds = fromSeconds
        self.toSeconds = toSeconds
        self.release = release
        var hourly: [SeriesLabels: [HourCounts]] = [:]
        func add(_ row: CountRow, _ labels: SeriesLabels) {
            let version = row.key[0]
            guard version == candidate || version == baseline else { return }
            let hour = row.timeSeconds ?? fromSeconds - fromSeconds.floorDividedBy(3600).remainder
            Self.merge(row.counts, isCandidate: version == candidate, hour: hour, into: &hourly[labels, default: []])
        }
        for row in actionRows { add(row, SeriesLabels(actionType: row.key[1] ?? "")) }
        for (dimension, rows) in sliceRows {
            // Events without a value (no plan: a consumable) are not a slice of their own.
            for row in rows where row.key[2] != nil {
                add(row, SeriesLabels(actionType: row.key[1] ?? "", slice: .init(dimension: dimension, value: row.key[2])))
            }
        }
        self.hourly = hourly
        counts = self.hourly.mapValues { hours in
            hours.reduce((candidate: OutcomeCounts(), baseline: OutcomeCounts())) { ($0.candidate + $1.candidate, $0.baseline + $1.baseline) }
        }
    }

    /// Adds `counts` to the side of `hour` in `hours` (by time): rows come by time, so mostly to the last
    /// hour or a new one after it.
    private static func merge(_ counts: OutcomeCounts, isCandidate: Bool, hour: Int64, into hours: inout [HourCounts]) {
        var position = hours.count
        while position > 0, hours[position - 1].startSeconds > hour { position -= 1 }
        if position == 0 || hours[position - 1].startSeconds < hour {
            hours.insert(HourCounts(startSeconds: hour), at: position)
            position += 1
        }
        if isCandidate { hours[position - 1].candidate += counts } else { hours[position - 1].baseline += counts }
    }
}
