import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering

/// `purchase-sli demo`: the sample logs, end to end, for a newcomer.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Ingest sample-logs/ into a fresh database, render every dashboard and the latest weekly review, print the alerts.",
        discussion: """
            Replaces --db (default demo.sqlite), ingests every *.ndjson.gz of --samples and the App Store \
            notifications of its store/ directory (signed by the simulator's test root, store/apple-test-root.pem), \
            renders the dashboards \
            of dashboards/ and the weekly review of the last whole week into --out for the week before the newest \
            event, prints the alert episodes the rules find in the sample logs and the path of index.html.

            Example:
              swift run purchase-sli demo
            """)

    @Option(help: ArgumentHelp("Directory of sample event files (*.ndjson.gz).", valueName: "dir"))
    var samples = "sample-logs"

    @Option(help: ArgumentHelp("Database file to create (replaced if it exists).", valueName: "path"))
    var db = "demo.sqlite"

    @OptionGroup var pages: PagesOptions

    @OptionGroup var policy: PolicyOptions

    @OptionGroup var timeZone: TimeZoneOption

    func validate() throws {
        if StoreLocation.namesPostgres(db) {
            throw ValidationError("--db: demo makes a SQLite file of its own (replaced on each run); give it a path, not a PostgreSQL URL")
        }
    }

    /// 2100-01-01: the end of the span searched for the samples' events.
    private static let farFuture: Int64 = 4_102_444_800

    func run() async throws {
        let files = try exitingOnFailure { () -> [String] in
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: samples) else {
                throw CommandFailure(message: "cannot read the sample directory \(samples)")
            }
            let files = names.filter { $0.hasSuffix(".ndjson.gz") || $0.hasSuffix(".ndjson") }.sorted().map { samples + "/" + $0 }
            guard !files.isEmpty else { throw CommandFailure(message: "\(samples) holds no *.ndjson.gz file") }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            return files
        }
        print("1. ingesting \(files.count) sample files into \(db)")
        // The policy's caps of each app, as `serve` would apply them: the policy the demo judges by.
        try await IngestCommand.parse(
            ["--db", db, "--quiet", "--dashboards", pages.dashboards] + (policy.policy.map { ["--policy", $0] } ?? []) + files
        ).run()
        if let (notifications, root) = try exitingOnFailure({ try storeNotifications() }) {
            print("   and the App Store notifications of \(notifications.joined(separator: ", ")), verified with the simulator's test root \(root)")
            try await IngestStoreCommand.parse(
                ["--db", db, "--apple-root-ca", root, "--apple-bundle-id", SimulateCommand.bundleID] + notifications
            ).run()
        }

        let (at, text) = try await exitingOnFailure { () async throws -> (Int64, String) in
            let store = try await StoreLocation.sqlite(path: db).open(configuration: .default)
            let policy = try self.policy.load(directory: pages.dashboards)
            let zone = try timeZone.zone(policy)
            let now = WallClock.system.nowSeconds
            // The end of the hour of the newest event is the sample logs' "now", whatever the clock says.
            func outcomes(_ query: CountQuery) async throws -> [CountRow] {
                guard case .outcomes(let rows) = try await CountQuerying(store: store).events(query) else { return [] }
                return rows
            }
            let days = try await outcomes(CountQuery(fromSeconds: 0, toSeconds: Self.farFuture, step: TimeStep(seconds: .secondsPerDay)))
            guard let lastDay = days.last(where: { !$0.counts.isEmpty })?.timeSeconds, let first = days.first?.timeSeconds else {
                throw CommandFailure(message: "the sample files held no event")
            }
            let hours = try await outcomes(
                CountQuery(fromSeconds: lastDay, toSeconds: lastDay + .secondsPerDay, step: TimeStep(seconds: .secondsPerHour)))
            let at = (hours.last(where: { !$0.counts.isEmpty })?.timeSeconds ?? lastDay) + .secondsPerHour
            // Backtest from a day after the first event, when the rules have data for their windows; the
            // incidents' records are kept as `serve` would have kept them, for the pages and the review to read.
            let alertContext = try await AlertContext(store: store, policy: policy)
            let episodes = try await alertContext.episodeReports(from: first + .secondsPerDay, to: at, stepSeconds: .secondsPerMinute)
            _ = try await IncidentBook(context: alertContext).keep(episodes, from: first + .secondsPerDay, through: at - .secondsPerMinute)
            let context = try await DashboardContext(store: store, policy: policy, atSeconds: at, rangeSeconds: 7 * .secondsPerDay, zone: zone)
            let written = try await pages.render(context: context, links: PageLinks(databasePath: db), generatedAtSeconds: now)
            let report = try await WeeklyReport(week: ISOWeek(containing: at, in: zone).previous, context: alertContext)
            let incidents = written.filter { ($0 as NSString).lastPathComponent.hasPrefix("incident-") }.count
            let rendered =
                "\(written.count - incidents) pages" + (incidents == 0 ? "" : " and \(incidents) incident report\(incidents == 1 ? "" : "s")")
            let header =
                "3. the alert rules over the sample logs (\(RFC3339.format(seconds: first + .secondsPerDay)) to "
                + "\(RFC3339.format(seconds: at))): \(episodes.count) alert episodes\n\n"
            return (
                at,
                "2. rendered \(rendered) into \(pages.out)/ for the 7 days before \(RFC3339.format(seconds: at))\n"
                    + header + AlertOutput.episodeLines(episodes, now: at, zone: zone)
                    + "   (each with its full text: purchase-sli alerts --db \(db) --from \(RFC3339.format(seconds: first + .secondsPerDay)) "
                    + "--to \(RFC3339.format(seconds: at)))\n\n4. weekly review \(report.week): \(report.summary(escaping: .terminal))\n"
            )
        }
        print(text)
        print("open \(URL(fileURLWithPath: pages.out + "/index.html").standardizedFileURL.path) (the dashboards of \(RFC3339.format(seconds: at)))")
    }

    /// The notification files of the samples' store/ directory and the test root that signed them, or nil
    /// when there are none.
    private func storeNotifications() throws -> (files: [String], root: String)? {
        let directory = samples + "/store"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let files = names.filter { $0.hasSuffix(".ndjson.gz") || $0.hasSuffix(".ndjson") }.sorted().map { directory + "/" + $0 }
        guard !files.isEmpty else { return nil }
        let root = directory + "/apple-test-root.pem"
        guard FileManager.default.fileExists(atPath: root) else {
            throw CommandFailure(message: "\(directory) holds notifications but not the root that signed them, apple-test-root.pem")
        }
        return (files, root)
    }
}
