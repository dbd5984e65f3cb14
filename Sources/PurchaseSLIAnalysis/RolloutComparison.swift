/// One metric of one slice, candidate against baseline.
public struct RolloutComparison: Sendable, Hashable {
    /// One side of a comparison: the metric's events among its trials.
    public struct Side: Sendable, Hashable {
        /// Events the rate counts (successes for the success rate, else the 409s, cancels, unfinished).
        public var count: Int64
        /// The rate's denominator.
        public var trials: Int64

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
    /// One-sided exact p-value that the candidate is worse, or nil when a side has too few trials.
    public var pValue: Double?
    /// `pValue` after Holm's correction for every comparison tested at once.
    public var adjustedPValue: Double?
    /// Candidate rate − baseline rate, in the metric's own direction (negative for a lower success rate).
    public var effect: Double?
    /// 95 % interval of `effect` (Newcombe's hybrid score interval).
    public var effectInterval: ClosedRange<Double>?
    /// Whether the candidate is significantly and materially worse.
    public var isRegression = false

    /// Whether both sides had enough trials to be tested.
    public var isTested: Bool { pValue != nil }
}
