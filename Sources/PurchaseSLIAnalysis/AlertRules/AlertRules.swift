/// The alert rules purchase-sli evaluates: one entry per kind.
public enum AlertRules {
    /// The ten kinds, each reading its block of `policy`.
    public static func standard(for policy: SLOPolicy) -> [any AlertRule] {
        [
            SuccessRateBurnRule(policy: policy), NoEventsRule(policy: policy), AlreadyGrantedSpikeRule(policy: policy),
            CancelRateSpikeRule(policy: policy), UnfinishedPurchasesRule(policy: policy), ChargedNotGrantedRule(policy: policy),
            RefundSpikeRule(policy: policy), DoubleGrantRule(policy: policy), GrantedWithoutChargeRule(policy: policy),
            TimeToGrantBurnRule(policy: policy),
        ]
    }
}
