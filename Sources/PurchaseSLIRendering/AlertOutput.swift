import Foundation
public import PurchaseSLIAnalysis
import PurchaseSLICore

/// Alert reports as terminal text, Markdown, Slack mrkdwn, or Alertmanager v2 JSON.
public enum AlertOutput {
    /// For a person on call at a terminal: most urgent first, what and how bad on the first line; with
    /// `freshness`, a last line saying when the newest event arrived (STALE or NO DATA when it is old).
    public static func text(_ reports: [AlertReport], now: Int64, freshness: DataFreshness? = nil) -> String {
        let alerts = reports.isEmpty ? "no alerts firing at \(RFC3339.format(seconds: now))\n" : reports.map { report in
            let narrative = AlertNarrative(report: report, escaping: .terminal, now: now)
            return ([label(report) + "  " + narrative.summary] + narrative.details.map { "      " + $0 })
                .joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n"
        return alerts + (freshness.map { (reports.isEmpty ? "" : "\n") + FreshnessText.line($0) + "\n" } ?? "")
    }

    /// One line per episode for a terminal: start, duration, severity, alert and labels, in order.
    public static func episodeLines(_ reports: [AlertReport], now: Int64) -> String {
        reports.map { report in
            let end = report.endsAt ?? now
            let labels = report.finding.labels.pairs.map { "\($0.0)=\(TerminalText.sanitized($0.1))" }.joined(separator: ", ")
            return "  \(RFC3339.format(seconds: report.startsAt))  \(NumberText.duration(end - report.startsAt).padding(toLength: 11, withPad: " ", startingAt: 0))"
                + "\(report.severity.rawValue.uppercased().padding(toLength: 7, withPad: " ", startingAt: 0))"
                + "\(report.finding.kind.rawValue.padding(toLength: 24, withPad: " ", startingAt: 0))\(labels)"
                + (report.endsAt == nil ? "  (still firing)" : "")
        }.joined(separator: "\n") + (reports.isEmpty ? "" : "\n")
    }

    /// Markdown, for a ticket or a chat that renders it; event data cannot inject markup.
    public static func markdown(_ reports: [AlertReport], now: Int64, freshness: DataFreshness? = nil) -> String {
        let last = freshness.map { "\n_" + TextEscaping.markdown.escape(FreshnessText.line($0)) + "_\n" } ?? ""
        guard !reports.isEmpty else { return "No alerts firing at \(RFC3339.format(seconds: now)).\n" + last }
        return reports.map { report in
            let narrative = AlertNarrative(report: report, escaping: .markdown, now: now)
            return (["**\(label(report))** \(narrative.summary)"] + narrative.details.dropLast().map { "- \($0)" }
                + ["- look next: `\(narrative.lookNext.replacingOccurrences(of: "`", with: "'"))`"])
                .joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n" + last
    }

    /// Slack mrkdwn; event data cannot mention anyone or make links.
    public static func slack(_ reports: [AlertReport], now: Int64, freshness: DataFreshness? = nil) -> String {
        let last = freshness.map { "\n_" + TextEscaping.slack.escape(FreshnessText.line($0)) + "_\n" } ?? ""
        guard !reports.isEmpty else { return "No alerts firing at \(RFC3339.format(seconds: now)).\n" + last }
        return reports.map { report in
            let narrative = AlertNarrative(report: report, escaping: .slack, now: now)
            return (["*\(label(report))* \(narrative.summary)"] + narrative.details.map { "• \($0)" })
                .joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n" + last
    }

    /// The ``slack(_:now:)`` text as the JSON body of a Slack-compatible incoming webhook: `{"text": …}`.
    public static func slackWebhookJSON(_ reports: [AlertReport], now: Int64) -> String {
        "{\"text\":" + JSONText.quoted(slack(reports, now: now)) + "}\n"
    }

    /// An array of Alertmanager v2 alerts, to POST to `/api/v2/alerts` as is.
    public static func alertmanagerJSON(_ reports: [AlertReport], now: Int64) -> String {
        let alerts = reports.map { report -> String in
            let finding = report.finding
            let narrative = AlertNarrative(report: report, escaping: .terminal, now: now)
            let labels = [("alertname", finding.kind.rawValue), ("severity", report.severity.rawValue)] + finding.labels.pairs
            var fields = [
                "\"labels\":{" + labels.map { JSONText.quoted($0.0) + ":" + JSONText.quoted($0.1) }.joined(separator: ",") + "}",
                "\"annotations\":{\"summary\":\(JSONText.quoted(narrative.summary)),"
                    + "\"description\":\(JSONText.quoted(narrative.details.joined(separator: "\n")))}",
                "\"startsAt\":\"\(RFC3339.format(seconds: report.startsAt))\"",
            ]
            if let endsAt = report.endsAt { fields.append("\"endsAt\":\"\(RFC3339.format(seconds: endsAt))\"") }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "[" + alerts.joined(separator: ",\n") + "]\n"
    }

    private static func label(_ report: AlertReport) -> String {
        report.endsAt != nil ? "RESOLVED \(report.severity.rawValue.uppercased())" : report.severity.rawValue.uppercased()
    }
}
