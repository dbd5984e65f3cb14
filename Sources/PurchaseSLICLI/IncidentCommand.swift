import ArgumentParser
import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards

/// `purchase-sli incident ID`: a postmortem draft of one incident.
struct IncidentCommand: AsyncParsableCommand {
    /// Output formats of `incident`.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case markdown, html, json
    }

    static let configuration = CommandConfiguration(
        commandName: "incident",
        abstract: "A postmortem draft of one incident: timeline, what it did, where, the errors, what it cost, charges and refunds.",
        discussion: """
            ID is the incident's id as the alerts, pages and the weekly review show it (20261112-0703-3fa2c1: the \
            minute its first alert started). Its alerts are evaluated from then to its end (or --at while it goes \
            on), as `alerts` evaluates them. The draft holds the timeline (first bad minute, first alert, page, \
            the worst 15 minutes, recovery, resolved, and every alert's changes), each action's counts, the \
            slices that carried its failures against their share of traffic and the top errors, what it cost \
            (purchases lost against the same hours of the previous 7 days with a 95 % interval, and charges \
            not granted and refunds in full, per currency), the charges of its products left ungranted past \
            their grace and when each was granted, the refunds within 14 days of charges taken during it, and \
            its alerts with the commands to look next. Markdown and JSON are printed; HTML is written to --out.

            Examples:
              purchase-sli incident 20261112-0703-3fa2c1
              purchase-sli incident 20261112-0703-3fa2c1 --format html --out out
              purchase-sli incident 20261112-0703-3fa2c1 --format json
            """)

    @OptionGroup var store: StoreOptions

    @OptionGroup var app: AppOption

    @OptionGroup var policy: PolicyOptions

    @OptionGroup var timeZone: TimeZoneOption

    @Argument(help: ArgumentHelp("The incident's id, as the alerts show it.", valueName: "id"))
    var id: String

    @Option(help: ArgumentHelp("Read the incident as of this time (default: now).", valueName: "time"))
    var at: String?

    @Option(help: "Output format.")
    var format: Format = .markdown

    @Option(help: ArgumentHelp("Directory the HTML page is written to.", valueName: "dir"))
    var out = "out"

    func validate() throws {
        guard IncidentReport.startSeconds(ofID: id) != nil else {
            throw ValidationError("<id>: expected an incident id as the alerts show it, like 20261112-0703-3fa2c1, got \"\(id)\".")
        }
        _ = try TimeArgument.minute(at ?? "now", option: "at", nowSeconds: WallClock.system.nowSeconds)
    }

    func run() async throws {
        print(try await exitingOnFailure(output), terminator: "")
    }

    /// The Markdown or JSON, or the path of the page written.
    func output() async throws -> String {
        let now = WallClock.system.nowSeconds
        let time = try TimeArgument.minute(at ?? "now", option: "at", nowSeconds: now)
        let loaded = try policy.load()
        let context = try await AlertContext(store: try store.openStore(), policy: loaded, app: app.app, databasePath: try store.location().filePath)
        var report: IncidentReport
        do {
            report = try await context.incidentReport(id: id, at: time)
        } catch let error as IncidentLookupError {
            throw CommandFailure(message: error.description)
        }
        report.zone = try timeZone.zone(loaded)
        switch format {
        case .markdown: return report.markdown
        case .json: return report.json
        case .html:
            let page = report.document(navigation: [(title: "Index", href: "index.html")], generatedAtSeconds: now)
            let written = try DashboardFiles.write(
                [DashboardRenderer.File(name: IncidentReport.fileName(ofID: report.incident.id, app: report.app), html: page.rendered)], to: out)
            return
                "\(report.title): \(report.spanText)\n\(report.cost.text(isOver: report.isOver).rendered(.terminal, zone: report.zone))\n\nwrote \(written[0])\n"
        }
    }
}
