import Foundation
public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// A rollout verdict as terminal text, Markdown, or JSON.
public enum RolloutOutput {
    /// For the release manager at a terminal: the verdict and what to do, why, then the comparisons of
    /// each action and every regressed slice.
    public static func text(_ report: RolloutReport, zone: TimeZoneOffsets = .utc) -> String {
        let narrative = RolloutNarrative(report: report, escaping: .terminal, zone: zone)
        var lines = [narrative.headline, "  " + narrative.scope]
        if !narrative.actions.isEmpty { lines += ["", "done:"] + narrative.actions.map { "  - " + $0 } }
        lines += ["", "why:"]
        lines += narrative.reasons.map { "  - " + $0 }
        if !narrative.incidents.isEmpty {
            lines += ["", "incidents on \(TerminalText.sanitized(report.candidate)):"] + narrative.incidents.map { "  - " + $0 }
        }
        let rows =
            [
                [
                    "", "metric", "slice", TerminalText.sanitized(report.candidate), TerminalText.sanitized(report.baseline),
                    "change (points)", "p (corrected)",
                ]
            ]
            + shownComparisons(report).map { comparison in
                [
                    comparison.isRegression ? "!" : "", comparison.metric.title, narrative.sliceName(comparison.slice),
                    "\(NumberText.percent(comparison.candidate.rate)) of \(NumberText.count(comparison.candidate.trials))",
                    "\(NumberText.percent(comparison.baseline.rate)) of \(NumberText.count(comparison.baseline.trials))",
                    comparison.effect.map(NumberText.signed) ?? "n/a",
                    comparison.adjustedPValue.map(NumberText.pValue) ?? "too few to test",
                ]
            }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        lines.append("")
        lines += rows.map { row in
            String(
                ("  " + zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  "))
                    .reversed().drop { $0 == " " }.reversed())
        }
        let hidden = report.comparisons.count - rows.count + 1
        if hidden > 0 {
            lines.append("  (\(hidden) more product and plan comparisons, none significantly worse; --format json lists all)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Markdown, for a release ticket or chat; event data cannot inject markup.
    public static func markdown(_ report: RolloutReport, zone: TimeZoneOffsets = .utc) -> String {
        let narrative = RolloutNarrative(report: report, escaping: .markdown, zone: zone)
        var lines = ["**\(narrative.headline)**", "", narrative.scope, ""]
        if !narrative.actions.isEmpty { lines += ["Done:"] + narrative.actions.map { "- " + $0 } + [""] }
        lines += narrative.reasons.map { "- " + $0 }
        if !narrative.incidents.isEmpty { lines += ["", "Incidents:"] + narrative.incidents.map { "- " + $0 } }
        lines += [
            "",
            "| metric | slice | \(TextEscaping.markdown.escape(report.candidate)) | "
                + "\(TextEscaping.markdown.escape(report.baseline)) | change | p (corrected) |", "|---|---|---|---|---|---|",
        ]
        lines += shownComparisons(report).map { comparison in
            let cells = [
                (comparison.isRegression ? "**\(comparison.metric.title)**" : comparison.metric.title),
                narrative.sliceName(comparison.slice),
                "\(NumberText.percent(comparison.candidate.rate)) of \(NumberText.count(comparison.candidate.trials))",
                "\(NumberText.percent(comparison.baseline.rate)) of \(NumberText.count(comparison.baseline.trials))",
                comparison.effect.map(NumberText.points) ?? "n/a",
                comparison.adjustedPValue.map(NumberText.pValue) ?? "not tested",
            ]
            return "| " + cells.joined(separator: " | ") + " |"
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Slack incoming-webhook body for a verdict that follows `previous`: the headline in bold, what it
    /// was before, the range and step, up to five reasons, and a link to the rollout page; event data
    /// cannot format, mention or link.
    public static func slackJSON(_ report: RolloutReport, previous: RolloutReport.Verdict?, pageURL: String?, zone: TimeZoneOffsets = .utc) -> String
    {
        let narrative = RolloutNarrative(report: report, escaping: .slack, zone: zone)
        var lines = ["*\(narrative.headline)*"]
        if let previous, previous != report.verdict { lines.append("(was \(previous.rawValue))") }
        lines.append("_\(narrative.scope)_")
        lines += narrative.actions.map { "• *Done:* " + $0 }
        lines += narrative.reasons.prefix(5).map { "• " + $0 }
        if narrative.reasons.count > 5 { lines.append("• and \(narrative.reasons.count - 5) more") }
        lines += narrative.incidents.map { "• " + $0 }
        if let pageURL { lines.append("<\(pageURL)|The rollout page>") }
        return "{\"text\":\(JSONText.quoted(lines.joined(separator: "\n")))}\n"
    }

    /// A JSON webhook body: `{"previousVerdict": …, "rollout": …}`, the latter as ``json(_:)`` prints it.
    public static func webhookJSON(_ report: RolloutReport, previous: RolloutReport.Verdict?) -> String {
        "{\"previousVerdict\":\(previous.map { "\"\($0.rawValue)\"" } ?? "null"),\"rollout\":" + json(report).trimmingCharacters(in: .newlines)
            + "}\n"
    }

    /// `{"candidate", "baseline", "from", "to", "verdict", "reasons", "progress", "position", "platforms",
    /// "actions", "incidents", "comparisons", "checks"}` with every comparison and the verdict of every hourly check;
    /// `incidents` are the records of the incidents whose alerts named the candidate, as
    /// ``IncidentListOutput/json(_:)`` writes them.
    public static func json(_ report: RolloutReport) -> String {
        let narrative = RolloutNarrative(report: report, escaping: .terminal, zone: .utc)
        func side(_ side: RolloutComparison.Side) -> String {
            "{\"count\":\(side.count),\"trials\":\(side.trials),\"rate\":\(number(side.rate)),"
                + "\"interval\":[\(JSONText.number(side.interval.lowerBound)),\(JSONText.number(side.interval.upperBound))]}"
        }
        let comparisons = report.comparisons.map { comparison in
            let slice = comparison.slice.pairs.map { JSONText.quoted($0.0) + ":" + JSONText.quoted($0.1) }.joined(separator: ",")
            let interval =
                comparison.effectInterval.map {
                    "[\(JSONText.number($0.lowerBound)),\(JSONText.number($0.upperBound))]"
                } ?? "null"
            return "{\"metric\":\"\(comparison.metric.rawValue)\",\"slice\":{\(slice)},"
                + "\"candidate\":\(side(comparison.candidate)),\"baseline\":\(side(comparison.baseline)),"
                + "\"pValue\":\(number(comparison.pValue)),\"adjustedPValue\":\(number(comparison.adjustedPValue)),"
                + "\"effect\":\(number(comparison.effect)),\"effectInterval\":\(interval),"
                + "\"excessEvents\":\(number(comparison.excessEvents)),\"regression\":\(comparison.isRegression)}"
        }
        let checks = report.checks.map { check in
            "{\"time\":\"\(RFC3339.format(seconds: check.timeSeconds))\",\"step\":\(check.step.map(String.init) ?? "null"),"
                + "\"verdict\":\"\(check.verdict.rawValue)\"}"
        }
        return "{" + (report.app.map { "\"app\":\(JSONText.quoted($0))," } ?? "")
            + "\"candidate\":\(JSONText.quoted(report.candidate)),\"baseline\":\(JSONText.quoted(report.baseline)),"
            + "\"from\":\"\(RFC3339.format(seconds: report.fromSeconds))\",\"to\":\"\(RFC3339.format(seconds: report.toSeconds))\","
            + "\"verdict\":\"\(report.verdict.rawValue)\",\"reasons\":[\(narrative.reasons.map(JSONText.quoted).joined(separator: ","))],"
            + "\"progress\":\(progress(report.progress)),\"position\":\(position(report.position)),\"platforms\":[\(report.platforms.map(JSONText.quoted).joined(separator: ","))],"
            + "\"actions\":[\(zip(report.actions, narrative.actions).map(action).joined(separator: ","))],"
            + "\"incidents\":[\(report.incidents.map(IncidentListOutput.json).joined(separator: ","))],"
            + "\"comparisons\":[\n" + comparisons.joined(separator: ",\n") + "\n],\n\"checks\":[" + checks.joined(separator: ",") + "]}\n"
    }

    /// `{"id", "store", "mode", "verdict", "outcome", "status", "detail", "step", "time", "attempts", "text"}`.
    private static func action(_ action: RolloutAction, text: String) -> String {
        "{\"id\":\"\(action.id)\",\"store\":\"\(action.store.rawValue)\",\"mode\":\"\(action.isDryRun ? "dry-run" : "live")\",\"verdict\":\(JSONText.quoted(action.verdict)),"
            + "\"outcome\":\"\(action.outcome.rawValue)\",\"status\":\(action.status),\"detail\":\(JSONText.quoted(action.detail)),"
            + "\"step\":\(action.step.map(String.init) ?? "null"),\"time\":\"\(RFC3339.format(seconds: action.timeSeconds))\","
            + "\"attempts\":\(action.attempts),\"text\":\(JSONText.quoted(text))}"
    }

    /// `{"step", "nextStep", "share", "day", "start", "earlierRelease": {"from", "to"} or null, "confidence"}`.
    private static func progress(_ progress: RolloutReport.Progress?) -> String {
        guard let progress else { return "null" }
        let earlier =
            progress.earlierRelease.map {
                "{\"from\":\"\(RFC3339.format(seconds: $0.lowerBound))\",\"to\":\"\(RFC3339.format(seconds: $0.upperBound))\"}"
            } ?? "null"
        return "{\"step\":\(progress.step.map(String.init) ?? "null"),\"nextStep\":\(progress.nextStep.map(String.init) ?? "null"),"
            + "\"share\":\(number(progress.share)),\"day\":\(progress.day),\"start\":\"\(RFC3339.format(seconds: progress.startSeconds))\","
            + "\"earlierRelease\":\(earlier),\"confidence\":\(JSONText.number(progress.confidence))}"
    }

    /// `{"source": "app-store-connect" | "play-console" | "apple-schedule", "day", "percent", "nextPercent",
    /// "paused", "pauseDaysLeft", "reachesEveryone"}`: where the release stands, as the store said or by
    /// Apple's schedule; null when neither is known.
    private static func position(_ position: RolloutReport.Position?) -> String {
        guard let position else { return "null" }
        let (source, day): (String, Int?) =
            switch position.source {
            case .appStoreConnect(let day): ("app-store-connect", day)
            case .playConsole: ("play-console", nil)
            case .appleSchedule(let day): ("apple-schedule", day)
            }
        return "{\"source\":\"\(source)\",\"day\":\(day.map(String.init) ?? "null"),\"percent\":\(number(position.percent)),"
            + "\"nextPercent\":\(position.nextPercent.map(String.init) ?? "null"),\"paused\":\(position.isPaused),"
            + "\"pauseDaysLeft\":\(position.pauseDaysLeft.map(String.init) ?? "null"),"
            + "\"reachesEveryone\":\(position.reachesEveryoneSeconds.map { "\"\(RFC3339.format(seconds: $0))\"" } ?? "null")}"
    }

    /// Each action's comparisons and every regression: what a person needs to see.
    private static func shownComparisons(_ report: RolloutReport) -> [RolloutComparison] {
        report.comparisons.filter { $0.slice.slice == nil || $0.isRegression }
    }

    private static func number(_ value: Double?) -> String {
        value.map(JSONText.number) ?? "null"
    }
}
