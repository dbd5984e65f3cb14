public import PurchaseSLICore

/// One rate in two periods (this week and the week before, say), with a two-sided exact test of the
/// change.
public struct PeriodComparison: Sendable, Hashable {
    /// The rate compared.
    public var metric: RateMetric
    /// The rate now, or nil without trials.
    public var current: Double?
    /// The rate before, or nil without trials.
    public var previous: Double?
    /// Trials now (the rate's denominator).
    public var currentTrials: Int64
    /// Trials before.
    public var previousTrials: Int64
    /// Two-sided Fisher exact p-value of the change (twice the smaller one-sided tail), or nil when a
    /// period has too few trials.
    public var pValue: Double?
    /// `pValue` after Holm's correction over the comparisons made together.
    public var adjustedPValue: Double?

    /// current − previous, or nil.
    public var change: Double? {
        guard let current, let previous else { return nil }
        return current - previous
    }

    /// Whether the change is significant at `level` after correction.
    public func isSignificant(at level: Double) -> Bool { (adjustedPValue ?? 1) < level }

    /// Whether the change is for the worse (a lower success rate, a higher other rate).
    public var isWorse: Bool { (change ?? 0) * (metric.showsGoodShare ? -1 : 1) > 0 }

    /// Compares `metric` between two periods' counts; periods with fewer than `minimumTrials` trials are
    /// not tested.
    public init(_ metric: RateMetric, current: OutcomeCounts, previous: OutcomeCounts, minimumTrials: Int64) {
        self.metric = metric
        self.current = metric.rate(current)
        self.previous = metric.rate(previous)
        let now = metric.badEvents(current)
        let before = metric.badEvents(previous)
        currentTrials = now.trials
        previousTrials = before.trials
        guard now.trials >= minimumTrials, before.trials >= minimumTrials else { return }
        let up = ProportionTest.fisherUpperTail(count: now.count, trials: now.trials, otherCount: before.count, otherTrials: before.trials)
        let down = ProportionTest.fisherUpperTail(
            count: now.trials - now.count, trials: now.trials, otherCount: before.trials - before.count, otherTrials: before.trials)
        pValue = min(1, 2 * min(up, down))
    }

    /// Sets each comparison's `adjustedPValue` by Holm's correction over all the tested ones.
    public static func correct(_ comparisons: inout [PeriodComparison]) {
        let tested = comparisons.indices.filter { comparisons[$0].pValue != nil }
        for (index, adjusted) in zip(tested, ProportionTest.holmAdjusted(tested.map { comparisons[$0].pValue! })) {
            comparisons[index].adjustedPValue = adjusted
        }
    }
}
