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
        /// The cancel rate (cancels per valid event or cancel) far above its baseline (a payment-info detour that may have charged).
        case cancelRateSpike = "CancelRateSpike"
        /// Attempts without a terminal event far above their baseline (charged but maybe not granted).
        case unfinishedPurchases = "UnfinishedPurchases"
        /// Store charges that no grant event named within the grace time (money taken, nothing delivered).
        case chargedNotGranted = "ChargedNotGranted"
        /// Refunds and revocations per charge of a product far above its own previous days.
        case refundSpike = "RefundSpike"
    }

    /// The numbers of a spike: a count against its exposure, now and in the baseline.
    public struct Spike: Sendable, Hashable {
        /// What rate was tested, e.g. "cancels per valid event or cancel".
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
    /// The span the short window covered, in seconds: the rule's, widened on an action's thin traffic until it holds
    /// the minimum valid events (to at most twice its length), or cut at the minute the series had last recovered.
    public var shortWindowSeconds: Int64?
    /// For a slice alert: the slice's share of the action's failures over the long window.
    public var shareOfFailures: Double?
    /// For a slice alert: the slices of other dimensions with (nearly) the same failures, folded into it (a
    /// plan and the group it makes up nearly alone).
    public var sameFailuresIn: [SeriesLabels.Slice] = []
    /// For a loss of signal: the events expected in the window (the lesser of the same window a day
    /// earlier and the average window of the day before) when the silence became unexpected.
    public var expectedEvents: Int64?
    /// For a loss of signal: how long the action has sent no event, in seconds.
    public var silentSeconds: Int64?
    /// For a loss of signal: the minute it started firing (the first at which the silence was unexpected).
    public var firingSince: Int64?
    /// For a spike: its statistics.
    public var spike: Spike?
    /// For charges not granted: the charges and what the app reported about them.
    public var charges: ChargeEvidence?

    /// Creates a finding.
    public init(
        kind: Kind, severity: Severity, labels: SeriesLabels, time: Int64, objective: SLOPolicy.Objective? = nil,
        rule: SLOPolicy.BurnRateRule? = nil, longWindow: OutcomeCounts = OutcomeCounts(),
        shortWindow: OutcomeCounts = OutcomeCounts(), shareOfFailures: Double? = nil, expectedEvents: Int64? = nil,
        silentSeconds: Int64? = nil, firingSince: Int64? = nil, spike: Spike? = nil, charges: ChargeEvidence? = nil
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
        self.charges = charges
    }

    /// What makes two findings the same alert (for episodes and notifications): its kind and labels. Its
    /// severity may change while it fires (a ticket that turns into a page is one incident).
    public var identity: Identity { Identity(kind: kind, labels: labels) }

    /// The alert's identity: its name and labels.
    public struct Identity: Sendable, Hashable, Comparable {
        /// The alert kind.
        public var kind: Kind
        /// The labels.
        public var labels: SeriesLabels

        /// Creates an identity.
        public init(kind: Kind, labels: SeriesLabels) {
            self.kind = kind
            self.labels = labels
        }

        public static func < (lhs: Identity, rhs: Identity) -> Bool {
            if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
            return lhs.labels < rhs.labels
        }
    }

    /// Most urgent first, then by identity.
    public static func byUrgency(_ lhs: AlertFinding, _ rhs: AlertFinding) -> Bool {
        lhs.severity != rhs.severity ? lhs.severity > rhs.severity : lhs.identity < rhs.identity
    }

    /// Burn rate over the long window (error rate / error budget), or nil without enough traffic.
    public var burnRateLong: Double? { objective?.burnRate(longWindow) }
    /// Burn rate over the short window.
    public var burnRateShort: Double? { objective?.burnRate(shortWindow) }
    /// The rule's burn-rate threshold at the finding's time.
    public var burnRateThreshold: Double? {
        guard let rule, let objective else { return nil }
        return rule.burnRate(for: objective, at: time)
    }
}

/// One alert from the step it started firing to the step it stopped (nil while still firing): one
/// incident, whatever its severity did meanwhile.
public struct AlertEpisode: Sendable, Hashable {
    /// The finding at the episode's first step.
    public var first: AlertFinding
    /// The first finding at the episode's highest severity.
    public var peak: AlertFinding
    /// The finding at the episode's latest step.
    public var latest: AlertFinding
    /// When it started firing (seconds since the epoch).
    public var startsAt: Int64
    /// The first evaluation step at which it no longer fired, or nil when it fires at the range's end.
    public var endsAt: Int64?
    /// Its severity from its start, and each change of it, in order.
    public var severityChanges: [SeverityChange]

    /// Creates an episode that starts with `first`.
    public init(first: AlertFinding, startsAt: Int64, endsAt: Int64? = nil) {
        self.first = first
        self.peak = first
        self.latest = first
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.severityChanges = [SeverityChange(atSeconds: startsAt, severity: first.severity)]
    }

    /// Records the finding firing at `time`, a step of the episode.
    mutating func observe(_ finding: AlertFinding, at time: Int64) {
        if finding.severity != severityChanges.last?.severity {
            severityChanges.append(SeverityChange(atSeconds: time, severity: finding.severity))
        }
        if finding.severity > peak.severity { peak = finding }
        latest = finding
    }

    /// The highest severity it reached.
    public var severity: Severity { peak.severity }
}

/// The severity an alert fires at from a time on.
public struct SeverityChange: Sendable, Hashable {
    /// When (seconds since the epoch).
    public var atSeconds: Int64
    /// The severity from then on.
    public var severity: Severity

    /// Creates a change.
    public init(atSeconds: Int64, severity: Severity) {
        self.atSeconds = atSeconds
        self.severity = severity
    }
}
