import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering

/// `purchase-sli rollout`: should the phased release of an app version go on?
struct RolloutCommand: ParsableCommand {
    /// Output formats of `rollout`.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, json
    }

    static let configuration = CommandConfiguration(
        commandName: "rollout",
        abstract: "Compare a candidate app version with the baseline and say proceed, hold, roll back, or wait.",
        discussion: """
            Compares the success, 409, cancel and unfinished rates of each action, product and plan on the \
            candidate with the baseline (default: the busiest other version) hour by hour over the same hours, \
            from the start of the candidate's latest release (or --since) to --at. Every test is sequential: \
            valid however often it is checked (every hour is safe). rollback: the success or unfinished rate \
            is significantly and materially worse; hold: the 409 or cancel rate is; proceed: nothing is, and \
            the purchase flow has ruled out a material drop with the confidence the phased release's next \
            step asks; insufficient-data (WAIT) otherwise; stale (no verdict) on data hours old. The \
            thresholds are the rollout section of the policy.

            Examples:
              purchase-sli rollout
              purchase-sli rollout --candidate 4.12.0
              purchase-sli rollout --candidate 4.12.0 --baseline 4.11.0 --at 2026-11-18T00:00:00Z --format json
              purchase-sli rollout confirm 3fa2c19b07d1
            """,
        subcommands: [RolloutConfirmCommand.self])

    @OptionGroup var store: StoreOptions

    @OptionGroup var app: AppOption

    @OptionGroup var policy: PolicyOptions

    @OptionGroup var timeZone: TimeZoneOption

    @Option(
        help: ArgumentHelp(
            "The app version being released, or auto: the newest with at least 1 % of the events over the 14 days before --at.",
            valueName: "version"))
    var candidate: String = "auto"

    @Option(help: ArgumentHelp("The version to compare with (default: the busiest other version).", valueName: "version"))
    var baseline: String?

    @Option(help: ArgumentHelp("Evaluation time: only events before it count.", valueName: "time"))
    var at: String = "now"

    @Option(help: ArgumentHelp("Start of the comparison (default: the start of the candidate's latest release).", valueName: "time"))
    var since: String?

    @Option(help: "Output format.")
    var format: Format = .text

    func validate() throws {
        if candidate == baseline { throw ValidationError("--baseline must differ from --candidate.") }
        _ = try times(nowSeconds: Int64(Date().timeIntervalSince1970))
    }

    func run() throws {
        print(try exitingOnFailure(output), terminator: "")
    }

    /// The verdict in the chosen format.
    func output() throws -> String {
        let policy = try self.policy.load()
        let zone = try timeZone.zone(policy)
        let (since, end) = try times(nowSeconds: Int64(Date().timeIntervalSince1970))
        let context = AlertContext(store: try store.openStore(), policy: policy, app: app.app)
        let query = RolloutQuery(store: context.store)
        guard let candidate = try query.candidate(candidate, at: end) else {
            throw ValidationError(
                "--candidate auto: no app version but one has 1 % of the events over the 14 days before \(zone.timestamp(end)); "
                    + "name the version with --candidate")
        }
        let inputs = try query.inputs(candidate: candidate, baseline: baseline, since: since, end: end)
        var report = RolloutEvaluator(policy: policy).evaluate(inputs, freshness: try context.freshness(at: end))
        report.app = app.app
        report.actions = try context.store.rolloutActions(of: report)
        report.incidents = try IncidentBook(context: context).records(naming: candidate, from: report.fromSeconds, to: end + 60)
        switch format {
        case .text: return RolloutOutput.text(report, zone: zone)
        case .markdown: return RolloutOutput.markdown(report, zone: zone)
        case .json: return RolloutOutput.json(report)
        }
    }

    /// `--since` (nil when absent) and `--at`, minute-aligned.
    private func times(nowSeconds: Int64) throws -> (Int64?, Int64) {
        func parse(_ text: String, _ option: String) throws -> Int64 {
            try TimeArgument.minute(text, option: option, nowSeconds: nowSeconds)
        }
        let end = try parse(at, "at")
        let start = try since.map { try parse($0, "since") }
        if let start, start >= end { throw ValidationError("--since must be before --at.") }
        return (start, end)
    }
}
