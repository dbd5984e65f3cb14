import GRDB
public import PurchaseSLICore
import Synchronization

/// The embedded default store: time buckets in one SQLite file in WAL mode.
///
/// One writer at a time (SQLite's rule) with any number of concurrent readers. Each `record` call is
/// one transaction: dedup rows, dimension ids and bucket counters commit together or not at all.
public final class SQLiteBucketStore: BucketStore, SQLRecordStore {
    /// The database file.
    public let path: String
    /// Limits and retention in force.
    public let configuration: StoreConfiguration
    let pool: DatabasePool
    let memory: Mutex<WriterMemory>
    /// The series and dimension values read so far (``series(_:)``).
    let catalog = Mutex(SeriesCatalog())

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    /// - Throws: ``StorageError`` when the file is not a purchase-sli database, was written by a newer
    ///   version, or cannot be opened.
    public init(path: String, configuration: StoreConfiguration = .default) throws {
        self.path = path
        self.configuration = configuration
        memory = Mutex(WriterMemory(pendingSeen: PendingSeenIDs(foldThreshold: configuration.deferral.pendingEventIDs)))
        var grdbConfiguration = Configuration()
        grdbConfiguration.busyMode = .timeout(configuration.busyTimeoutSeconds)
        let cacheSize = configuration.cacheSizeKiB
        let synchronous = configuration.fsyncEachCommit ? "FULL" : "NORMAL"
        grdbConfiguration.prepareDatabase { db in
            // A reader scans what it reads once (the OS keeps the file's pages): a writer's cache for each
            // of them would hold a copy of what every read passed over.
            let size = db.configuration.readonly ? min(cacheSize, StoreConfiguration.readerCacheSizeKiB) : cacheSize
            try db.execute(sql: "PRAGMA cache_size = -\(size)")
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            // After a checkpoint, shrink the WAL file back to this size instead of leaving it at its peak.
            try db.execute(sql: "PRAGMA journal_size_limit = \(64 << 20)")
        }
        do {
            pool = try DatabasePool(path: path, configuration: grdbConfiguration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StorageError.foreignDatabase(path: path, detail: "not an SQLite file")
        } catch {
            throw StorageError.cannotOpen(path: path, detail: "\(error)")
        }
        try Self.checkIdentity(of: pool, path: path)
        try Schema.migrator.migrate(pool)
    }

    private static func checkIdentity(of pool: DatabasePool, path: String) throws {
        try pool.read { db in
            let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            // GRDB creates its migrations table before the first migration's transaction: a run killed
            // between the two leaves only that table, empty, and the file is still a new one.
            let migrationsRecorded = tables == ["grdb_migrations"] ? try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") : nil
            let isInterruptedCreation = migrationsRecorded == 0
            if applicationID != Schema.applicationID && !tables.isEmpty && !isInterruptedCreation {
                throw StorageError.foreignDatabase(
                    path: path, detail: "application_id \(applicationID), tables: \(tables.prefix(5).joined(separator: ", "))")
            }
            let migrator = Schema.migrator
            if try migrator.hasBeenSuperseded(db) {
                let known = Set(migrator.migrations)
                let applied = try migrator.appliedIdentifiers(db)
                throw StorageError.newerSchema(path: path, unknownMigrations: applied.subtracting(known).sorted())
            }
        }
    }

    /// The database the low-volume records' repositories run on: this file.
    public var sql: any SQLExecutor { SQLiteExecutor(pool) }

    /// Counts validated events, skipping duplicates, in one transaction on the writer's queue, where the
    /// writer's memory is read and changed too (no other queue touches it).
    public func record(_ batches: [PreparedEvents], receivedAtMillis: Int64) async throws -> RecordOutcome {
        let batch = RecordBatch(batches: batches)
        let receivedAtSeconds = receivedAtMillis.floorDividedBy(.millisPerSecond).quotient
        return try await withWriterMemory { db, memory in
            var outcome = RecordOutcome()
            try db.inTransaction(.immediate) {
                outcome = try batch.write(into: db, memory: &memory, configuration: self.configuration, receivedAtSeconds: receivedAtSeconds)
                return .commit
            }
            return outcome
        }
    }

    /// Runs `work` on the writer's queue with the writer's memory, outside any transaction; when it
    /// throws, the memory starts over (it may hold what a rolled-back transaction learned).
    private func withWriterMemory<Value: Sendable>(
        _ work: @escaping @Sendable (Database, inout WriterMemory) throws -> Value
    ) async throws -> Value {
        try await pool.writeWithoutTransaction { db in
            try self.memory.withLock { memory in
                do {
                    return try work(db, &memory)
                } catch {
                    memory.reset()
                    throw error
                }
            }
        }
    }

    /// The latest price events carried for each product and plan.
    public func prices() async throws -> [ProductPrice] {
        try await pool.readGivingReaderBack { db in
            try Row.fetchAll(db, sql: "SELECT product_id, plan_id, price, currency, seen_millis FROM product_price ORDER BY product_id, plan_id")
                .map { row in
                    let plan: String = row[1]
                    return ProductPrice(productID: row[0], planID: plan.isEmpty ? nil : plan, price: row[2], currency: row[3], seenMillis: row[4])
                }
        }
    }

    /// Drops buckets past their retention (relative to the newest minute bucket), eventIDs past the
    /// dedup horizon, and store notifications and client reports past theirs (both relative to
    /// `nowMillis`, the receiving clock), and settles the client reports past ``StoreConfiguration/reportSettleSeconds``
    /// (``ClientReportSettlement``). Pending rollups are folded into the
    /// hour and day buckets first, so that none of them outlives the buckets it belongs to, and pending
    /// eventIDs into `seen_second`.
    /// - Returns: what the dedup memory holds afterwards.
    @discardableResult
    public func prune(nowMillis: Int64) async throws -> DedupMemory {
        let nowSeconds = nowMillis.floorDividedBy(.millisPerSecond).quotient
        return try await withWriterMemory { db, memory in
            var dedup = DedupMemory(seconds: 0, eventIDs: 0)
            try db.inTransaction {
                dedup = try self.prune(nowSeconds: nowSeconds, pendingSeen: &memory.pendingSeen, db: db)
                return .commit
            }
            return dedup
        }
    }

    private func prune(nowSeconds: Int64, pendingSeen: inout PendingSeenIDs, db: Database) throws -> DedupMemory {
        try BucketWriter(db: db, deferral: configuration.deferral).rollUpPending()
        try pendingSeen.fold(into: db)
        if let newest = try Int64.fetchOne(db, sql: "SELECT max(time) FROM bucket_minute") {
            let retentions: [(Resolution, Int64?)] = [
                (.minute, configuration.minuteRetentionSeconds), (.hour, configuration.hourRetentionSeconds),
                (.day, configuration.dayRetentionSeconds),
            ]
            for case let (resolution, retention?) in retentions {
                if resolution == .minute,
                    let oldest = try Int64.fetchOne(db, sql: "SELECT min(time) FROM bucket_minute WHERE time < ?", arguments: [newest - retention])
                {
                    try BucketWriter.noteChange(of: [oldest, newest - retention - Resolution.minute.seconds], in: db)
                }
                for table in [resolution.bucketTable, resolution.errorTable] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE time < ?", arguments: [newest - retention])
                }
            }
            // What the caps turned away is kept as long as the hour buckets of its day.
            try db.execute(
                sql: "DELETE FROM overflow WHERE day < ?",
                arguments: [(newest - configuration.hourRetentionSeconds).floorDividedBy(.secondsPerDay).quotient])
        }
        try db.execute(
            sql: "DELETE FROM bucket_change WHERE seq <= (SELECT max(seq) FROM bucket_change) - ?", arguments: [Self.changesKept])
        let expiredDays = try Int64.fetchAll(
            db, sql: "SELECT day FROM seen_day WHERE last_received < ?",
            arguments: [nowSeconds - configuration.dedupHorizonSeconds])
        for day in expiredDays {
            try db.execute(
                sql: "DELETE FROM seen_second WHERE second >= ? AND second < ?",
                arguments: [day * .secondsPerDay, (day + 1) * .secondsPerDay])
            try db.execute(sql: "DELETE FROM admitted_value WHERE day = ?", arguments: [day])
            try db.execute(sql: "DELETE FROM seen_day WHERE day = ?", arguments: [day])
        }
        let storeRecordsBefore = (nowSeconds - configuration.storeRecordRetentionSeconds) * .millisPerSecond
        try ClientReportSettlement.settle(receivedBefore: nowSeconds - configuration.reportSettleSeconds, in: db)
        try db.execute(sql: "DELETE FROM store_notification WHERE event_millis < ?", arguments: [storeRecordsBefore])
        try db.execute(
            sql: "DELETE FROM client_report_minute WHERE minute < ?", arguments: [storeRecordsBefore.floorDividedBy(.millisPerMinute).quotient])
        try db.execute(
            sql: "DELETE FROM grant_fingerprint_minute WHERE minute < ?", arguments: [storeRecordsBefore.floorDividedBy(.millisPerMinute).quotient])
        try db.execute(sql: "DELETE FROM client_drop WHERE minute < ?", arguments: [storeRecordsBefore.floorDividedBy(.millisPerMinute).quotient])
        try db.execute(sql: "DELETE FROM late_arrival WHERE hour < ?", arguments: [storeRecordsBefore.floorDividedBy(.millisPerSecond).quotient])
        let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(length(hashes)), 0) / 8 FROM seen_second")
        return DedupMemory(seconds: row?[0] ?? 0, eventIDs: row?[1] ?? 0)
    }

    /// Throws unless a write commits now (for readiness checks): a transaction that rewrites the file
    /// header's `user_version` (unused by purchase-sli), so that a full disk or a read-only file fails
    /// here as it would for events.
    public func checkWritable() async throws {
        try await pool.inImmediateTransaction { db in
            let version = try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            try db.execute(sql: "PRAGMA user_version = \(version == 1 ? 2 : 1)")
        }
    }
}
