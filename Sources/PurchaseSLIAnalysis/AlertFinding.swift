public import PurchaseSLICore

/// One alert that fires at an evaluation time, with the numbers that made it fire.
public struct AlertFinding: Sendable, Hashable {
    /// The kinds of alert, named as in Alertmanager's `alertname`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The success rate burns the error budget faster than a rule allows.
        case successRateBurn = "PurchaseSuccessRateBurn"
        /// An action that normally has traffic has none.
        case noEvents = "NoPurchaseEvents"
        /// 409s per valid event far above their baseline (a retry loop double-sending receipts).
        case alreadyGrantedSpike = "AlreadyGrantedSpike"
        /// Cancels per attempt far above their baseline (a payment-info detour that may have charged).
        case cancelRateSpike = "CancelRateSpike"
        /// Attempts without a terminal event far above their baseline (charged but maybe not granted).
        case unfinishedPurchases = "UnfinishedPurchases"
    }

    /// The numbers of a spike: a count against its exposure, now and in the baseline.
    public struct Spike: Sendable, Hashable {
        /// What rate was tested, e.g. "cancels per attempt".
        public var measure: String
        /// The window tested, in seconds.
        public var windowSeconds: Int64
        /// 409s (or cancels) in the window.
        public var observed: Int64
        /// Valid events (or valid + cancel) in the window: the rate's denominator.
        public var exposure: Int64
        /// 409s (or cancels) in the baseline.
        public var baselineObserved: Int64
        /// The baseline's denominator.
        public var baselineExposure: Int64
        /// What the baseline is: "the same hour on the previous 3 days" or "the other app versions".
        public var baseline: String
        /// One-sided p-value of the exact conditional test (before correcting for the slices tested).
        public var pValue: Double

        /// The window's rate.
        public var rate: Double { exposure > 0 ? Double(observed) / Double(exposure) : 0 }
        /// The baseline's rate.
        public var baselineRate: Double { baselineExposure > 0 ? Double(baselineObserved) / Double(baselineExposure) : 0 }
    }

    /// Which alert this is.
    public var kind: Kind
    /// How urgent.
    public var severity: Severity
    /// The action, and the slice for a slice alert.
    public var labels: SeriesLabels
    /// The evaluation time (seconds since the epoch).
    public var time: Int64
    /// The objective in force, for a burn alert.
    public var objective: SLOPolicy.Objective?
    /// The rule that fired (the most urgent one), for a burn alert.
    public var rule: SLOPolicy.BurnRateRule?
    /// Counts over the rule's long window (for a loss of signal: the window itself).
    public var longWindow: OutcomeCounts
    /// Counts over the rule's short window.
    public var shortWindow: OutcomeCounts
    /// For a slice alert: the slice's share of the action's failures over the long window.
    public var shareOfFailures: Double?
    /// For a loss of signal: the events expected in the window (the lesser of the same window a day
    /// earlier and the average window of the day before) when the silence became unexpected.
    public var expectedEvents: Int64?
    /// For a loss of signal: how long the action has sent no event, in seconds.
    public var silentSeconds: Int64?
    /// For a loss of signal: the minute it started firing (the first at which the silence was unexpected).
    public var firingSince: Int64?
    /// For a spike: its statistics.
    public var spike: Spike?

    /// Creates a finding.
    public init(
        kind: Kind, severity: Severity, labels: SeriesLabels, time: Int64, objective: SLOPolicy.Objective? = nil,
        rule: SLOPolicy.BurnRateRule? = nil, longWindow: OutcomeCounts = OutcomeCounts(),
        shortWindow: OutcomeCounts = OutcomeCounts(), shareOfFailures: Double? = nil, expectedEvents: Int64? = nil,
        silentSeconds: Int64? = nil, firingSince: Int64? = nil, spike: Spike? = nil
    ) {
        self.kind = kind
        self.severity = severity
        self.labels = labels
        self.time = time
        self.objective = objective
        self.rule = rule
        self.longWindow = longWindow
        self.shortWindow = shortWindow
        self.shareOfFailures = shareOfFailures
        self.expectedEvents = expectedEvents
        self.silentSeconds = silentSeconds
        self.firingSince = firingSince
        self.spike = spike
    }

    /// What makes two findings the same alert (for episodes and notifications).
    public var identity: Identity { Identity(kind: kind, severity: severity, labels: labels) }

    /// The alert's identity: its name, severity and labels.
    public struct Identity: Sendable, Hashable, Comparable {
        /// The alert kind.
        public var kind: Kind
        /// The severity.
        public var severity: Severity
        /// The labels.
        public var labels: SeriesLabels

        public static func < (lhs: Identity, rhs: Identity) -> Bool {
            if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
            if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
            return lhs.labels < rhs.labels
        }
    }

    /// Burn rate over the long window (error rate / error budget), or nil without enough traffic.
    public var burnRateLong: Double? { burnRate(longWindow) }
    /// Burn rate over the short window.
    public var burnRateShort: Double? { burnRate(shortWindow) }

    private func burnRate(_ counts: OutcomeCounts) -> Double? {
        guard let objective, let successRate = counts.successRate, objective.errorBudget > 0 else { return nil }
        return (1 - successRate) / objective.errorBudget
    }
}

/// One alert from the step it started firing to the step it stopped (nil while still firing).
public struct AlertEpisode: Sendable, Hashable {
    /// The finding at the episode's first step.
    public var first: AlertFinding
    /// When it started firing (seconds since the epoch).
    public var startsAt: Int64
    /// The first evaluation step at which it no longer fired, or nil when it fires at the range's end.
    public var endsAt: Int64?
}
