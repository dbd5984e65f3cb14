public import PurchaseSLIApplication
public import PurchaseSLICore

extension AlertNotificationFormat {
    /// The JSON bodies that post `reports` evaluated at `time`: one array for Alertmanager (`[]` when no
    /// alert fires: harmless, and a wrong URL shows on a quiet day; its `incident` label groups an
    /// incident's alerts into one notification), one message per incident for Slack, so that one incident
    /// is one notification, and none when nothing changed (a check every minute does not post "no alerts").
    /// Slack text writes times in `zone`; Alertmanager's JSON stays UTC. A `heartbeat` goes with every
    /// Alertmanager post; `rerouting` opens the first Slack message (and is the one message when no report goes).
    public func bodies(
        for reports: [AlertReport], at time: Int64, zone: TimeZoneOffsets = .utc, heartbeat: AlertHeartbeat? = nil,
        rerouting: AlertRerouting? = nil
    ) -> [String] {
        switch self {
        case .alertmanager:
            return [AlertOutput.alertmanagerJSON(reports, now: time, heartbeat: heartbeat)]
        case .slack:
            let preface = rerouting?.slackText(zone: zone)
            if reports.isEmpty { return preface.map { [AlertOutput.slackWebhookJSON([], now: time, zone: zone, preface: $0)] } ?? [] }
            var groups: [String: [AlertReport]] = [:]
            var order: [String] = []
            for (index, report) in reports.enumerated() {
                let key = report.incident?.id ?? "alert \(index)"
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(report)
            }
            return order.enumerated().map { index, key in
                AlertOutput.slackWebhookJSON(groups[key]!, now: time, zone: zone, preface: index == 0 ? preface : nil)
            }
        }
    }
}
