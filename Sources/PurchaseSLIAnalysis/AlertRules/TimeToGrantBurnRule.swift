public import PurchaseSLICore

extension AlertFinding.Kind {
    /// Charges are granted late (or not at all) faster than the time-to-grant objective allows.
    public static let timeToGrantBurn = AlertFinding.Kind(rawValue: "TimeToGrantBurn")
}

/// TimeToGrantBurn: each store's charges, on time or not (``GrantTimes``), against the time-to-grant
/// objective (`reconciliation.timeToGrant`) with the same multi-window burn-rate rules as the success
/// rates (``BurnRateTest``), and its products and granting app versions as slices under the same
/// conditions (failing at least `sliceMinimumRatio` times as often as the rest of the store, beyond
/// chance). A slow grant queue or a batch of renewals finished late hurts users long before a charge
/// counts as not granted (ChargedNotGranted waits out the grace time).
public struct TimeToGrantBurnRule: AlertRule {
    /// The policy it applies.
    public let policy: SLOPolicy
    private let test: BurnRateTest

    /// The rule of `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
        test = BurnRateTest(policy: policy)
    }

    public var kind: AlertFinding.Kind { .timeToGrantBurn }
    public var shortName: String { "time to grant" }
    public var holdSeconds: Int64 { policy.keepFiringForSeconds }
    public var reachSeconds: Int64 { test.reachSeconds }
    /// No slice of the events (its own series are the store's or the ledger's).
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool { false }
    /// Budget spent while paged is taken out of a ticket's long window, as for the success rates.
    public var pastFindingsSeconds: Int64 { test.ticketReachSeconds }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        var outcome = AlertRuleOutcome()
        guard let objective = policy.reconciliation.timeToGrant else { return outcome }
        let paged = context.run.shared("\(kind.rawValue) paged minutes") {
            PagedMinutes(
                test: test, series: context.allInputs.budgeted.grantTimeSeries.values.flatMap { [$0.overall] + $0.slices },
                reach: context.reachSeconds)
        }
        let inputs = context.inputs.budgeted
        for store in inputs.grantTimeSeries.keys.sorted() {
            guard let series = inputs.grantTimeSeries[store], let dataSince = series.overall.firstEventSeconds else { continue }
            let overall = series.overall
            outcome.recovered += ([overall] + series.slices).filter { test.hasRecovered($0, objective: objective.objective, at: time) }.map(\.labels)
            let ticketWindows = { (slice: MinuteSeries, from: Int64) in
                paged.excludedCounts(of: slice, action: overall, objective: objective.objective, from: from, to: time)
            }
            if let burn = test.burn(overall, objective: objective.objective, at: time, dataSince: dataSince, paged: ticketWindows) {
                outcome.findings.append(finding(burn, labels: overall.labels, within: objective.withinSeconds, at: time))
            }
            for found in test.sliceBurns(
                series.slices, of: overall, objective: objective.objective, at: time, dataSince: dataSince, paged: ticketWindows)
            {
                outcome.findings.append(finding(found.burn, labels: found.series.labels, within: objective.withinSeconds, at: time))
            }
        }
        return outcome
    }

    /// A slice's burn is covered by its whole store's at the same or a higher severity; any of the store's
    /// (or, for a product, that product's) by a ChargedNotGranted alert at the same or a higher severity:
    /// charges not granted at all are late too, and that alert already names each one.
    public func isCovered(_ finding: AlertFinding, by firing: [AlertFinding]) -> Bool {
        let product = finding.labels.slice?.dimension == .productID ? finding.labels.slice : nil
        return firing.contains { other in
            guard other.labels.store == finding.labels.store, other.severity >= finding.severity else { return false }
            if other.kind == kind { return finding.labels.slice != nil && other.labels.slice == nil }
            return other.kind == .chargedNotGranted && (product == nil || other.labels.slice == product)
        }
    }

    /// Grants late are the purchase flow's trouble (a grant server slow or down makes purchases fail and
    /// charges wait alike); a slice's is also about its product or version.
    public func causes(of finding: AlertFinding) -> Set<IncidentCause> {
        Set([IncidentCause.outage(of: finding.labels.actionType)] + (finding.labels.slice.map { [IncidentCause.slice($0)] } ?? []))
    }

    private func finding(_ burn: BurnEvidence, labels: SeriesLabels, within: Int64, at time: Int64) -> AlertFinding {
        var evidence = burn
        evidence.grantedWithinSeconds = within
        return AlertFinding(kind: kind, severity: burn.rule.severity, labels: labels, time: time, evidence: evidence)
    }
}
