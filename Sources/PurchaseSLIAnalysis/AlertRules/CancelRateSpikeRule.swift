public import PurchaseSLICore

extension AlertFinding.Kind {
    /// Cancels far above their baseline (a payment-info detour that may have charged).
    public static let cancelRateSpike = AlertFinding.Kind(rawValue: "CancelRateSpike")
}

/// CancelRateSpike: the cancel rate (cancels per valid event or cancel) of each product of each action
/// against the product's own previous days, and of the action as a whole when no product spikes; a
/// product's spike covers its action's.
public struct CancelRateSpikeRule: AlertRule {
    /// The policy it applies.
    public let policy: SLOPolicy
    private var test: RateSpikeTest { RateSpikeTest(policy: policy) }

    /// The rule of `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    public var kind: AlertFinding.Kind { .cancelRateSpike }
    public var shortName: String { "cancel spike" }
    /// Held for keepFiringFor and its window, as every spike (``RateSpikeTest/holdSeconds``).
    public var holdSeconds: Int64 { test.holdSeconds }
    public var reachSeconds: Int64 { test.reachSeconds }
    /// A product with the spike's `minimumCount` cancels: a spike needs as many in its window.
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool {
        dimension == .productID && totals.cancel >= Int64(policy.spikes.minimumCount)
    }

    /// Each action, and each of its products with the spike test's minimum of cancels over the span read:
    /// a product with fewer cannot spike, so it takes no share of the significance (after Tarone's
    /// refinement of Bonferroni, with the count as the criterion), and a catalog of thousands of products
    /// sold a few times a week leaves the test of the others as sharp as a small one.
    public func spikeTestCount(in context: AlertRuleContext) -> Int {
        let reach = context.inputs.endSeconds - context.inputs.startSeconds
        return context.inputs.actions.keys.reduce(0) { total, action in
            total + 1 + context.sliceCount(of: action, dimension: .productID, holding: Int64(policy.spikes.minimumCount), .cancel, last: reach)
        }
    }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        let inputs = context.inputs
        var findings: [AlertFinding] = []
        for action in inputs.actions.keys.sorted() {
            guard let overall = inputs.actions[action], let dataSince = overall.firstEventSeconds else { continue }
            // Every window tested ends at the time within the widest: a product with fewer cancels there than
            // a spike needs has none (most products at most minutes), and is not tested.
            let candidates = context.slices(
                of: action, dimension: .productID, holding: Int64(policy.spikes.minimumCount), .cancel,
                last: RateSpikeTest.widestWindows * policy.spikes.windowSeconds)
            var products = candidates.compactMap { spike(of: $0, at: time, dataSince: dataSince, context: context) }
            if products.isEmpty, let whole = spike(of: overall, at: time, dataSince: dataSince, context: context) {
                products.append(whole)
            }
            findings += products
        }
        return AlertRuleOutcome(findings: findings)
    }

    private func spike(of series: MinuteSeries, at time: Int64, dataSince: Int64, context: AlertRuleContext) -> AlertFinding? {
        // Every window tested ends at `time` within the widest: a series with fewer cancels there than a
        // spike needs has no spike (most products at most minutes), known from one read instead of up to five.
        let widest = RateSpikeTest.widestWindows * policy.spikes.windowSeconds
        guard series.counts(last: widest, before: time).cancel >= Int64(policy.spikes.minimumCount) else { return nil }
        let window = test.window { RateMetric.cancelRate.badEvents(series.counts(last: $0, before: time)).trials }
        guard
            let spike = test.spike(
                series.counts(last: window, before: time), against: test.previousDays(series, at: time, dataSince: dataSince, window: window),
                measure: RateSpikeTest.measure(.cancelRate), named: RateMetric.cancelRate.definition,
                units: (CountedNoun("cancel", "cancels"), CountedNoun("valid event or cancel", "valid events and cancels")),
                window: window, significance: context.spikeSignificance)
        else { return nil }
        return AlertFinding(
            kind: kind, severity: policy.spikes.severity, labels: series.labels, time: time, evidence: CancelSpikeEvidence(spike: spike))
    }

    /// An action's cancel spike is covered by one of its products'.
    public func isCovered(_ finding: AlertFinding, by firing: [AlertFinding]) -> Bool {
        finding.labels.slice == nil
            && firing.contains {
                $0.kind == kind && $0.labels.slice != nil && $0.labels.actionType == finding.labels.actionType
            }
    }

    /// A product's cancels (charges the detour left ungranted are the same incident); an action's.
    public func causes(of finding: AlertFinding) -> Set<IncidentCause> {
        [finding.labels.slice.map(IncidentCause.slice) ?? IncidentCause("cancels \(finding.labels.actionType)")]
    }
}

/// What a cancel spike found.
public struct CancelSpikeEvidence: AlertEvidence {
    /// The spike's numbers.
    public var spike: SpikeStatistics

    public var windowSeconds: Int64 { spike.windowSeconds }
    public var explainedBy: ResultType? { .cancel }
    public var chartMetric: AlertChartMetric? { .rate(.cancelRate) }

    public func summary(of alert: AlertFinding) -> AlertText { spike.summary("\(scope: alert.labels)") }
    public func current(_ counts: OutcomeCounts, over seconds: Int64, of alert: AlertFinding) -> AlertText? {
        spike.current(counts, over: seconds, measure: RateSpikeTest.measure(.cancelRate))
    }

    public func details(of alert: AlertFinding) -> [AlertText] { [spike.countsLine] }

    public func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand {
        .query(of: alert.labels, from: from, to: to, ["--where", "resultType=cancel", "--by", "productID,errorDescription"])
    }
}
