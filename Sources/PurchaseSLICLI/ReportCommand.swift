import ArgumentParser
import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards

/// `purchase-sli report`: the weekly quality review.
struct ReportCommand: AsyncParsableCommand {
    /// Output formats of `report`.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case html, markdown
    }

    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "The weekly quality review of an ISO week: SLO attainment, week-over-week changes, incidents, a summary.",
        discussion: """
            Compares the week with the week before: success rate against each objective and error budget spent, \
            success, 409, cancel and unfinished rates per action (two-sided Fisher exact tests, Holm-corrected), \
            products and plans, top failure reasons, the 409 trend, and the week's alert episodes, with a summary \
            paragraph for the review notes. HTML is written to --out; Markdown is printed.

            Examples:
              purchase-sli report --week 2026-W46
              purchase-sli report --week last --format markdown > review.md

            Exit status: 0 the review was written; 3 unknown: the week holds no event, so nothing was judged \
            (the review says so); 1 an error (a missing database, a week not over yet); 64 a usage error.
            """)

    @OptionGroup var store: StoreOptions

    @OptionGroup var app: AppOption

    @OptionGroup var policy: PolicyOptions

    @OptionGroup var timeZone: TimeZoneOption

    @Option(help: ArgumentHelp("ISO week such as 2026-W46, or last (the last whole week), from Monday 00:00 in --time-zone.", valueName: "week"))
    var week = "last"

    @Option(help: "Output format.")
    var format: Format = .html

    @Option(help: ArgumentHelp("Directory the HTML page is written to.", valueName: "dir"))
    var out = "out"

    func validate() throws {
        _ = try parsedWeek(nowSeconds: WallClock.system.nowSeconds, zone: .utc)
    }

    func run() async throws {
        ReadingMemory.limitArenas()
        let (text, holdsNoEvent) = try await exitingOnFailure(output)
        print(text, terminator: "")
        if holdsNoEvent { throw HealthExitCode.unknown }
    }

    /// The Markdown, or the summary and the path of the page written; whether the week holds no event.
    func output() async throws -> (text: String, holdsNoEvent: Bool) {
        let now = WallClock.system.nowSeconds
        let loaded = try policy.load()
        let zone = try timeZone.zone(loaded)
        let week = try parsedWeek(nowSeconds: now, zone: zone)
        guard week.endSeconds <= now else {
            throw CommandFailure(
                message: "--week \(week) is not over until \(zone.timestamp(week.endSeconds)); "
                    + "the last whole week is \(ISOWeek(containing: now, in: zone).previous)")
        }
        let report = try await WeeklyReport(week: week, store: try store.openStore(), policy: loaded, app: app.app)
        guard format == .html else { return (report.markdown, report.holdsNoEvent) }
        let page = report.document(navigation: [(title: "Index", href: "index.html")], generatedAtSeconds: now)
        let written = try DashboardFiles.write([DashboardRenderer.File(name: report.fileName, html: page.rendered)], to: out)
        return ("\(report.summary(escaping: .terminal))\n\nwrote \(written[0])\n", report.holdsNoEvent)
    }

    private func parsedWeek(nowSeconds: Int64, zone: TimeZoneOffsets) throws -> ISOWeek {
        if week == "last" { return ISOWeek(containing: nowSeconds, in: zone).previous }
        guard let parsed = ISOWeek(parsing: week, in: zone) else {
            throw ValidationError("--week: expected an ISO week such as 2026-W46, or last, got \"\(week)\".")
        }
        return parsed
    }
}
