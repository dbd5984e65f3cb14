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
        return JSONTextEncoder.text(SlackText(text: lines.joined(separator: "\n"))) + "\n"
    }

    /// A JSON webhook body: `{"previousVerdict": …, "rollout": …}`, the latter as ``json(_:)`` prints it.
    public static func webhookJSON(_ report: RolloutReport, previous: RolloutReport.Verdict?) -> String {
        struct Webhook: Encodable {
            let previousVerdict: String?
            let rollout: RolloutReportJSON
        }
        return JSONTextEncoder.text(Webhook(previousVerdict: previous?.rawValue, rollout: RolloutReportJSON(report))) + "\n"
    }

    /// The report as one line of ``RolloutReportJSON``.
    public static func json(_ report: RolloutReport) -> String { JSONTextEncoder.text(RolloutReportJSON(report)) + "\n" }

    /// Each action's comparisons and every regression: what a person needs to see.
    private static func shownComparisons(_ report: RolloutReport) -> [RolloutComparison] {
        report.comparisons.filter { $0.slice.slice == nil || $0.isRegression }
    }
}

/// A Slack incoming-webhook body of text alone: `{"text"}`.
struct SlackText: Encodable {
    let text: String
}

/// A rollout's report as JSON: `{"app" (only for one app's report), "candidate", "baseline", "from", "to",
/// "verdict", "reasons", "progress", "position", "platforms", "actions", "incidents", "comparisons",
/// "checks"}` with every comparison and the verdict of every hourly check; `incidents` are the records of
/// the incidents whose alerts named the candidate, as ``IncidentJSON`` writes them.
public struct RolloutReportJSON: Encodable, Sendable {
    /// `{"step", "nextStep", "share", "day", "start", "earlierRelease": {"from", "to"} or null, "confidence"}`.
    struct Progress: Encodable {
        struct Span: Encodable {
            let from: JSONTime
            let to: JSONTime
        }

        let step: Int?
        let nextStep: Int?
        let share: Double?
        let day: Int
        let start: JSONTime
        let earlierRelease: Span?
        let confidence: Double
    }

    /// `{"source": "app-store-connect" | "play-console" | "apple-schedule", "day", "percent", "nextPercent",
    /// "paused", "pauseDaysLeft", "reachesEveryone"}`: where the release stands, as the store said or by
    /// Apple's schedule.
    struct Position: Encodable {
        let source: String
        let day: Int?
        let percent: Double?
        let nextPercent: Int?
        let paused: Bool
        let pauseDaysLeft: Int?
        let reachesEveryone: JSONTime?
    }

    /// `{"id", "store", "mode", "verdict", "outcome", "status", "detail", "step", "time", "attempts", "text"}`.
    struct Action: Encodable {
        let id: String
        let store: String
        let mode: String
        let verdict: String
        let outcome: String
        let status: Int
        let detail: String
        let step: Int?
        let time: JSONTime
        let attempts: Int
        let text: String
    }

    /// One side of a comparison: `{"count", "trials", "rate", "interval": [low, high]}`.
    struct Side: Encodable {
        let count: Int64
        let trials: Int64
        let rate: Double?
        let interval: [Double]
    }

    /// One comparison of the candidate with the baseline.
    struct Comparison: Encodable {
        let metric: String
        let slice: JSONMembers<String>
        let candidate: Side
        let baseline: Side
        let pValue: Double?
        let adjustedPValue: Double?
        let effect: Double?
        let effectInterval: [Double]?
        let excessEvents: Double?
        let regression: Bool
    }

    /// One hourly check: `{"time", "step", "verdict"}`.
    struct Check: Encodable {
        let time: JSONTime
        let step: Int?
        let verdict: String
    }

    let app: JSONOmittedIfAbsent<String>
    let candidate: String
    let baseline: String
    let from: JSONTime
    let to: JSONTime
    let verdict: String
    let reasons: [String]
    let progress: Progress?
    let position: Position?
    let platforms: [String]
    let actions: [Action]
    let incidents: [IncidentJSON]
    let comparisons: [Comparison]
    let checks: [Check]

    /// The report's JSON.
    public init(_ report: RolloutReport) {
        let narrative = RolloutNarrative(report: report, escaping: .terminal, zone: .utc)
        func side(_ side: RolloutComparison.Side) -> Side {
            Side(count: side.count, trials: side.trials, rate: side.rate, interval: [side.interval.lowerBound, side.interval.upperBound])
        }
        app = JSONOmittedIfAbsent(report.app)
        candidate = report.candidate
        baseline = report.baseline
        from = JSONTime(report.fromSeconds)
        to = JSONTime(report.toSeconds)
        verdict = report.verdict.rawValue
        reasons = narrative.reasons
        progress = report.progress.map { progress in
            Progress(
                step: progress.step, nextStep: progress.nextStep, share: progress.share, day: progress.day, start: JSONTime(progress.startSeconds),
                earlierRelease: progress.earlierRelease.map { Progress.Span(from: JSONTime($0.lowerBound), to: JSONTime($0.upperBound)) },
                confidence: progress.confidence)
        }
        position = report.position.map { position in
            let (source, day): (String, Int?) =
                switch position.source {
                case .appStoreConnect(let day): ("app-store-connect", day)
                case .playConsole: ("play-console", nil)
                case .appleSchedule(let day): ("apple-schedule", day)
                }
            return Position(
                source: source, day: day, percent: position.percent, nextPercent: position.nextPercent, paused: position.isPaused,
                pauseDaysLeft: position.pauseDaysLeft, reachesEveryone: .optional(position.reachesEveryoneSeconds))
        }
        platforms = report.platforms
        actions = zip(report.actions, narrative.actions).map { action, text in
            Action(
                id: action.id, store: action.store.rawValue, mode: action.isDryRun ? "dry-run" : "live", verdict: action.verdict,
                outcome: action.outcome.rawValue, status: action.status, detail: action.detail, step: action.step,
                time: JSONTime(action.timeSeconds), attempts: action.attempts, text: text)
        }
        incidents = report.incidents.map(IncidentJSON.init)
        comparisons = report.comparisons.map { comparison in
            Comparison(
                metric: comparison.metric.rawValue, slice: JSONMembers(comparison.slice.pairs), candidate: side(comparison.candidate),
                baseline: side(comparison.baseline), pValue: comparison.pValue, adjustedPValue: comparison.adjustedPValue,
                effect: comparison.effect, effectInterval: comparison.effectInterval.map { [$0.lowerBound, $0.upperBound] },
                excessEvents: comparison.excessEvents, regression: comparison.isRegression)
        }
        checks = report.checks.map { Check(time: JSONTime($0.timeSeconds), step: $0.step, verdict: $0.verdict.rawValue) }
    }
}
