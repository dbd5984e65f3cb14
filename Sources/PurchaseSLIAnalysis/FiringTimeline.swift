/// What the rules say at one minute: the alerts whose rules fire, and the series that have recovered
/// (their recovery window meets the objective), whose pages stop for good.
struct InstantEvaluation {
    var findings: [AlertFinding]
    var recovered: Set<SeriesLabels>
}

/// Which alerts fire over time: what the rules said at each moment, kept firing for their hold
/// (``SLOPolicy/holdSeconds(for:)``; a page only until its series has recovered), then suppressed where a
/// more urgent alert covers the same incident.
struct FiringTimeline {
    let policy: SLOPolicy
    /// The latest finding of each alert at each severity.
    private var latest: [Key: AlertFinding] = [:]

    private struct Key: Hashable {
        var identity: AlertFinding.Identity
        var severity: Severity
    }

    init(policy: SLOPolicy) {
        self.policy = policy
    }

    /// Records the instant evaluation of `time`.
    mutating func observe(_ instant: InstantEvaluation, at time: Int64) {
        record(instant)
        latest = latest.filter { isActive($0.value, at: time) }
    }

    /// Records instant evaluations, in time order, without letting older findings expire: for a timeline
    /// built from just the keepFiringFor before the time asked about. A series that has recovered drops
    /// the pages held for it: keepFiringFor does not stretch an incident that is over.
    mutating func record(_ instant: InstantEvaluation) {
        for key in latest.keys where key.severity == .page && key.identity.kind == .successRateBurn
            && instant.recovered.contains(key.identity.labels) {
            latest[key] = nil
        }
        for finding in instant.findings { latest[Key(identity: finding.identity, severity: finding.severity)] = finding }
    }

    private func isActive(_ finding: AlertFinding, at time: Int64) -> Bool {
        finding.time >= time - policy.holdSeconds(for: finding.kind)
    }

    /// The alerts firing at `time` (the latest time recorded), most urgent first: per alert its most
    /// urgent active finding.
    func firing(at time: Int64) -> [AlertFinding] {
        let active = latest.values.filter { isActive($0, at: time) }
        let strongest = Dictionary(grouping: active, by: \.identity).compactMap { $0.value.max { $0.severity < $1.severity } }
        let overallSeverity = Dictionary(
            strongest.filter { $0.kind == .successRateBurn && $0.labels.slice == nil }.map { ($0.labels.actionType, $0.severity) },
            uniquingKeysWith: max)
        // A version's 409 spike explains the actions' 409 spikes; a product's cancel spike its action's.
        let versionConflicts = strongest.contains { $0.kind == .alreadyGrantedSpike && $0.labels.slice != nil }
        let productCancels = Set(strongest.filter { $0.kind == .cancelRateSpike && $0.labels.slice != nil }.map(\.labels.actionType))
        return strongest.filter { finding in
            switch finding.kind {
            case .alreadyGrantedSpike: return finding.labels.slice != nil || !versionConflicts
            case .cancelRateSpike: return finding.labels.slice != nil || !productCancels.contains(finding.labels.actionType)
            case .noEvents, .unfinishedPurchases, .chargedNotGranted, .refundSpike: return true
            case .successRateBurn:
                guard finding.labels.slice != nil, let overall = overallSeverity[finding.labels.actionType] else { return true }
                return overall < finding.severity
            }
        }.sorted(by: AlertFinding.byUrgency)
    }
}
