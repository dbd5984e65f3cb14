public import PurchaseSLICore

/// A rate of outcomes that dashboards chart and `rollout` compares between app versions.
public enum RateMetric: String, Sendable, Hashable, CaseIterable {
    /// (success + alreadyGranted) / valid: lower is worse.
    case successRate
    /// 409s per valid event: a client sending receipts twice.
    case conflictRate
    /// cancel / (valid + cancel): a payment flow that users abandon, or that reports a cancel though
    /// the user paid.
    case cancelRate
    /// Attempts (`start`) without a terminal event, per attempt: charged-but-not-granted risk.
    case unfinishedRate

    /// The rate's events and trials in `counts`, counted so that a larger share is always worse: for
    /// the success rate, the failures.
    public func badEvents(_ counts: OutcomeCounts) -> (count: Int64, trials: Int64) {
        switch self {
        case .successRate: (counts.failure, counts.valid)
        case .conflictRate: (min(counts.conflicts, counts.valid), counts.valid)
        case .cancelRate: (counts.cancel, counts.valid + counts.cancel)
        case .unfinishedRate: (max(0, min(counts.start, 2 * counts.start - counts.total)), counts.start)
        }
    }

    /// The rate as shown (the success rate, or the share of bad events), or nil without trials.
    public func rate(_ counts: OutcomeCounts) -> Double? {
        if self == .successRate { return counts.successRate }
        let (count, trials) = badEvents(counts)
        return trials > 0 ? Double(count) / Double(trials) : nil
    }

    /// Whether the rate shown is the share of good events (success rate) rather than bad ones.
    public var showsGoodShare: Bool { self == .successRate }

    /// Whether a regression of this metric loses money (roll back) rather than needing a look (hold).
    public var losesMoney: Bool { self == .successRate || self == .unfinishedRate }

    /// What the rate counts, e.g. "409s (already granted) per valid event".
    public var definition: String {
        switch self {
        case .successRate: "successes and 409s per valid event"
        case .conflictRate: "409s (already granted) per valid event"
        case .cancelRate: "cancels per valid event or cancel"
        case .unfinishedRate: "attempts without a terminal event (unfinished) per attempt"
        }
    }

    /// The name people read, e.g. "409 rate".
    public var title: String {
        switch self {
        case .successRate: "success rate"
        case .conflictRate: "409 rate"
        case .cancelRate: "cancel rate"
        case .unfinishedRate: "unfinished rate"
        }
    }
}
