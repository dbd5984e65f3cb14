import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards

/// `purchase-sli render`: writes the static HTML dashboards.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Write the static HTML dashboards (one self-contained file each, and index.html).",
        discussion: """
            Every *.yaml file of --dashboards other than slos.yaml defines one page (see dashboards/oncall.yaml \
            for the panel kinds). The pages cover --range before --at; the weekly review of the last whole ISO \
            week before --at is written too (report-YYYY-Www.html), and index.html links them all. The pages open \
            from disk, from any static host or as an email attachment: no script, no request to any other host.

            Examples:
              purchase-sli render --out out
              purchase-sli render --db demo.sqlite --at 2026-11-18 --range 7d --out out
              purchase-sli render --out /var/www/sli --base-url https://sli.example.com
              purchase-sli render --out out --each-app com.example.coins --each-app com.example.premium
            """)

    @OptionGroup var store: StoreOptions

    @OptionGroup var app: AppOption

    @OptionGroup var policy: PolicyOptions

    @OptionGroup var pages: PagesOptions

    @OptionGroup var timeZone: TimeZoneOption

    @OptionGroup var links: LinkOptions

    @Option(help: ArgumentHelp("End of the range: only events before it count.", valueName: "time"))
    var at = "now"

    @Option(help: ArgumentHelp("How far back the pages reach, a whole number of minutes such as 24h or 7d.", valueName: "duration"))
    var range = "7d"

    @Option(
        name: .customLong("each-app"),
        help: ArgumentHelp(
            "Also write this app's own page set (dashboards, weekly review, incidents, index) into <out>/apps/<dir>/, "
                + "and list it with what fires for it on the top index (repeat for each app).",
            valueName: "id"))
    var eachApp: [String] = []

    func validate() throws {
        _ = try parsedTimes(nowSeconds: WallClock.system.nowSeconds)
        for each in eachApp { try AppOption.check(each, option: "each-app") }
        if app.app != nil, !eachApp.isEmpty {
            throw ValidationError("--each-app: the top pages then show every app; it cannot be used with --app.")
        }
    }

    func run() async throws {
        ReadingMemory.limitArenas()
        let written = try await exitingOnFailure {
            let now = WallClock.system.nowSeconds
            let (at, rangeSeconds) = try parsedTimes(nowSeconds: now)
            let loaded = try policy.load(directory: pages.dashboards)
            let context = try await DashboardContext(
                store: try store.openStore(), policy: loaded, app: app.app, atSeconds: at, rangeSeconds: rangeSeconds,
                zone: try timeZone.zone(loaded))
            return try await pages.render(
                context: context,
                links: PageLinks(baseURL: links.baseURL.flatMap(LinkOptions.normalized), databasePath: try store.location().filePath),
                eachApp: eachApp, generatedAtSeconds: now)
        }
        print("wrote \(written.joined(separator: ", ")); open \(pages.out)/index.html")
    }

    /// `--at` (minute-aligned) and `--range` in seconds.
    private func parsedTimes(nowSeconds: Int64) throws -> (Int64, Int64) {
        let time = try TimeArgument.minute(at, option: "at", nowSeconds: nowSeconds)
        guard let range = TimeStep.minutes(parsing: range), range > 0 else {
            throw ValidationError("--range: expected a whole number of minutes such as 24h or 7d, got \"\(self.range)\".")
        }
        return (time, range)
    }
}
