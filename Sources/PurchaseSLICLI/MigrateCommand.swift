import ArgumentParser
import Foundation
import PurchaseSLIApplication

/// `purchase-sli migrate`: copies a SQLite store into a PostgreSQL database.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a SQLite store into a PostgreSQL database, so that several serve nodes can share its history.",
        discussion: """
            Copies, in one transaction, the series, the minute, hour and day buckets and error counts as they \
            are stored, the dedup memory (so that events sent again after the move still count once), prices, \
            the stores' notifications and the app's reports per transaction; then the maintenance windows, \
            the rollout actions, what settled charges (make-whole's deliveries, write-offs) and the incidents' \
            records with their acknowledgements, each replacing one kept under its name. The database must hold no \
            events yet; running migrate again with the same file copies nothing new (the copy is recognized). Stop \
            the serve writing the file first, and start the nodes on PostgreSQL after. Needs a build with \
            PostgreSQL support, as the default build is (not --disable-default-traits).

            Example:
              PURCHASE_SLI_DB='postgres://purchase_sli:PASSWORD@db.internal/purchase_sli' purchase-sli migrate --from purchase-sli.sqlite
            """)

    @Option(help: ArgumentHelp("The SQLite database file to copy.", valueName: "path"))
    var from: String

    @Option(
        help: ArgumentHelp(
            "The PostgreSQL database to copy into, postgres://user:password@host:port/database (default: PURCHASE_SLI_DB).", valueName: "url"))
    var to: String?

    func run() async throws {
        let target = try exitingOnFailure { () throws -> StoreLocation in
            guard FileManager.default.fileExists(atPath: from) else { throw CommandFailure(message: "--from: no database file at \(from)") }
            let location = try StoreLocation(to ?? ProcessInfo.processInfo.environment["PURCHASE_SLI_DB"] ?? "", source: "--to (or PURCHASE_SLI_DB)")
            if case .sqlite = location { throw CommandFailure(message: "--to (or PURCHASE_SLI_DB): expected a postgres:// URL to copy into") }
            return location
        }
        #if PostgreSQL
        guard case .postgres(let url) = target else { return }
        let summary = try await exitingOnFailure { try await StoreMigration.copy(sqlitePath: from, into: url) }
        print(Self.text(of: summary, from: from, into: "\(url)"), terminator: "")
        #else
        _ = target
        #endif
    }

    #if PostgreSQL
    /// What a copy from `source` into `target` moved, a line per kind.
    static func text(of summary: StoreMigration.Summary, from source: String, into target: String) -> String {
        if summary.store.alreadyImported { return "\(target) already holds this copy of \(source): nothing copied\n" }
        let counts = [
            ("series", summary.store.series), ("bucket rows", summary.store.bucketRows), ("error rows", summary.store.errorRows),
            ("eventIDs", summary.store.eventIDs), ("notifications", summary.store.notifications), ("report blobs", summary.store.reportBlobs),
            ("maintenance", summary.windows), ("rollout actions", summary.actions), ("settlements", summary.settlements),
            ("incidents", summary.incidents),
        ]
        return "copied \(source) into \(target):\n"
            + counts.map { name, count in "  \(name.padding(toLength: 16, withPad: " ", startingAt: 0))\(count)\n" }.joined()
    }
    #endif
}
