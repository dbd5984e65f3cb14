import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage

/// `purchase-sli alerts`: the alerts firing at a time, or a backtest over a range.
struct AlertsCommand: ParsableCommand {
    /// Output formats of `alerts`.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, slack, json
    }

    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "Print the alerts firing at a time, or backtest the alert rules over a range.",
        discussion: """
            Evaluates the SLOs of --policy (default: dashboards/slos.yaml when present, else the built-in \
            defaults it documents) with multi-window multi-burn-rate rules for each action and each slice, \
            and flags actions whose events stopped (NoPurchaseEvents). Only events with timestamps before \
            the evaluation time count.

            Examples:
              purchase-sli alerts --at 2026-11-02T18:30:00Z
              purchase-sli alerts --at now --format json          # Alertmanager v2 alerts
              purchase-sli alerts --from 2026-11-01 --to 2026-11-04 --step 1m --format text   # backtest
            """)

    @OptionGroup var store: StoreOptions

    @OptionGroup var policy: PolicyOptions

    @Option(help: ArgumentHelp("Evaluation time (default: now).", valueName: "time"))
    var at: String?

    @Option(help: ArgumentHelp("Backtest: start of the range.", valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("Backtest: end of the range.", valueName: "time"))
    var to: String?

    @Option(help: ArgumentHelp("Backtest: evaluation step, a whole number of minutes.", valueName: "step"))
    var step: String = "1m"

    @Option(help: "Output format (backtests: text or json).")
    var format: Format = .text

    func validate() throws {
        if (from == nil) != (to == nil) { throw ValidationError("A backtest needs both --from and --to.") }
        if from != nil && at != nil { throw ValidationError("Give either --at or a backtest range (--from, --to), not both.") }
        if from != nil && (format == .markdown || format == .slack) {
            throw ValidationError("Backtests print text or json.")
        }
        guard let step = TimeStep(parsing: step), step.seconds % 60 == 0 else {
            throw ValidationError("--step: expected a whole number of minutes such as 1m or 5m, got \"\(step)\".")
        }
        _ = try times(nowSeconds: Int64(Date().timeIntervalSince1970))
    }

    func run() throws {
        let output = try exitingOnFailure {
            let nowSeconds = Int64(Date().timeIntervalSince1970)
            let policy = try self.policy.load()
            let context = AlertContext(store: try store.openStore(), policy: policy)
            let (start, end) = try times(nowSeconds: nowSeconds)
            let evaluator = AlertEvaluator(policy: policy)
            return from == nil
                ? try evaluate(at: end, evaluator: evaluator, context: context)
                : try backtest(from: start, to: end, evaluator: evaluator, context: context)
        }
        print(output, terminator: "")
    }

    private func evaluate(at time: Int64, evaluator: AlertEvaluator, context: AlertContext) throws -> String {
        // Read what the rules and keepFiringFor need; read further back only for an alert that was already
        // firing at the start of what was read, to say since when.
        let lookback = evaluator.policy.lookbackSeconds + evaluator.policy.keepFiringForSeconds
        let inputs = try context.inputs(from: time - lookback, to: time)
        var history: AlertInputs?
        let reports = try evaluator.findings(at: time, inputs: inputs).map { finding in
            var start = evaluator.startOfFiring(finding.identity, at: time, inputs: inputs)
            if start <= inputs.startSeconds + evaluator.policy.lookbackSeconds {
                if history == nil { history = try context.inputs(from: time - lookback - 3 * 86_400, to: time) }
                start = evaluator.startOfFiring(finding.identity, at: time, inputs: history!)
            }
            return try context.report(finding, startsAt: start, inputs: inputs)
        }
        switch format {
        case .text: return AlertOutput.text(reports, now: time)
        case .markdown: return AlertOutput.markdown(reports, now: time)
        case .slack: return AlertOutput.slack(reports, now: time)
        case .json: return AlertOutput.alertmanagerJSON(reports, now: time)
        }
    }

    private func backtest(from: Int64, to: Int64, evaluator: AlertEvaluator, context: AlertContext) throws -> String {
        let inputs = try context.inputs(from: from - evaluator.policy.lookbackSeconds, to: to)
        let episodes = evaluator.episodes(from: from, to: to, stepSeconds: TimeStep(parsing: step)!.seconds, inputs: inputs)
        let reports = try episodes.map { episode in
            try context.report(episode.first, startsAt: episode.startsAt, endsAt: episode.endsAt, inputs: inputs)
        }
        if format == .json { return AlertOutput.alertmanagerJSON(reports, now: to) }
        let header = "backtest \(RFC3339.format(seconds: from)) to \(RFC3339.format(seconds: to)) every \(step): "
            + "\(episodes.count) alert episode\(episodes.count == 1 ? "" : "s")\n\n"
        return header + (reports.isEmpty ? "" : AlertOutput.text(reports, now: to))
    }

    /// The evaluation time (`--at`, minute-aligned), or the backtest range.
    private func times(nowSeconds: Int64) throws -> (Int64, Int64) {
        func parse(_ text: String, _ option: String) throws -> Int64 {
            guard let time = TimeArgument(text, nowSeconds: nowSeconds) else {
                throw ValidationError("--\(option): expected \(TimeArgument.forms), got \"\(text)\".")
            }
            return time.seconds - time.seconds.floorDividedBy(60).remainder
        }
        if let from, let to {
            let range = (try parse(from, "from"), try parse(to, "to"))
            guard range.0 < range.1 else { throw ValidationError("--from must be before --to.") }
            return range
        }
        let time = try parse(at ?? "now", "at")
        return (time, time)
    }
}
