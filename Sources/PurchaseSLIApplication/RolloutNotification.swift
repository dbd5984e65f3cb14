public import PurchaseSLIAnalysis

/// What rollout verdicts are posted as.
public enum RolloutNotificationFormat: String, Sendable, Hashable, CaseIterable {
    /// A Slack-compatible incoming webhook: `{"text": …}` in Slack mrkdwn.
    case slack
    /// Any webhook: `{"previousVerdict", "rollout"}`, the latter as `rollout --format json` prints it.
    case json
}

/// Delivers rollout verdicts: ``RolloutWebhookSender`` over HTTP, or a test's recorder.
public protocol RolloutNotificationSender: Sendable {
    /// Sends `report`, whose verdict follows `previous` (nil: the first since the service started).
    /// - Throws: when it was not delivered.
    func send(_ report: RolloutReport, previous: RolloutReport.Verdict?) async throws
}

/// Which rollout verdicts to post: each change of the candidate's verdict (and, while it says proceed,
/// of the step it clears), once. A `stale` report (no verdict: events stopped) is never posted, since a
/// quiet night would post it and its end and the NoPurchaseEvents alert already says that events
/// stopped; the verdict after it is compared with the last one posted. Pure: the caller says when a
/// send succeeded; a failed send is tried again with the next check's verdict.
public struct RolloutNotificationState: Sendable {
    /// What a verdict is, for telling a change: the versions, the verdict, and the step a proceed is at.
    private struct Key: Hashable, Sendable {
        var candidate: String
        var baseline: String
        var verdict: RolloutReport.Verdict
        var proceedStep: Int?

        init(_ report: RolloutReport) {
            candidate = report.candidate
            baseline = report.baseline
            verdict = report.verdict
            proceedStep = report.verdict == .proceed ? report.progress?.step : nil
        }
    }

    private var delivered: (key: Key, verdict: RolloutReport.Verdict)?
    private var pending: Key?

    /// No verdict delivered yet.
    public init() {}

    /// Whether `report` is a change worth posting (the first verdict since the start is one), and the
    /// verdict last delivered for its candidate (nil: none yet).
    public mutating func change(_ report: RolloutReport) -> (previous: RolloutReport.Verdict?, isChange: Bool) {
        let key = Key(report)
        guard key != delivered?.key, report.verdict != .stale else {
            pending = nil
            return (delivered?.verdict, false)
        }
        pending = key
        // A new candidate starts its own history.
        let previous = delivered.flatMap { $0.key.candidate == key.candidate ? $0.verdict : nil }
        return (previous, true)
    }

    /// Records that the change last returned was delivered.
    public mutating func deliveredChange() {
        guard let pending else { return }
        delivered = (pending, pending.verdict)
        self.pending = nil
    }
}
