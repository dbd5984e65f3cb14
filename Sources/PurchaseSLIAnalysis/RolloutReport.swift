/// What `rollout` concludes about a candidate app version.
public struct RolloutReport: Sendable {
    /// What to do with the phased release.
    public enum Verdict: String, Sendable, Hashable {
        /// Nothing is worse and enough was seen to rule out a material drop: continue the release.
        case proceed
        /// A 409 or cancel rate is significantly worse: pause the phased release and investigate.
        case hold
        /// The success or unfinished rate is significantly worse: purchases are lost; roll back.
        case rollback
        /// Too few events on one side to rule out a regression yet.
        case insufficientData = "insufficient-data"
        /// The newest event is older than the loss-of-signal window: the data says nothing of the present,
        /// so no verdict is given.
        case stale
    }

    /// The candidate app version.
    public var candidate: String
    /// The baseline app version.
    public var baseline: String
    /// Start of the compared range, in seconds since the epoch.
    public var fromSeconds: Int64
    /// End of the compared range.
    public var toSeconds: Int64
    /// The verdict.
    public var verdict: Verdict
    /// Why, each naming the metric and slice: the regressions, or what is missing, or what was ruled out.
    public var reasons: [Reason]
    /// Every comparison, regressions first, then by action, slice and metric.
    public var comparisons: [RolloutComparison]
}

extension RolloutReport {
    /// One reason for a verdict; rendering turns it into text.
    public enum Reason: Sendable, Hashable {
        /// A metric of a slice is significantly and materially worse on the candidate.
        case regression(RolloutComparison)
        /// The candidate has fewer valid events of an action than a test needs (this holds the release
        /// back only for the busiest action).
        case tooFewEvents(actionType: String, candidateTrials: Int64, needed: Int64)
        /// The success rate's 95 % interval still allows a drop larger than the policy accepts.
        case cannotRuleOut(RolloutComparison, largestDrop: Double, allowed: Double)
        /// The success rate's 95 % interval rules out a material drop; `tested` comparisons found nothing.
        case ruledOut(RolloutComparison, largestDrop: Double, tested: Int)
        /// The baseline has too few events of every action with an objective to compare with.
        case noTraffic
        /// No event arrived for this long before the evaluation time (nil: none at all).
        case staleData(newestEventSeconds: Int64?, ageSeconds: Int64?)
    }
}
