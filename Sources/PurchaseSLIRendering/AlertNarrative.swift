import Foundation
import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore

/// The words of an alert, the same in every format: the evidence's own text (``AlertEvidence``) between
/// the lines every alert has; untrusted values pass through the format's escaping.
struct AlertNarrative {
    let report: AlertReport
    let escaping: TextEscaping
    /// The time the report is read at, for "since … (22 min)" and the end of the look-next range.
    let now: Int64
    /// The zone its times are written in (the look-next command's stay UTC, as typed).
    let zone: TimeZoneOffsets

    var finding: AlertFinding { report.finding }

    /// One line saying what is broken and how badly.
    var summary: String { finding.evidence.summary(of: finding).rendered(escaping, zone: zone) }

    /// The details: since when, the evidence's numbers, the budget, where the failures are, the errors
    /// (then come ``lookNext`` and ``references``).
    var details: [String] {
        var lines = [
            "since \(zone.timestamp(report.startsAt)) (\(NumberText.duration((report.endsAt ?? now) - report.startsAt)))"
                + (report.endsAt.map { ", resolved \(zone.timestamp($0))" } ?? "")
        ]
        if report.severityChanges.count > 1 {
            lines.append(
                "severity: "
                    + report.severityChanges.map {
                        "\($0.severity.rawValue) from \(zone.timestamp($0.atSeconds))"
                    }.joined(separator: ", "))
        }
        if let incident = report.incident { lines.append(incidentLine(incident)) }
        lines += finding.evidence.details(of: finding).map { $0.rendered(escaping, zone: zone) }
        if let current = report.current { lines.append(current.rendered(escaping, zone: zone)) }
        if let remaining = report.budgetRemaining, let objective = finding.evidence.objective {
            lines.append(
                "error budget over \(StoreCoverageText.window(objective.window, basis: report.budgetBasis)): "
                    + (remaining >= 0 ? "\(NumberText.percent(remaining)) left" : "overspent by \(NumberText.percent(-remaining))"))
        }
        if let cost = report.costText { lines.append(cost.rendered(escaping, zone: zone)) }
        if let acknowledged = report.incidentRecord?.acknowledgementText { lines.append(acknowledged.rendered(escaping, zone: zone)) }
        if !report.concentration.isEmpty {
            lines.append(
                "failures concentrate in: "
                    + report.concentration.map {
                        "\($0.slice.dimension.rawValue)=\(escaping.escape($0.slice.value ?? "(none)")) (\(NumberText.percent($0.share)) of the "
                            + "failures, \(NumberText.percent($0.trafficShare)) of the traffic)"
                    }.joined(separator: ", "))
        }
        if !report.topErrors.isEmpty {
            lines.append(
                "top errors: "
                    + report.topErrors.map {
                        "\"\(escaping.escape(String($0.description.prefix(120))))\" (\(NumberText.count($0.events)))"
                    }.joined(separator: ", "))
        }
        return lines
    }

    /// "incident 20261111-1149-6d6271, first bad minute 2026-11-11T11:30:00Z: also fired 2026-11-12T03:31:00Z to
    /// 2026-11-12T05:39:00Z; with CancelRateSpike purchase, productID=coins_500 (ticket, ended …)": the
    /// incident, when the trouble first showed in the events, the alert's other episodes in it and its other
    /// alerts, each at its severity now (its highest once over).
    private func incidentLine(_ incident: Incident) -> String {
        let others = incident.episodes.filter { $0.first.identity != finding.identity || $0.startsAt != report.startsAt }
        let again = others.filter { $0.first.identity == finding.identity }.map { episode in
            "\(zone.timestamp(episode.startsAt)) to " + (episode.endsAt.map { zone.timestamp($0) } ?? "now")
        }
        let alerts = others.filter { $0.first.identity != finding.identity }.map { episode in
            let labels = episode.first.labels
            let scope =
                labels.actionType + (labels.store.map { ", store=\($0)" } ?? "")
                + (labels.slice.map { ", \($0.dimension.rawValue)=\(escaping.escape($0.value ?? "(none)"))" } ?? "")
            let severity = episode.endsAt == nil ? episode.latest.severity : episode.severity
            return "\(episode.first.kind.rawValue) \(scope) (\(severity.rawValue)"
                + (episode.endsAt.map { ", ended \(zone.timestamp($0))" } ?? ", firing") + ")"
        }
        var parts: [String] = []
        if !again.isEmpty { parts.append("also fired " + again.joined(separator: " and ")) }
        if !alerts.isEmpty { parts.append("with " + alerts.joined(separator: ", ")) }
        let id = escaping == .html ? report.incidentURL.map { "<a href=\"\(HTML.escape($0))\">\(incident.id)</a>" } ?? incident.id : incident.id
        return "incident \(id), first bad minute \(zone.timestamp(incident.firstBadSeconds))"
            + (parts.isEmpty ? "" : ": " + parts.joined(separator: "; "))
    }

    /// The command that shows what the alert counted, from the first minute it counted
    /// (``AlertReport/countedFromSeconds``) to its end or the time it is read at, on the database it was
    /// evaluated on, quoted so that it runs as printed in a POSIX shell. Plain
    /// text (bidi controls shown as U+FFFD): each output puts it where its markup does not apply
    /// (``lookNextLine``).
    var lookNext: String {
        let command = finding.evidence.lookNext(of: finding, from: report.countedFromSeconds, to: report.endsAt ?? now).scoped(toApp: report.app)
        var words = ["purchase-sli", command.subcommand]
        if let database = report.databasePath { words += ShellWord.option("db", database) }
        words += command.arguments
        return TerminalText.sanitized(words.map(ShellWord.quoted).joined(separator: " ") + (command.note.map { "; " + $0 } ?? ""))
    }

    /// "look next: " and ``lookNext`` as code that copies exactly: plain on a terminal, a Markdown code
    /// span, a Slack code block (only `&`, `<`, `>` as entities, which Slack shows as the characters); the
    /// command never holds two backticks in a row (``ShellWord/quoted(_:)``), so no value can close them.
    var lookNextLine: String {
        switch escaping {
        case .terminal: "look next: " + lookNext
        case .markdown: "look next: `` " + lookNext + " ``"
        case .slack: "look next: ```" + TextEscaping.slackEntities(lookNext) + "```"
        case .html: "look next: <code>" + HTML.escape(lookNext) + "</code>"
        }
    }

    /// The details, the query to run next and the references, as lines.
    var allLines: [String] { details + [lookNextLine] + (references.map { [$0] } ?? []) }

    /// Who owns the objective and where its runbook, the alert's dashboard page and its incident's report
    /// are (HTML links the incident's id instead), or nil when the policy names none and no base URL was
    /// given.
    var references: String? {
        let parts = [
            report.owner.map { "owner: \(escaping.escape($0))" }, report.runbookURL.map { "runbook: \($0)" },
            report.pageURL.map { "dashboard: \($0)" },
            escaping == .html ? nil : report.incidentURL.map { "incident report: \($0)" },
        ].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

extension AlertReport {
    /// The command that shows what is behind the alert, as its text prints it ("look next"), read at `now`.
    public func lookNextCommand(now: Int64) -> String { AlertNarrative(report: self, escaping: .terminal, now: now, zone: .utc).lookNext }
}
