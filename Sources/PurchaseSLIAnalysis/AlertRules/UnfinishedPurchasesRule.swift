public import PurchaseSLICore

extension AlertFinding.Kind {
    /// Attempts without a terminal event far above their baseline (charged but maybe not granted).
    public static let unfinishedPurchases = AlertFinding.Kind(rawValue: "UnfinishedPurchases")
}

/// UnfinishedPurchases: each action's attempts (start events) that had no terminal event `unfinishedAfter`
/// later, per attempt, over the spike window that ended then, against the same window on the previous
/// days; at least `unfinishedMinimumShare` of the attempts must be unfinished (a start and its terminal
/// event can fall on either side of an edge).
public struct UnfinishedPurchasesRule: AlertRule {
    /// The policy it applies.
    public let policy: SLOPolicy
    private var test: RateSpikeTest { RateSpikeTest(policy: policy) }

    /// The rule of `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    public var kind: AlertFinding.Kind { .unfinishedPurchases }
    public var shortName: String { "unfinished" }
    /// Held for keepFiringFor and its window, as every spike (``RateSpikeTest/holdSeconds``).
    public var holdSeconds: Int64 { test.holdSeconds }
    public var reachSeconds: Int64 { test.reachSeconds + policy.spikes.unfinishedAfterSeconds }
    /// No slice of the events (its own series are the store's or the ledger's).
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool { false }

    public func spikeTestCount(in context: AlertRuleContext) -> Int { context.inputs.actions.count }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        var findings: [AlertFinding] = []
        let settled = time - policy.spikes.unfinishedAfterSeconds
        for action in context.inputs.actions.keys.sorted() {
            guard let overall = context.inputs.actions[action], let dataSince = overall.firstEventSeconds else { continue }
            let span = test.window { overall.counts(last: $0, before: settled).start }
            let window = overall.counts(last: span, before: settled)
            let (unfinished, attempts) = RateMetric.unfinishedRate.badEvents(window)
            guard Double(unfinished) >= policy.spikes.unfinishedMinimumShare * Double(attempts),
                let spike = test.spike(
                    window, against: test.previousDays(overall, at: settled, dataSince: dataSince, window: span),
                    measure: RateSpikeTest.measure(.unfinishedRate), named: RateMetric.unfinishedRate.definition,
                    units: (CountedNoun("unfinished attempt", "unfinished attempts"), CountedNoun("attempt", "attempts")), window: span,
                    significance: context.spikeSignificance)
            else { continue }
            findings.append(
                AlertFinding(
                    kind: kind, severity: policy.spikes.severity, labels: overall.labels, time: time,
                    evidence: UnfinishedEvidence(spike: spike, settledSeconds: policy.spikes.unfinishedAfterSeconds)))
        }
        return AlertRuleOutcome(findings: findings)
    }

    /// Attempts that end nowhere are part of their action's flow failing.
    public func causes(of finding: AlertFinding) -> Set<IncidentCause> { [.outage(of: finding.labels.actionType)] }
}

/// What an unfinished-attempts spike found.
public struct UnfinishedEvidence: AlertEvidence {
    /// The spike's numbers, over the window that ended `settledSeconds` before the finding.
    public var spike: SpikeStatistics
    /// How long after its start an attempt counts as unfinished, in seconds.
    public var settledSeconds: Int64

    public var windowSeconds: Int64 { spike.windowSeconds + settledSeconds }
    public var chartMetric: AlertChartMetric? { .rate(.unfinishedRate) }

    public func summary(of alert: AlertFinding) -> AlertText { spike.summary("\(scope: alert.labels)") }
    public func current(_ counts: OutcomeCounts, over seconds: Int64, of alert: AlertFinding) -> AlertText? {
        spike.current(counts, over: seconds, measure: RateSpikeTest.measure(.unfinishedRate))
    }

    public func details(of alert: AlertFinding) -> [AlertText] {
        [spike.countsLine, "an attempt counts as unfinished when no terminal event followed within \(duration: settledSeconds)"]
    }

    public func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand {
        .query(of: alert.labels, from: from, to: to, ["--by", "productID,appVersion"])
    }
}
