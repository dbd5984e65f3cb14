public import PurchaseSLIRendering

/// What alert notifications are posted to, and so the body they are posted as.
public enum AlertNotificationFormat: String, Sendable, Hashable, CaseIterable {
    /// An Alertmanager's `/api/v2/alerts`: a JSON array of Alertmanager v2 alerts.
    case alertmanager
    /// A Slack-compatible incoming webhook: `{"text": …}` in Slack mrkdwn.
    case slack

    /// The JSON body that posts `reports` evaluated at `time`, or nil when there is nothing worth posting.
    ///
    /// Alertmanager gets `[]` when no alert fires (harmless, and a wrong URL shows on a quiet day);
    /// Slack gets nothing, so that a check every minute does not post "no alerts" every minute.
    public func body(for reports: [AlertReport], at time: Int64) -> String? {
        switch self {
        case .alertmanager: AlertOutput.alertmanagerJSON(reports, now: time)
        case .slack: reports.isEmpty ? nil : AlertOutput.slackWebhookJSON(reports, now: time)
        }
    }

    /// Whether alerts that keep firing are re-sent at every evaluation: Alertmanager resolves an alert
    /// that is not re-sent within its `resolve_timeout` (5 min by default), so Prometheus re-sends every
    /// firing alert; a chat gets each change once.
    public var resendsFiring: Bool { self == .alertmanager }
}
