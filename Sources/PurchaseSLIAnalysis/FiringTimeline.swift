/// What the rules say at one minute: the alerts whose rules fire, and per kind the series that have
/// recovered (their pages held stop for good).
struct InstantEvaluation {
    var findings: [AlertFinding]
    var recovered: [(kind: AlertFinding.Kind, labels: [SeriesLabels])]

    /// Whether the series and kind of `identity` had recovered.
    func hasRecovered(_ identity: AlertFinding.Identity) -> Bool {
        recovered.contains { $0.kind == identity.kind && $0.labels.contains(identity.labels) }
    }
}

/// Which alerts fire over time: what the rules said at each moment, kept firing for their rule's hold
/// (``AlertRule/holdSeconds``; a page only until its series has recovered), then left out where another
/// firing alert covers it (``AlertRule/isCovered(_:by:)``).
struct FiringTimeline {
    /// The rules by kind.
    let rules: [AlertFinding.Kind: any AlertRule]
    /// The latest finding of each alert at each severity.
    private var latest: [Key: AlertFinding] = [:]

    private struct Key: Hashable {
        var identity: AlertFinding.Identity
        var severity: Severity
    }

    init(rules: [any AlertRule]) {
        self.rules = Dictionary(rules.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Records the instant evaluation of `time`.
    mutating func observe(_ instant: InstantEvaluation, at time: Int64) {
        for key in latest.keys where key.severity == .page && instant.hasRecovered(key.identity) {
            latest[key] = nil
        }
        for finding in instant.findings { latest[Key(identity: finding.identity, severity: finding.severity)] = finding }
        for (key, finding) in latest where !isActive(finding, at: time) { latest[key] = nil }
    }

    private func isActive(_ finding: AlertFinding, at time: Int64) -> Bool {
        finding.time >= time - (rules[finding.kind]?.holdSeconds ?? 0)
    }

    /// The alerts firing at `time` (the latest time recorded), most urgent first: per alert its most
    /// urgent active finding, unless its rule says another covers it.
    func firing(at time: Int64) -> [AlertFinding] {
        let active = latest.values.filter { isActive($0, at: time) }
        let strongest = Dictionary(grouping: active, by: \.identity).compactMap { $0.value.max { $0.severity < $1.severity } }
        return strongest.filter { rules[$0.kind]?.isCovered($0, by: strongest) != true }.sorted(by: AlertFinding.byUrgency)
    }
}
