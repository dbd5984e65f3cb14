public import PurchaseSLICore

extension AlertFinding.Kind {
    /// Refunds and revocations per charge of a product far above its own previous days.
    public static let refundSpike = AlertFinding.Kind(rawValue: "RefundSpike")
}

/// RefundSpike per store and product: refunds and revocations per charge over the last `refundWindow` of
/// whole hours against the same window on each of the `refundBaselineDays` previous days, with the exact
/// rate test the other spikes use (Bonferroni over the products tested, apart from the event spikes).
/// Nothing is tested until the activity covers every baseline window. O(products).
public struct RefundSpikeRule: AlertRule {
    /// The policy it applies.
    public let policy: SLOPolicy

    /// The rule of `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    public var kind: AlertFinding.Kind { .refundSpike }
    public var shortName: String { "refunds" }
    public var holdSeconds: Int64 { policy.keepFiringForSeconds }
    /// It reads the stores' hourly activity, not the minute series.
    public var reachSeconds: Int64 { 0 }
    /// No slice of the events (its own series are the store's or the ledger's).
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool { false }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        let rule = policy.reconciliation
        let activity = context.allInputs.storeActivity
        let end = time - time.floorDividedBy(.secondsPerHour).remainder
        let window = rule.refundWindowSeconds
        let days = max(1, rule.refundBaselineDays)
        guard end - Int64(days) * .secondsPerDay - window >= activity.startSeconds else { return AlertRuleOutcome() }
        let keys = activity.keys
        let significance = policy.spikes.significance / Double(max(1, keys.count))
        let test = RateSpikeTest(policy: policy)
        return AlertRuleOutcome(
            findings: keys.compactMap { key in
                let now = activity.counts(key, from: end - window, to: end)
                let baseline = (1...days).map { day in
                    let shifted = end - Int64(day) * .secondsPerDay
                    let counts = activity.counts(key, from: shifted - window, to: shifted)
                    return RateSpikeTest.Sample(observed: counts.refunds, exposure: counts.charges)
                }
                guard
                    let spike = test.spike(
                        RateSpikeTest.Sample(observed: now.refunds, exposure: now.charges),
                        against: (baseline, "the same \(TimeStep(seconds: window)) on the previous \(days) day\(days == 1 ? "" : "s")"),
                        named: "\(key.store.displayName) refunds and revocations per charge",
                        units: (CountedNoun("refund or revocation", "refunds and revocations"), CountedNoun("charge", "charges")),
                        windowSeconds: window, minimumCount: Int64(rule.refundMinimumCount), significance: significance)
                else { return nil }
                return AlertFinding(
                    kind: kind, severity: policy.spikes.severity,
                    labels: SeriesLabels(
                        actionType: ActionType.purchase.rawValue, store: key.store.rawValue, slice: .init(dimension: .productID, value: key.productID)
                    ),
                    time: time, evidence: RefundSpikeEvidence(spike: spike))
            })
    }

    /// Refunds of a product.
    public func causes(of finding: AlertFinding) -> Set<IncidentCause> { Set(finding.labels.slice.map { [IncidentCause.slice($0)] } ?? []) }
}

/// What a refund spike found.
public struct RefundSpikeEvidence: AlertEvidence {
    /// The spike's numbers.
    public var spike: SpikeStatistics

    public var windowSeconds: Int64 { spike.windowSeconds }
    /// The refunds, in full.
    public var costMeasure: AlertCostMeasure? { .refunds }

    public func summary(of alert: AlertFinding) -> AlertText { spike.summary("\(scope: alert.labels)") }
    public func details(of alert: AlertFinding) -> [AlertText] { [spike.countsLine] }

    /// The command that lists the refunds of the window.
    public func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand {
        LookNextCommand(
            "charges",
            [
                "--refunds", "--from", RFC3339.format(seconds: alert.time - spike.windowSeconds), "--to", RFC3339.format(seconds: alert.time),
                "--store", alert.labels.store ?? "", "--product=\(alert.labels.slice?.value ?? "")",
            ])
    }
}
