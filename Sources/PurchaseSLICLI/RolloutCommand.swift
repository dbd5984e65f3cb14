import ArgumentParser
import Foundation
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIOutbound
import PurchaseSLIRendering
import PurchaseSLIServer

/// `purchase-sli rollout`: should the phased release of an app version go on?
struct RolloutCommand: AsyncParsableCommand {
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

            With a store set up (--asc-key-file … or --play-service-account …, or their environment \
            variables) the text says where the store has the release (App Store Connect's day and share, a \
            pause and the days left of Apple's 30-day limit; Play's user fraction). With --act it also does \
            what `serve --rollout-every` does on the verdicts the policy's rollout.pauseOn names, through the \
            same code: a dry run by default (reads the release and says what it would do); \
            --rollout-actions live records an action awaiting `rollout confirm ID`, and pauses once confirmed \
            (or at once with --rollout-confirm none). Live acting rests on the verdict now: --at must be \
            within the last hour.

            Examples:
              purchase-sli rollout
              purchase-sli rollout --candidate 4.12.0
              purchase-sli rollout --candidate 4.12.0 --baseline 4.11.0 --at 2026-11-18T00:00:00Z --format json
              purchase-sli rollout --act --asc-key-file AuthKey_ABC123DEFG.p8 --asc-key-id ABC123DEFG \\
                --asc-issuer-id 57246542-96fe-1a63-e053-0824d011072a --asc-app-id 1234567890
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

    @Flag(
        help:
            "Act on the verdict as serve does: pause the store's release when the policy's rollout.pauseOn names the verdict (a dry run unless --rollout-actions live)."
    )
    var act = false

    @OptionGroup(title: "The stores' releases (docs/rollout.md)") var actions: RolloutActionOptions

    func validate() throws {
        if candidate == baseline { throw ValidationError("--baseline must differ from --candidate.") }
        _ = try times(nowSeconds: WallClock.system.nowSeconds)
    }

    func run() async throws {
        ReadingMemory.limitArenas()
        print(try await exitingOnFailure(output), terminator: "")
    }

    /// The verdict in the chosen format; with a store set up, where the store has the release, and with
    /// `--act`, what was done to it.
    func output() async throws -> String {
        let policy = try self.policy.load()
        let zone = try timeZone.zone(policy)
        let now = WallClock.system.nowSeconds
        let (since, end) = try times(nowSeconds: now)
        let given = try ServeSettings(
            options: actions.givenOptions, environment: ProcessInfo.processInfo.environment, file: nil, reading: ServeSetting.releaseActions)
        let settings = try RolloutActionOptions.releases(of: given)
        if act, !settings.isConfigured {
            throw CommandFailure(
                message: "--act needs a store to act on: --asc-key-file, --asc-key-id, --asc-issuer-id and --asc-app-id, or "
                    + "--play-service-account and --play-package (or their environment variables; docs/rollout.md)")
        }
        if act, settings.live, end < now - .secondsPerHour {
            throw CommandFailure(message: "--act with --rollout-actions live acts on the verdict now: --at must be within the last hour")
        }
        let context = try await AlertContext(store: try store.openStore(), policy: policy, app: app.app)
        return try await HTTPClientTransport.withTransport { transport in
            let actuator =
                settings.isConfigured
                ? RolloutActuator(
                    controls: try await RolloutActionOptions.controls(settings, transport: transport), dryRun: !settings.live,
                    requiresConfirmation: settings.requiresConfirmation, store: context.store, logger: Logger(label: "purchase-sli"))
                : nil
            let releases = await actuator?.releasesInProgress() ?? StoreReleases()
            var report = try await verdict(context: context, releases: releases, since: since, end: end, zone: zone)
            report.actions = try await context.rolloutActions(of: report)
            if act, let actuator {
                _ = await actuator.act(on: report, verdicts: policy.rollout.pauseOn, releases: releases, at: end)
                report.actions = try await context.rolloutActions(of: report)
            }
            return render(report, zone: zone)
        }
    }

    /// The verdict at `end` of the candidate (the one a store has in release when one was read), with the
    /// stores' releases of it and the incidents naming it.
    private func verdict(
        context: AlertContext, releases: StoreReleases, since: Int64?, end: Int64, zone: TimeZoneOffsets
    ) async throws -> RolloutReport {
        let query = RolloutQuery(store: context.store)
        guard let candidate = try await query.candidate(candidate, at: end, releases: releases.all) else {
            throw ValidationError(
                "--candidate auto: no app version but one has 1 % of the events over the 14 days before \(zone.timestamp(end)); "
                    + "name the version with --candidate")
        }
        let inputs = try await query.inputs(candidate: candidate, baseline: baseline, since: since, end: end)
        var report = await RolloutEvaluator(policy: context.policy).evaluate(inputs, freshness: try context.freshness(at: end))
        report.app = app.app
        report.storeReleases = releases.all.filter { $0.isRelease(of: candidate) }
        report.incidents = try await IncidentBook(context: context).records(naming: candidate, from: report.fromSeconds, to: end + .secondsPerMinute)
        return report
    }

    /// `report` in the chosen format.
    private func render(_ report: RolloutReport, zone: TimeZoneOffsets) -> String {
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
