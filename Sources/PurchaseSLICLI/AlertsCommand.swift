import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIOutbound
import PurchaseSLIRendering
import PurchaseSLIServer

/// `purchase-sli alerts`: the alerts firing at a time (optionally posted to an Alertmanager or a chat), or a
/// backtest over a range.
struct AlertsCommand: AsyncParsableCommand {
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
              purchase-sli alerts --at now --base-url https://sli.example.com   # links to oncall.html#…
              purchase-sli alerts --notify http://alertmanager:9093/api/v2/alerts
              purchase-sli alerts --notify https://hooks.slack.com/services/T/B/X --notify-format slack
              purchase-sli alerts --from 2026-11-01 --to 2026-11-04 --step 1m --format text   # backtest

            \(HealthExitCode.help) A backtest (--from) exits 0 whatever fired.
            """)

    @OptionGroup var store: StoreOptions

    @OptionGroup var app: AppOption

    @OptionGroup var policy: PolicyOptions

    @OptionGroup var timeZone: TimeZoneOption

    @OptionGroup var links: LinkOptions

    @Option(
        help: ArgumentHelp(
            "Directory of dashboard definitions: with --base-url, the alerts link to the page among them that shows alerts.", valueName: "dir"))
    var dashboards = "dashboards"

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

    @Option(
        help: ArgumentHelp(
            "Also POST the alerts firing at --at to this URL: an Alertmanager's /api/v2/alerts or a Slack-compatible incoming webhook.",
            valueName: "url"))
    var notify: String?

    @Option(help: "What --notify posts to: alertmanager (an array of alerts, [] when none fires) or slack ({\"text\": …}, nothing when none fires).")
    var notifyFormat: AlertNotificationFormat?

    func validate() throws {
        if (from == nil) != (to == nil) { throw ValidationError("A backtest needs both --from and --to.") }
        if from != nil && at != nil { throw ValidationError("Give either --at or a backtest range (--from, --to), not both.") }
        if from != nil && (format == .markdown || format == .slack) {
            throw ValidationError("Backtests print text or json.")
        }
        if notify != nil && from != nil {
            throw ValidationError("--notify sends the alerts firing at one time (--at); a backtest (--from, --to) cannot notify.")
        }
        if notifyFormat != nil && notify == nil { throw ValidationError("--notify-format goes with --notify.") }
        _ = try notificationURL()
        guard TimeStep.minutes(parsing: step) != nil else {
            throw ValidationError("--step: expected a whole number of minutes such as 1m or 5m, got \"\(step)\".")
        }
        _ = try times(nowSeconds: WallClock.system.nowSeconds)
    }

    func run() async throws {
        ReadingMemory.limitArenas()
        let time = try times(nowSeconds: WallClock.system.nowSeconds)
        let loaded = try exitingOnFailure { try policy.load() }
        let zone = try exitingOnFailure { try timeZone.zone(loaded) }
        let context = try await exitingOnFailure {
            try await AlertContext(
                store: try store.openStore(), policy: loaded, app: app.app, databasePath: try store.location().filePath,
                alertPageURL: links.url(of: DashboardDefinition.alertPage(in: (try? DashboardFiles.load(directory: dashboards)) ?? [], for: app.app)),
                pagesURL: links.baseURL.flatMap(LinkOptions.normalized))
        }
        guard from == nil else {
            let reports = try await exitingOnFailure {
                try await context.episodeReports(from: time.0, to: time.1, stepSeconds: TimeStep.minutes(parsing: step)!)
            }
            print(backtestOutput(reports, from: time.0, to: time.1, zone: zone), terminator: "")
            return
        }
        let (reports, freshness) = try await exitingOnFailure {
            (try await context.firingReports(at: time.1), try await context.freshness(at: time.1))
        }
        print(output(reports, at: time.1, freshness: freshness, zone: zone), terminator: "")
        if let url = try notificationURL() {
            try await exitingOnFailure {
                try await HTTPClientTransport.withTransport { transport in
                    try await WebhookSender(url: url, format: notifyFormat ?? .alertmanager, zone: zone, transport: transport)
                        .send(reports, evaluatedAt: time.1)
                }
            }
        }
        if let code = HealthExitCode.of(firing: reports, freshness: freshness) { throw code }
    }

    private func output(_ reports: [AlertReport], at time: Int64, freshness: DataFreshness, zone: TimeZoneOffsets) -> String {
        switch format {
        case .text: AlertOutput.text(reports, now: time, freshness: freshness, zone: zone)
        case .markdown: AlertOutput.markdown(reports, now: time, freshness: freshness, zone: zone)
        case .slack: AlertOutput.slack(reports, now: time, freshness: freshness, zone: zone)
        case .json: AlertOutput.alertmanagerJSON(reports, now: time)
        }
    }

    private func backtestOutput(_ reports: [AlertReport], from: Int64, to: Int64, zone: TimeZoneOffsets) -> String {
        if format == .json { return AlertOutput.alertmanagerJSON(reports, now: to) }
        let header =
            "backtest \(zone.timestamp(from)) to \(zone.timestamp(to)) every \(step): "
            + "\(reports.count) alert episode\(reports.count == 1 ? "" : "s")\n\n"
        return header + (reports.isEmpty ? "" : AlertOutput.text(reports, now: to, zone: zone))
    }

    /// The `--notify` URL, checked.
    private func notificationURL() throws -> URL? {
        try notify.map { text in
            guard let url = OutboundHTTP.absoluteURL(text) else {
                throw ValidationError("--notify: expected an http or https URL, got \"\(text)\".")
            }
            return url
        }
    }

    /// The evaluation time (`--at`, minute-aligned), or the backtest range.
    private func times(nowSeconds: Int64) throws -> (Int64, Int64) {
        func parse(_ text: String, _ option: String) throws -> Int64 {
            try TimeArgument.minute(text, option: option, nowSeconds: nowSeconds)
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
