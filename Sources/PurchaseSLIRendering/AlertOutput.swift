import Foundation
public import PurchaseSLIAnalysis
public import PurchaseSLIApplication
public import PurchaseSLICore

/// Alert reports as terminal text, Markdown, Slack mrkdwn, or Alertmanager v2 JSON.
public enum AlertOutput {
    /// For a person on call at a terminal: most urgent first, what and how bad on the first line; with
    /// `freshness`, a last line saying when the newest event arrived (STALE or NO DATA when it is old).
    public static func text(_ reports: [AlertReport], now: Int64, freshness: DataFreshness? = nil, zone: TimeZoneOffsets = .utc) -> String {
        let alerts =
            reports.isEmpty
            ? "no alerts firing at \(zone.timestamp(now))\n"
            : reports.map { report in
                let narrative = AlertNarrative(report: report, escaping: .terminal, now: now, zone: zone)
                return ([label(report) + app(of: report, .terminal) + "  " + narrative.summary] + narrative.allLines.map { "      " + $0 })
                    .joined(separator: "\n")
            }.joined(separator: "\n\n") + "\n"
        return alerts + (freshness.map { (reports.isEmpty ? "" : "\n") + FreshnessText.line($0, zone: zone) + "\n" } ?? "")
    }

    /// One line per episode for a terminal: start, duration, severity, alert and labels, in order.
    public static func episodeLines(_ reports: [AlertReport], now: Int64, zone: TimeZoneOffsets = .utc) -> String {
        reports.map { report in
            let end = report.endsAt ?? now
            let labels = report.labelPairs.map { "\($0.0)=\(TerminalText.sanitized($0.1))" }.joined(separator: ", ")
            let duration = NumberText.duration(end - report.startsAt)
            return
                "  \(zone.timestamp(report.startsAt))  \(duration.padding(toLength: max(12, duration.count + 1), withPad: " ", startingAt: 0))"
                + "\(report.severity.rawValue.uppercased().padding(toLength: 7, withPad: " ", startingAt: 0))"
                + "\(report.finding.kind.rawValue.padding(toLength: 24, withPad: " ", startingAt: 0))\(labels)"
                + (report.endsAt == nil ? "  (still firing)" : "") + (report.incident.map { "  incident \($0.id)" } ?? "")
        }.joined(separator: "\n") + (reports.isEmpty ? "" : "\n")
    }

