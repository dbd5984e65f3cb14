/// One metric of one slice, candidate against baseline.
public struct RolloutComparison: Sendable, Hashable {
    /// One side of a comparison: the metric's events among its trials.
    public struct Side: Sendable, Hashable {
        /// Events the rate counts (successes for the success rate, else the 409s, cancels, unfinished).
        public var count: Int64
        /// The rate's denominator.
        public var trials: Int64

        /// Creates a side.
        public init(count: Int64, trials: Int64) {
            self.count = count
            self.trials = trials
        }

        /// count / trials, or nil without trials.
        public var rate: Double? { trials == 0 ? nil : Double(count) / Double(trials) }
        /// The rate's 95 % Wilson interval.
        public var interval: ClosedRange<Double> { ProportionTest.wilsonInterval(count: count, trials: trials) }
    }

    /// The metric.
    public var metric: RateMetric
    /// The action, and the product or plan (nil for the action as a whole).
    public var slice: SeriesLabels
    /// The candidate version's side.
    public var candidate: Side
    /// The baseline version's side.
    public var baseline: Side
    /// One-sided p-value that the candidate's rate of bad events is higher, valid however often the
    /// release is checked (``SequentialRateTest``), or nil when a side has too few trials.
    public var pValue: Double?
    /// `pValue` after Holm's correction for every comparison tested at once.
    public var adjustedPValue: Double?
    /// Candidate rate − baseline rate, in the metric's own direction (negative for a lower success rate),
    /// hour by hour: the baseline's rate times (the candidate's rate ratio − 1), the ratio pooled over the
    /// hours (Mantel–Haenszel), so a release share that grows while the hour's rate changes (time of day,
    /// an incident on both versions) does not pass for a difference between the versions.
    public var effect: Double?
    /// Bounds of `effect` at 95 % confidence valid at every look; computed for each tested action and
    /// each tested slice that regressed or moved by the minimum effect, when the baseline has bad events.
    public var effectInterval: ClosedRange<Double>?
    /// The candidate's bad events beyond what the baseline's rate in the same hour predicts, over the hours
    /// with events of both (failures that would have succeeded on the baseline, for the success rate).
    public var excessEvents: Double?
    /// For a success-rate regression, what its excess failures cost at the latest price events carried,
    /// per currency (empty when they carry none).
    public var lostAmounts: [String: Double] = [:]
    /// Whether the candidate is significantly and materially worse.
    public var isRegression = false

    /// A comparison of `candidate` with `baseline`, not yet tested.
    public init(metric: RateMetric, slice: SeriesLabels, candidate: Side, baseline: Side) {
        self.metric = metric
        self.slice = slice
        self.candidate = candidate
        self.baseline = baseline
    }

    /// Whether both sides had enough trials to be tested.
    public var isTested: Bool { pValue != nil }
}
