import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore

/// The words of an alert, the same in every format; untrusted values pass through the format's escaping.
struct AlertNarrative {
    let report: AlertReport
    let escaping: TextEscaping
    /// The time the report is read at, for "since … (22 min)".
    let now: Int64

    var finding: AlertFinding { report.finding }
    private var action: String { escaping.escape(finding.labels.actionType) }

    /// Where the alert applies: the action, and the slice if any.
    var scope: String {
        guard let slice = finding.labels.slice else { return action }
        let store = finding.labels.store.map { "store=\(escaping.escape($0)), " } ?? ""
        return "\(action), \(store)\(slice.dimension.rawValue)=\(escaping.escape(slice.value ?? "(none)"))"
    }

    /// One line saying what is broken and how badly.
    var summary: String {
        switch finding.kind {
        case .noEvents:
            return "no \(action) events at all for \(NumberText.duration(finding.silentSeconds ?? 0)) "
                + "(\(NumberText.count(finding.expectedEvents ?? 0)) expected in the loss-of-signal window when the silence was noticed)"
        case .alreadyGrantedSpike, .cancelRateSpike, .unfinishedPurchases, .refundSpike:
            let spike = finding.spike!
            let what = spike.measure
            let ratio = spike.baselineRate > 0 ? String(format: "%.1f×", spike.rate / spike.baselineRate) : "new"
            return "\(scope): \(what) at \(NumberText.percent(spike.rate)), \(ratio) \(spike.baseline) (\(NumberText.percent(spike.baselineRate)))"
        case .chargedNotGranted:
            return chargeSummary(finding.charges!)
        case .successRateBurn:
            let rule = finding.rule!
            let threshold = rate(finding.burnRateThreshold)
            var text = "\(scope): success rate \(NumberText.percent(finding.shortWindow.successRate)) over the last "
                + "\(shortSpan) against the \(NumberText.percent(finding.objective?.target)) objective"
            if rule.isExactTest {
                text += ", burning the error budget \(rate(finding.burnRateShort))×, beyond chance above the \(threshold)× "
                    + "threshold (a hard outage)"
            } else {
                text += " (\(NumberText.percent(finding.longWindow.successRate)) over \(TimeStep(seconds: rule.longWindowSeconds))), "
                    + "burning the error budget \(rate(finding.burnRateShort))× over \(shortSpan) "
                    + "and \(rate(finding.burnRateLong))× over \(TimeStep(seconds: rule.longWindowSeconds)) (threshold \(threshold)×)"
            }
            if let share = finding.shareOfFailures {
                text += " (\(NumberText.percent(share)) of all \(action) failures)"
            }
            return text
        }
    }

    /// The details: since when, the counts, the budget, where the failures are, the errors (then come
    /// ``lookNext`` and ``references``).
    var details: [String] {
        var lines = ["since \(RFC3339.format(seconds: report.startsAt)) (\(NumberText.duration((report.endsAt ?? now) - report.startsAt)))"
            + (report.endsAt.map { ", resolved \(RFC3339.format(seconds: $0))" } ?? "")]
        if report.severityChanges.count > 1 {
            lines.append("severity: " + report.severityChanges.map {
                "\($0.severity.rawValue) from \(RFC3339.format(seconds: $0.atSeconds))"
            }.joined(separator: ", "))
        }
        if let charges = finding.charges {
            lines += chargeDetails(charges)
        }
        if let spike = finding.spike {
            lines.append(
                "last \(NumberText.duration(spike.windowSeconds)): \(NumberText.count(spike.observed)) of \(NumberText.count(spike.exposure)); "
                    + "baseline \(NumberText.count(spike.baselineObserved)) of \(NumberText.count(spike.baselineExposure)); "
                    + "exact one-sided test p = \(String(format: "%.1e", spike.pValue))")
        }
        if finding.kind == .successRateBurn, let rule = finding.rule, rule.isExactTest {
            lines.append(
                "\(shortSpan): \(NumberText.count(finding.shortWindow.failure)) of "
                    + "\(NumberText.count(finding.shortWindow.valid)) valid events failed")
        } else if finding.kind == .successRateBurn, let rule = finding.rule {
            lines.append(
                "\(TimeStep(seconds: rule.longWindowSeconds)): \(NumberText.count(finding.longWindow.failure)) of "
                    + "\(NumberText.count(finding.longWindow.valid)) valid events failed; \(shortSpan): "
                    + "\(NumberText.count(finding.shortWindow.failure)) of \(NumberText.count(finding.shortWindow.valid))")
        }
        if let remaining = report.budgetRemaining, let objective = finding.objective {
            lines.append(
                "error budget over \(objective.window): "
                    + (remaining >= 0 ? "\(NumberText.percent(remaining)) left" : "overspent by \(NumberText.percent(-remaining))"))
        }
        if !report.concentration.isEmpty {
            lines.append("failures concentrate in: " + report.concentration.map {
                "\($0.slice.dimension.rawValue)=\(escaping.escape($0.slice.value ?? "(none)")) (\(NumberText.percent($0.share)))"
            }.joined(separator: ", "))
        }
        if !finding.sameFailuresIn.isEmpty {
            lines.append("the same failures show in: " + finding.sameFailuresIn.map {
                "\($0.dimension.rawValue)=\(escaping.escape($0.value ?? "(none)"))"
            }.joined(separator: ", "))
        }
        if !report.topErrors.isEmpty {
            lines.append("top errors: " + report.topErrors.map {
                "\"\(escaping.escape(String($0.description.prefix(120))))\" (\(NumberText.count($0.events)))"
            }.joined(separator: ", "))
        }
        return lines
    }

    /// A query that shows the failures by product and error over the alert's span, on the database the
    /// alert was evaluated on, quoted so that it runs as printed in a POSIX shell. Plain text (bidi
    /// controls shown as U+FFFD): each output puts it where its markup does not apply (``lookNextLine``).
    var lookNext: String {
        if let charges = finding.charges { return chargeLookNext(charges) }
        if finding.kind == .refundSpike { return refundLookNext }
        var words = ["purchase-sli", "query"]
        if let database = report.databasePath { words += ShellWord.option("db", database) }
        words += [
            "--from", RFC3339.format(seconds: report.startsAt - (finding.rule?.longWindowSeconds ?? 3600)),
            "--to", RFC3339.format(seconds: report.endsAt ?? finding.time), "--where", "actionType=\(finding.labels.actionType)",
        ]
        if let slice = finding.labels.slice { words += ["--where", "\(slice.dimension.rawValue)=\(slice.value ?? "")"] }
        words += finding.kind == .noEvents ? ["--step", "5m"] : ["--by", "productID,errorDescription"]
        return TerminalText.sanitized(words.map(ShellWord.quoted).joined(separator: " "))
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

    /// Who owns the objective and where its runbook and the alert's dashboard page are, or nil when the
    /// policy names none and no base URL was given.
    var references: String? {
        let parts = [report.owner.map { "owner: \(escaping.escape($0))" }, report.runbookURL.map { "runbook: \($0)" },
                     report.pageURL.map { "dashboard: \($0)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// The span the short window covered (widened on thin traffic, cut at a recovery), e.g. "30m".
    private var shortSpan: TimeStep { TimeStep(seconds: finding.shortWindowSeconds ?? finding.rule?.shortWindowSeconds ?? 0) }

    private func rate(_ value: Double?) -> String {
        value.map { String(format: "%.1f", $0) } ?? "n/a"
    }
}