    /// Markdown, for a ticket or a chat that renders it; event data cannot inject markup.
    public static func markdown(_ reports: [AlertReport], now: Int64, freshness: DataFreshness? = nil, zone: TimeZoneOffsets = .utc) -> String {
        let last = freshness.map { "\n_" + TextEscaping.markdown.escape(FreshnessText.line($0, zone: zone)) + "_\n" } ?? ""
        guard !reports.isEmpty else { return "No alerts firing at \(zone.timestamp(now)).\n" + last }
        return reports.map { report in
            let narrative = AlertNarrative(report: report, escaping: .markdown, now: now, zone: zone)
            return
                (["**\(label(report))**\(app(of: report, .markdown)) \(narrative.summary)"] + narrative.details.map { "- \($0)" }
                + ["- " + narrative.lookNextLine] + (narrative.references.map { ["- \($0)"] } ?? []))
                .joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n" + last
    }

    /// Slack mrkdwn; event data cannot mention anyone or make links.
    public static func slack(_ reports: [AlertReport], now: Int64, freshness: DataFreshness? = nil, zone: TimeZoneOffsets = .utc) -> String {
        let last = freshness.map { "\n_" + TextEscaping.slackEntities(FreshnessText.line($0, zone: zone)) + "_\n" } ?? ""
        guard !reports.isEmpty else { return "No alerts firing at \(zone.timestamp(now)).\n" + last }
        return reports.map { report in
            let narrative = AlertNarrative(report: report, escaping: .slack, now: now, zone: zone)
            return (["*\(label(report))*\(app(of: report, .slack)) \(narrative.summary)"] + narrative.allLines.map { "• \($0)" })
                .joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n" + last
    }

    /// The body of a Slack-compatible incoming webhook: a one-line `text` ("incident 20261102-1807-fef488:
    /// 1 firing (1 page), 1 resolved" when the reports are one incident's) and one attachment per alert with the ``slack(_:now:freshness:)`` text of it, coloured by
    /// severity (red a page, amber a ticket, green resolved) as Slack and Mattermost show attachments.
    /// With `preface` (a fallback's word on why it gets the alerts, as Slack mrkdwn) the message opens with it.
    public static func slackWebhookJSON(_ reports: [AlertReport], now: Int64, zone: TimeZoneOffsets = .utc, preface: String? = nil) -> String {
        guard !reports.isEmpty else { return JSONTextEncoder.text(SlackText(text: preface ?? "No alerts firing at \(zone.timestamp(now)).")) + "\n" }
        let firing = reports.filter { $0.endsAt == nil }
        let pages = firing.filter { $0.severity == .page }
        var parts = ["\(firing.count) firing" + (pages.isEmpty ? "" : " (\(pages.count) page\(pages.count == 1 ? "" : "s"))")]
        if firing.count < reports.count { parts.append("\(reports.count - firing.count) resolved") }
        let incidents = Set(reports.compactMap { $0.incident?.id })
        let incident = incidents.count == 1 && reports.allSatisfy { $0.incident != nil } ? "incident \(incidents.first!): " : ""
        let apps = Set(reports.compactMap(\.app))
        let scope = apps.count == 1 ? " (\(TextEscaping.slack.escape(apps.first!)))" : ""
        let headline =
            (preface.map { $0 + "\n" } ?? "") + "purchase-sli\(scope) at \(zone.timestamp(now)): " + incident + parts.joined(separator: ", ")
        let attachments = reports.map { report in
            let colour = report.endsAt != nil ? "#2eb67d" : report.severity == .page ? "#e01e5a" : "#ecb22e"
            let text = slack([report], now: now, zone: zone)
            let fallback =
                "\(label(report))\(app(of: report, .terminal)) \(AlertNarrative(report: report, escaping: .slack, now: now, zone: zone).summary)"
            return SlackMessage.Attachment(color: colour, fallback: fallback, text: text)
        }
        return JSONTextEncoder.text(SlackMessage(text: headline, attachments: attachments)) + "\n"
    }

    /// An array of Alertmanager v2 alerts (``AlertmanagerAlert``), one a line, to POST to `/api/v2/alerts`
    /// as is; with `heartbeat`, its always-firing alert first.
    public static func alertmanagerJSON(_ reports: [AlertReport], now: Int64, heartbeat: AlertHeartbeat? = nil) -> String {
        let alerts =
            (heartbeat.map { [$0.alertmanagerAlert(now: now)] } ?? [])
            + reports.map { report in
                let finding = report.finding
                let narrative = AlertNarrative(report: report, escaping: .terminal, now: now, zone: .utc)
                // `incident` lets Alertmanager group an incident's alerts into one notification (group_by: [incident]).
                let labels =
                    [("alertname", finding.kind.rawValue), ("severity", report.severity.rawValue)] + report.labelPairs
                    + (report.owner.map { [("team", $0)] } ?? []) + (report.incident.map { [("incident", $0.id)] } ?? [])
                return AlertmanagerAlert(
                    labels: labels, summary: narrative.summary, description: narrative.allLines.joined(separator: "\n"),
                    runbookURL: report.runbookURL, cost: report.costText?.rendered(.terminal), startsAt: report.startsAt, endsAt: report.endsAt,
                    generatorURL: report.pageURL)
            }
        return "[" + alerts.map(JSONTextEncoder.text).joined(separator: ",\n") + "]\n"
    }

    private static func label(_ report: AlertReport) -> String {
        report.endsAt != nil ? "RESOLVED \(report.severity.rawValue.uppercased())" : report.severity.rawValue.uppercased()
    }

    /// " · com.example.app" after the label of a report evaluated for one app, else nothing.
    private static func app(of report: AlertReport, _ escaping: TextEscaping) -> String {
        report.app.map { " · " + escaping.escape($0) } ?? ""
    }
}

/// A Slack incoming-webhook body with attachments: `{"text", "attachments": [{"color", "fallback", "text",
/// "mrkdwn_in": ["text"]}]}`.
struct SlackMessage: Encodable {
    /// One coloured attachment, its text Slack mrkdwn.
    struct Attachment: Encodable {
        let color: String
        let fallback: String
        let text: String
        let mrkdwnIn = ["text"]

        enum CodingKeys: String, CodingKey {
            case color, fallback, text
            case mrkdwnIn = "mrkdwn_in"
        }
    }

    let text: String
    let attachments: [Attachment]
}
