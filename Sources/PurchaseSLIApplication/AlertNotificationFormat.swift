/// What alert notifications are posted to, and so the body they are posted as.
public enum AlertNotificationFormat: String, Sendable, Hashable, CaseIterable {
    /// An Alertmanager's `/api/v2/alerts`: a JSON array of Alertmanager v2 alerts.
    case alertmanager
    /// A Slack-compatible incoming webhook: `{"text": …}` in Slack mrkdwn.
    case slack

    /// Whether alerts that keep firing are re-sent at every evaluation: Alertmanager resolves an alert
    /// that is not re-sent within its `resolve_timeout` (5 min by default), so Prometheus re-sends every
    /// firing alert; a chat gets each change once.
    public var resendsFiring: Bool { self == .alertmanager }
}
