import ArgumentParser
import Foundation
import PurchaseSLIStorage

#if PostgreSQL
import PurchaseSLIPostgres
#endif

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
            PostgreSQL support: swift build -c release --traits PostgreSQL.

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
            let location: StoreLocation
            do {
                location = try StoreLocation(to ?? ProcessInfo.processInfo.environment["PURCHASE_SLI_DB"] ?? "", source: "--to (or PURCHASE_SLI_DB)")
            } catch let error as ValidationError {
                throw CommandFailure(message: error.message)
            }
            if case .sqlite = location { throw CommandFailure(message: "--to (or PURCHASE_SLI_DB): expected a postgres:// URL to copy into") }
            return location
        }
        #if PostgreSQL
        if case .postgres(let url) = target { try await exitingOnFailure { try await copy(into: url) } }
        #else
        _ = target
        #endif
    }

    #if PostgreSQL
    /// Copies `--from` into the database at `url` and prints what was copied.
    private func copy(into url: PostgresURL) async throws {
        let source = try SQLiteBucketStore(path: from)
        let target = try await PostgresBucketStore(url: url)
        let summary: PostgresBucketStore.ImportSummary
        do {
            summary = try await target.importStore(from: source, sourceName: from)
        } catch let refused as PostgresBucketStore.ImportRefused {
            throw CommandFailure(message: refused.description)
        }
        // Declared by people and acted on by serve: kept by name, so a second run replaces them with themselves.
        let windows = try await MaintenanceWindowRepository(source.sql).windows()
        let copiedWindows = MaintenanceWindowRepository(target.sql)
        for window in windows { try await copiedWindows.record(window) }
        let actions = try await RolloutActionRepository(source.sql).actions(fromSeconds: .min)
        let copiedActions = RolloutActionRepository(target.sql)
        for action in actions { try await copiedActions.record(action) }
        // What settled charges (make-whole's deliveries, people's write-offs): facts a charge's state rests on.
        let charged = try await source.notifications(kinds: [.charge], fromMillis: .min, toMillis: .max).compactMap(\.notification.transactionID)
        let settlements = try await MakeWholeDeliveryRepository(source.sql).deliveries(naming: Set(charged))
        try await MakeWholeDeliveryRepository(target.sql).record(settlements)
        // The incidents' records, and who took each on: saved figures keep no acknowledgement, so it follows.
        let incidents = try await IncidentRepository(source.sql).incidents(app: nil, fromSeconds: .min, toSeconds: .max, statuses: nil)
        let copiedIncidents = IncidentRepository(target.sql)
        try await copiedIncidents.save(incidents)
        for incident in incidents {
            if let acknowledgement = incident.acknowledgement {
                _ = try await copiedIncidents.acknowledge(app: incident.app, id: incident.id, acknowledgement)
            }
        }
        if summary.alreadyImported {
            print("\(url) already holds this copy of \(from): nothing copied")
            return
        }
        print("copied \(from) into \(url):")
        for (name, count) in [
            ("series", summary.series), ("bucket rows", summary.bucketRows), ("error rows", summary.errorRows),
            ("eventIDs", summary.eventIDs), ("notifications", summary.notifications), ("report blobs", summary.reportBlobs),
            ("maintenance", windows.count), ("rollout actions", actions.count), ("settlements", settlements.count),
            ("incidents", incidents.count),
        ] {
            print("  \(name.padding(toLength: 16, withPad: " ", startingAt: 0))\(count)")
        }
    }
    #endif
}
