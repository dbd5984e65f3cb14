import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

/// `purchase-sli incidents`: the incidents' records, listed (the default) or acknowledged.
struct IncidentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "incidents",
        abstract:
            "List the incidents' records: status, severity, span, what they cost and still owe, who took them on (the default); or acknowledge one.",
        subcommands: [IncidentsListCommand.self, IncidentAcknowledgeCommand.self], defaultSubcommand: IncidentsListCommand.self)
}

/// `purchase-sli incidents [list]`: the records kept of the incidents that reach into a range.
struct IncidentsListCommand: AsyncParsableCommand {
    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the incidents' records that reach into [from, to): open, resolved (still owing or able to fire again) or settled.",
        discussion: """
            An incident's record is kept when `serve` evaluates the alerts each minute, and taken again from the \
            events with --rebuild: its span, its alerts and their severities, one cost (lost purchases estimated, \
            charges, refunds and grants in full), the charges it left still owed, and who acknowledged it. Its \
            status is open while an alert fires, resolved while a charge is owed or an alert could still fire \
            again and continue it, settled after (its figures final). JSON has every figure \
            (docs/http-api.md#incidents), as GET /v1/incidents answers.

            Examples:
              purchase-sli incidents --rebuild
              purchase-sli incidents --status open,resolved
              purchase-sli incidents --from 2026-11-01 --to 2026-12-01 --format json
              purchase-sli incidents --format csv > incidents.csv
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var app: AppOption
    @OptionGroup var policyOptions: PolicyOptions
    @OptionGroup var timeZone: TimeZoneOption

    @Option(help: ArgumentHelp("Start of the range (inclusive; default: 30 days before --at).", valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("End of the range (exclusive; default: the end of --at's minute).", valueName: "time"))
    var to: String?

    @Option(help: ArgumentHelp("Read the records as of this time; --rebuild takes them at it (default: now).", valueName: "time"))
    var at: String = "now"

    @Option(
        help: ArgumentHelp(
            "Only records of this status: open, resolved or settled (repeat it, or give several comma-separated).", valueName: "status"))
    var status: [String] = []

    @Flag(
        help: ArgumentHelp(
            "First take the records again from the events: evaluate the alerts each minute from --from to --at, keep each incident's record read at --at (acknowledgements kept), remove the kept ones of that range it no longer finds."
        ))
    var rebuild = false

    @Option(help: "Output format.")
    var format: Format = .table

    func validate() throws {
        _ = try range(nowSeconds: WallClock.system.nowSeconds)
        _ = try statuses()
    }

    /// `--from`, `--to` and `--at` in seconds, read against `nowSeconds`, the range's defaults filled in.
    /// - Throws: `ValidationError` naming the option that is not a time, or when `--from` is not before `--to`.
    func range(nowSeconds: Int64) throws -> (from: Int64, to: Int64, at: Int64) {
        let time = try TimeArgument.minute(at, option: "at", nowSeconds: nowSeconds)
        let listed = IncidentBook.listedRange(at: time)
        let range = (
            try from.map { try TimeArgument.minute($0, option: "from", nowSeconds: nowSeconds) } ?? listed.from,
            try to.map { try TimeArgument.minute($0, option: "to", nowSeconds: nowSeconds) } ?? listed.to, time
        )
        guard range.0 < range.1 else { throw ValidationError("--from must be before --to.") }
        return range
    }

    /// The statuses of `--status`, nil for every one.
    func statuses() throws -> Set<IncidentRecord.Status>? {
        do {
            return try IncidentRecord.Status.named(status)
        } catch {
            throw ValidationError("--status: \(error).")
        }
    }

    func run() async throws {
        let output = try await exitingOnFailure { () async throws -> String in
            let (from, to, at) = try range(nowSeconds: WallClock.system.nowSeconds)
            let policy = try policyOptions.load()
            let zone = try timeZone.zone(policy)
            let book = IncidentBook(
                context: try await AlertContext(
                    store: try store.openStore(), policy: policy, app: app.app, databasePath: try store.location().filePath))
            if rebuild {
                let rebuilt = try await book.rebuild(from: from, at: at)
                printError(
                    "rebuilt \(rebuilt.records.count) incident record\(rebuilt.records.count == 1 ? "" : "s") from the alerts evaluated each minute "
                        + "from \(zone.timestamp(from)) to \(zone.timestamp(at)); removed \(rebuilt.removed) no longer found")
            }
            let statuses = try statuses()
            let records = try await book.records(from: from, to: to, statuses: statuses)
            switch format {
            case .table: return IncidentListOutput.text(records, from: from, to: to, statuses: statuses, zone: zone)
            case .json: return IncidentListOutput.json(records, from: from, to: to, statuses: statuses, app: app.app)
            case .csv: return IncidentListOutput.csv(records)
            }
        }
        print(output, terminator: "")
    }
}
