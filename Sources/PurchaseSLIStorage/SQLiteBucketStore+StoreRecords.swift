import GRDB
public import PurchaseSLICore

extension SQLiteBucketStore: StoreRecordStore {
    /// Stores verified notifications in one transaction, skipping those already stored. Notifications
    /// touch none of what the events' writes keep in memory (``WriterMemory``): no lock of theirs is taken.
    public func record(_ notifications: [ReceivedNotification]) async throws -> NotificationOutcome {
        try await pool.inImmediateTransaction { db in
            let duplicates = try StoreNotificationRows.insert(notifications, in: db)
            return NotificationOutcome(accepted: notifications.count - duplicates.count, duplicateIndexes: duplicates)
        }
    }

    /// The notifications of `kinds` that happened in `[fromMillis, toMillis)`, by their event time.
    public func notifications(kinds: Set<StoreEventKind>, fromMillis: Int64, toMillis: Int64) async throws -> [ReceivedNotification] {
        try await pool.readGivingReaderBack { db in try StoreNotificationRows.fetch(kinds: kinds, fromMillis: fromMillis, toMillis: toMillis, in: db)
        }
    }

    /// The charge notifications naming any of `transactionIDs`, by event time.
    public func notifications(of kind: StoreEventKind, naming transactionIDs: Set<String>) async throws -> [ReceivedNotification] {
        guard !transactionIDs.isEmpty else { return [] }
        return try await pool.readGivingReaderBack { db in try StoreNotificationRows.fetch(kind, naming: transactionIDs, in: db) }
    }

    /// Whether any charge notification is stored.
    public func holdsCharges() async throws -> Bool {
        try await pool.readGivingReaderBack { db in try StoreNotificationRows.holdsCharges(in: db) }
    }

    /// The notifications of any kind naming any of `transactionIDs` with a product, by event time.
    public func notificationsWithProduct(naming transactionIDs: Set<String>) async throws -> [ReceivedNotification] {
        guard !transactionIDs.isEmpty else { return [] }
        return try await pool.readGivingReaderBack { db in try StoreNotificationRows.fetchWithProduct(naming: transactionIDs, in: db) }
    }

    /// What the app's events of `[fromMillis, toMillis)` reported for each key that has a report.
    public func clientReports(_ keys: Set<ClientReport.Key>, fromMillis: Int64, toMillis: Int64) async throws -> [ClientReport] {
        try await pool.readGivingReaderBack { db in try ClientReportRows.fetch(keys, fromMillis: fromMillis, toMillis: toMillis, in: db) }
    }

    /// The outcome of every event of `[fromMillis, toMillis)` that named a transaction or account token.
    public func reportedOutcomes(fromMillis: Int64, toMillis: Int64, keyHashes: Set<Int64>?) async throws -> [ReportedOutcome] {
        try await pool.readGivingReaderBack { db in
            try ClientReportRows.outcomes(fromMillis: fromMillis, toMillis: toMillis, keyHashes: keyHashes, in: db)
        }
    }

    /// The grants events of `[fromMillis, toMillis)` reported, by time, those of `selection`.
    public func grants(fromMillis: Int64, toMillis: Int64, of selection: GrantSelection) async throws -> [GrantRecord] {
        try await pool.readGivingReaderBack { db in try ClientReportRows.grants(fromMillis: fromMillis, toMillis: toMillis, of: selection, in: db) }
    }

    /// The time and transaction fingerprint of each grant events of `[fromMillis, toMillis)` reported.
    public func grantFingerprints(fromMillis: Int64, toMillis: Int64) async throws -> [GrantFingerprint] {
        try await pool.readGivingReaderBack { db in try ClientReportRows.grantFingerprints(fromMillis: fromMillis, toMillis: toMillis, in: db) }
    }

    /// Events clients dropped unsent, reported with batches received in `[fromMillis, toMillis)`.
    public func clientDroppedEvents(fromMillis: Int64, toMillis: Int64) async throws -> Int64 {
        try await pool.readGivingReaderBack { db in
            try Int64.fetchOne(
                db, sql: "SELECT coalesce(sum(events), 0) FROM client_drop WHERE minute * 60000 >= ? AND minute * 60000 < ?",
                arguments: [fromMillis, toMillis]) ?? 0
        }
    }

    /// Charges and refunds of `[fromMillis, toMillis)` per step; see ``StoreRecordStore/storeActivity(fromMillis:toMillis:stepSeconds:)``.
    public func storeActivity(fromMillis: Int64, toMillis: Int64, stepSeconds: Int64) async throws -> [StoreActivityRow] {
        try await pool.readGivingReaderBack { db in
            try StoreNotificationRows.activity(fromMillis: fromMillis, toMillis: toMillis, stepSeconds: stepSeconds, in: db)
        }
    }
}
