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

    /// Builds the inputs from hourly series keyed `[appVersion, actionType]` (`actions`) and
    /// `[appVersion, actionType, dimension]` (`slices[dimension]`), all with the same steps: the hours
    /// from the one holding `fromSeconds` count; other versions' groups are ignored.
    public init(
        candidate: String, baseline: String, fromSeconds: Int64, toSeconds: Int64,
        actions: CountSeries, slices: [EventDimension: CountSeries], release: PhasedRelease? = nil
    ) {
        self.candidate = candidate
        self.baseline = baseline
        self.fromSeconds = fromSeconds
        self.toSeconds = toSeconds
        self.release = release
        // Both sides of each action or slice, step by step from the first hour counted.
        let firstHour = fromSeconds - fromSeconds.floorDividedBy(.secondsPerHour).remainder
        var dense: [SeriesLabels: [HourCounts]] = [:]
        func add(_ series: CountSeries, labels: ([String?]) -> SeriesLabels?) {
            let skipped = max(0, Int((firstHour - series.startSeconds + series.stepSeconds - 1) / series.stepSeconds))
            let firstStart = series.startSeconds + Int64(skipped) * series.stepSeconds
            let count = series.stepCount - skipped
            guard count > 0 else { return }
            for (key, column) in zip(series.keys, series.columns) {
                guard key[0] == candidate || key[0] == baseline, let labels = labels(key) else { continue }
                let isCandidate = key[0] == candidate
                dense[labels, default: (0..<count).map { HourCounts(startSeconds: firstStart + Int64($0) * series.stepSeconds) }]
                    .withUnsafeMutableBufferPointer { hours in
                        for (step, counts) in zip(column.steps, column.counts) where Int(step) >= skipped && Int(step) - skipped < hours.count {
                            let hour = Int(step) - skipped
                            if isCandidate { hours[hour].candidate += counts } else { hours[hour].baseline += counts }
                        }
                    }
            }
        }
        add(actions) { SeriesLabels(actionType: $0[1] ?? "") }
        for (dimension, series) in slices {
            // Events without a value (no plan: a consumable) are not a slice of their own.
            add(series) { key in key[2].map { SeriesLabels(actionType: key[1] ?? "", slice: .init(dimension: dimension, value: $0)) } }
        }
        hourly = dense.mapValues { hours in hours.filter { !$0.candidate.isEmpty || !$0.baseline.isEmpty } }
        counts = hourly.mapValues { hours in
            hours.reduce((candidate: OutcomeCounts(), baseline: OutcomeCounts())) { ($0.candidate + $1.candidate, $0.baseline + $1.baseline) }
        }
    }

    /// Builds the inputs from count rows of hourly steps keyed `[appVersion, actionType]` (`actionRows`)
    /// and `[appVersion, actionType, dimension]` (`sliceRows[dimension]`), as
    /// ``init(candidate:baseline:fromSeconds:toSeconds:actions:slices:release:)`` does from series; a
    /// row without a time counts in the hour the range starts in, rows outside the range are ignored.
    public init(
        candidate: String, baseline: String, fromSeconds: Int64, toSeconds: Int64,
        actionRows: [CountRow], sliceRows: [EventDimension: [CountRow]], release: PhasedRelease? = nil
    ) {
        let firstHour = fromSeconds - fromSeconds.floorDividedBy(.secondsPerHour).remainder
        let stepCount = Int((toSeconds - firstHour + 3599) / .secondsPerHour)
        func series(_ rows: [CountRow]) -> CountSeries {
            let timed = rows.map { CountRow(timeSeconds: $0.timeSeconds ?? firstHour, key: $0.key, counts: $0.counts) }
            return CountSeries(rows: timed, startSeconds: firstHour, stepSeconds: .secondsPerHour, stepCount: stepCount)
        }
        self.init(
            candidate: candidate, baseline: baseline, fromSeconds: fromSeconds, toSeconds: toSeconds, actions: series(actionRows),
            slices: sliceRows.mapValues(series), release: release)
    }
}
