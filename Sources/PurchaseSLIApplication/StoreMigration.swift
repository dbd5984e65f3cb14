#if PostgreSQL
public import PurchaseSLIPostgres
import PurchaseSLIStorage

/// `purchase-sli migrate`'s use case: copies a SQLite store into a PostgreSQL database, the buckets and
/// the stores' notifications in one transaction, then each record kind through its repository, kept by
/// name so that a second run replaces them with themselves.
public enum StoreMigration {
    /// What a copy moved.
    public struct Summary: Sendable {
        /// The buckets, dedup memory, notifications and reports, as the store's import counted them.
        public var store: PostgresBucketStore.ImportSummary
        /// Maintenance windows copied.
        public var windows = 0
        /// Rollout actions copied.
        public var actions = 0
        /// What settled charges (make-whole's deliveries, write-offs) copied.
        public var settlements = 0
        /// Incidents' records copied.
        public var incidents = 0
    }

    /// Copies the SQLite file at `path` into the database at `url`.
    /// - Throws: ``PurchaseSLIPostgres/PostgresBucketStore/ImportRefused`` when the database already holds
    ///   other events; ``PurchaseSLIStorage/StorageError`` when either cannot be opened.
    public static func copy(sqlitePath path: String, into url: PostgresURL) async throws -> Summary {
        let source = try SQLiteBucketStore(path: path)
        let target = try await PostgresBucketStore(url: url)
        var summary = Summary(store: try await target.importStore(from: source, sourceName: path))
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
        (summary.windows, summary.actions, summary.settlements, summary.incidents) =
            (windows.count, actions.count, settlements.count, incidents.count)
        return summary
    }
}
#endif
