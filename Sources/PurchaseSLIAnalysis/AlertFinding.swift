import PurchaseSLICore

/// One alert that fires at an evaluation time, with the evidence that made it fire.
public struct AlertFinding: Sendable, Hashable {
    /// The kind of alert, named as in Alertmanager's `alertname`; each rule declares its own
    /// (``AlertRule/kind``).
    public struct Kind: RawRepresentable, Sendable, Hashable, Comparable, Codable {
        /// The name: `PurchaseSuccessRateBurn`.
        public let rawValue: String

        /// The kind of this name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// By name.
        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Which alert this is.
    public var kind: Kind
    /// How urgent.
    public var severity: Severity
    /// The action, and the store and slice for a slice alert.
    public var labels: SeriesLabels
    /// The evaluation time (seconds since the epoch).
    public var time: Int64
    /// What its rule found, typed by the rule.
    public var evidence: any AlertEvidence

    /// Creates a finding.
    public init(kind: Kind, severity: Severity, labels: SeriesLabels, time: Int64, evidence: any AlertEvidence) {
        self.kind = kind
        self.severity = severity
        self.labels = labels
        self.time = time
        self.evidence = evidence
    }

    /// The evidence as the type its rule gives, or nil for another rule's.
    public func evidence<Evidence: AlertEvidence>(as type: Evidence.Type) -> Evidence? { evidence as? Evidence }

    public static func == (lhs: AlertFinding, rhs: AlertFinding) -> Bool {
        (lhs.kind, lhs.severity, lhs.labels, lhs.time) == (rhs.kind, rhs.severity, rhs.labels, rhs.time) && lhs.evidence.isEqual(to: rhs.evidence)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(severity)
        hasher.combine(labels)
        hasher.combine(time)
        evidence.hash(into: &hasher)
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
            lhs.kind != rhs.kind ? lhs.kind < rhs.kind : lhs.labels < rhs.labels
        }
    }

    /// Most urgent first, then by identity.
    public static func byUrgency(_ lhs: AlertFinding, _ rhs: AlertFinding) -> Bool {
        lhs.severity != rhs.severity ? lhs.severity > rhs.severity : lhs.identity < rhs.identity
    }
}

/// One alert from the step it started firing to the step it stopped (nil while still firing): one
/// incident, whatever its severity did meanwhile.
public struct AlertEpisode: Sendable, Hashable {
    /// The finding at the episode's first step.
    public var first: AlertFinding
    /// The first finding at the episode's highest severity, or of those the one whose evidence counts the
    /// most (``AlertEvidence/pileCount``): what a resolved alert shows.
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
        if finding.severity > peak.severity
            || (finding.severity == peak.severity && (finding.evidence.pileCount ?? 0) > (peak.evidence.pileCount ?? 0))
        {
            peak = finding
        }
        latest = finding
    }

    /// The highest severity it reached.
    public var severity: Severity { peak.severity }
}

/// The severity an alert fires at from a time on.
public struct SeverityChange: Sendable, Hashable, Codable {
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
