import GRDB
import PurchaseSLICore

/// The rows of `client_report_minute`: per minute of the app's events, a blob per prepared batch of what
/// they reported per transaction id and account token (``ClientReportBlob``).
enum ClientReportRows {
    /// Appends parts of ``ClientReportBlob/Encoder``, each as the next part of its minute, with its receipt
    /// time, and their grants' fingerprints (``GrantFingerprintBlob``, made from the grants when the part
    /// came without them) to `grant_fingerprint_minute`.
    static func append(_ parts: [ClientReportMinute], in db: Database) throws {
        guard !parts.isEmpty else { return }
        let statement = try RawStatement(
            db,
            sql: """
                INSERT INTO client_report_minute (minute, part, reports, grants, received)
                VALUES (?1, (SELECT coalesce(max(part), -1) + 1 FROM client_report_minute WHERE minute = ?1), ?2, ?3, ?4)
                """)
        let fingerprints = try RawStatement(
            db,
            sql: """
                INSERT INTO grant_fingerprint_minute (minute, part, fingerprints)
                VALUES (?1, (SELECT coalesce(max(part), -1) + 1 FROM grant_fingerprint_minute WHERE minute = ?1), ?2)
                """)
        for part in parts {
            statement.bind(part.minute, at: 1)
            statement.bind(copying: part.reports, at: 2)
            if let grants = part.grants { statement.bind(copying: grants, at: 3) } else { statement.bindNull(at: 3) }
            statement.bind(part.receivedSeconds, at: 4)
            try statement.run()
            guard let grants = part.grants else { continue }
            let blob = try part.grantFingerprints ?? grants.withUnsafeBytes { try GrantFingerprintBlob.make(fromGrants: $0, minute: part.minute) }
            fingerprints.bind(part.minute, at: 1)
            fingerprints.bind(copying: blob, at: 2)
            try fingerprints.run()
        }
    }

    /// What events of `[fromMillis, toMillis)` reported about each of `keys`, one report per event, by
    /// time. O(reports in the range).
    static func fetch(_ keys: Set<ClientReport.Key>, fromMillis: Int64, toMillis: Int64, in db: Database) throws -> [ClientReport] {
        guard !keys.isEmpty else { return [] }
        let wanted = Dictionary(keys.map { (ClientReportBlob.hash(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        var reports = RecordsByTime(order: ClientReport.byTime)
        try forEachReportBlob(fromMillis: fromMillis, toMillis: toMillis, in: db) { minute, blob in
            try reports.append(minute: minute) {
                try ClientReportBlob.decode(blob, minute: minute, wanted: wanted, in: fromMillis..<toMillis, into: &$0)
            }
        }
        return reports.sorted()
    }

    /// The outcome of every event of `[fromMillis, toMillis)` that named a transaction or account token.
    /// O(reports in the range).
    static func outcomes(fromMillis: Int64, toMillis: Int64, keyHashes: Set<Int64>?, in db: Database) throws -> [ReportedOutcome] {
        var outcomes: [ReportedOutcome] = []
        try forEachReportBlob(fromMillis: fromMillis, toMillis: toMillis, in: db) { minute, blob in
            try ClientReportBlob.decodeOutcomes(blob, minute: minute, in: fromMillis..<toMillis, keyHashes: keyHashes, into: &outcomes)
        }
        return outcomes
    }

    /// Calls `body` with each report blob of the minutes of `[fromMillis, toMillis)`, by minute; a damaged
    /// blob's error names its row.
    private static func forEachReportBlob(
        fromMillis: Int64, toMillis: Int64, in db: Database, _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let statement = try RawStatement(db, sql: "SELECT minute, reports FROM client_report_minute WHERE minute >= ? AND minute < ? ORDER BY minute")
        defer { statement.reset() }
        statement.bind(fromMillis.floorDividedBy(.millisPerMinute).quotient, toMillis.floorDividedBy(.millisPerMinute).quotient + 1)
        while try statement.step() {
            let minute = statement.int64(0)
            try decoding(table: "client_report_minute", row: "minute \(minute)") { try body(minute, statement.blob(1)) }
        }
    }
}

extension ClientReportRows {
    /// The grants events of `[fromMillis, toMillis)` reported, by time, those of `selection`. O(grants in the range).
    static func grants(fromMillis: Int64, toMillis: Int64, of selection: GrantSelection, in db: Database) throws -> [GrantRecord] {
        try GrantBlob.grants(fromMillis: fromMillis, toMillis: toMillis, of: selection) {
            try forEachGrantBlob(fromMillis: fromMillis, toMillis: toMillis, in: db, $0)
        }
    }

    /// The time and transaction fingerprint of each grant events of `[fromMillis, toMillis)` reported.
    /// O(grants in the range).
    static func grantFingerprints(fromMillis: Int64, toMillis: Int64, in db: Database) throws -> [GrantFingerprint] {
        let (fromMinute, toMinute) = (fromMillis.floorDividedBy(.millisPerMinute).quotient, toMillis.floorDividedBy(.millisPerMinute).quotient + 1)
        // Sized first (the blobs' lengths are in their rows' headers): days of grants are read into
        // one array rather than copied as it grows.
        let size =
            try Int.fetchOne(
                db, sql: "SELECT sum(length(fingerprints)) FROM grant_fingerprint_minute WHERE minute >= ? AND minute < ?",
                arguments: [fromMinute, toMinute]) ?? 0
        var fingerprints: [GrantFingerprint] = []
        fingerprints.reserveCapacity(size / GrantFingerprintBlob.width)
        let statement = try RawStatement(db, sql: "SELECT minute, fingerprints FROM grant_fingerprint_minute WHERE minute >= ? AND minute < ?")
        defer { statement.reset() }
        statement.bind(fromMinute, toMinute)
        while try statement.step() {
            let minute = statement.int64(0)
            try decoding(table: "grant_fingerprint_minute", row: "minute \(minute)") {
                try GrantFingerprintBlob.decode(statement.blob(1), minute: minute, in: fromMillis..<toMillis, into: &fingerprints)
            }
        }
        return fingerprints
    }

    /// Calls `body` with each minute of `[fromMillis, toMillis)` that holds grants and its grant blob, by
    /// minute; a damaged blob's error names its row.
    private static func forEachGrantBlob(
        fromMillis: Int64, toMillis: Int64, in db: Database, _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let statement = try RawStatement(
            db, sql: "SELECT minute, grants FROM client_report_minute WHERE minute >= ? AND minute < ? AND grants IS NOT NULL ORDER BY minute")
        defer { statement.reset() }
        statement.bind(fromMillis.floorDividedBy(.millisPerMinute).quotient, toMillis.floorDividedBy(.millisPerMinute).quotient + 1)
        while try statement.step() {
            let minute = statement.int64(0)
            try decoding(table: "client_report_minute", row: "minute \(minute)") { try body(minute, statement.blob(1)) }
        }
    }
}

/// The rows of `store_notification`: one per notification, keyed by store and the store's id.
enum StoreNotificationRows {
    /// Inserts the notifications not stored yet; returns the positions of those already stored (or
    /// repeated earlier in `notifications`).
    static func insert(_ notifications: [ReceivedNotification], in db: Database) throws -> [Int] {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO store_notification (store, notification_id, environment, app_id, type, subtype, kind, signed_millis,
                    event_millis, received_millis, transaction_id, original_transaction_id, product_id, purchase_millis, price,
                    currency, app_account_token, revocation_millis, family_shared)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (store, notification_id) DO NOTHING
                """)
        var duplicates: [Int] = []
        for (index, received) in notifications.enumerated() {
            let notification = received.notification
            try statement.execute(arguments: [
                notification.store.rawValue, notification.notificationID, notification.environment, notification.appID,
                notification.type, notification.subtype, notification.kind.rawValue, notification.signedMillis,
                notification.eventMillis, received.receivedMillis, notification.transactionID, notification.originalTransactionID,
                notification.productID, notification.purchaseMillis, notification.price, notification.currency,
                notification.appAccountToken, notification.revocationMillis, notification.isFamilyShared,
            ])
            if db.changesCount == 0 { duplicates.append(index) }
        }
        return duplicates
    }

    /// The notifications of `kinds` whose event time is in `[fromMillis, toMillis)`, by event time.
    static func fetch(kinds: Set<StoreEventKind>, fromMillis: Int64, toMillis: Int64, in db: Database) throws -> [ReceivedNotification] {
        let kindList = kinds.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        guard !kindList.isEmpty else { return [] }
        return try fetch(where: "event_millis >= ? AND event_millis < ? AND kind IN (\(kindList))", in: db) { $0.bind(fromMillis, toMillis) }
    }

    /// Whether any charge notification is stored.
    static func holdsCharges(in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM store_notification WHERE kind = 'charge')") ?? false
    }

    /// The notifications of `kind` naming any of `transactionIDs`, by event time.
    static func fetch(_ kind: StoreEventKind, naming transactionIDs: Set<String>, in db: Database) throws -> [ReceivedNotification] {
        // A notification looked up by id costs about as much as one read in turn (measured for charges: 8 and
        // 7 µs): when those of the kind stored are no more than the ids, each is read and kept when it names
        // one (counted no further than that); without one stored (events alone, no store notifications) none
        // is looked up. The kind is one of the enum's own words, never a caller's text.
        let condition = "kind = '\(kind.rawValue)'"
        let scanLimit = transactionIDs.count
        let stored =
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM (SELECT 1 FROM store_notification WHERE \(condition) LIMIT ?)", arguments: [scanLimit + 1]) ?? 0
        guard stored > 0 else { return [] }
        if stored <= scanLimit {
            return try fetch(where: condition, in: db) { _ in }.filter { $0.notification.transactionID.map(transactionIDs.contains) ?? false }
        }
        return try fetch(naming: transactionIDs, where: condition, in: db)
    }

    /// The notifications of any kind naming any of `transactionIDs` with a product, by event time.
    static func fetchWithProduct(naming transactionIDs: Set<String>, in db: Database) throws -> [ReceivedNotification] {
        try fetch(naming: transactionIDs, where: "product_id IS NOT NULL", in: db)
    }

    /// The notifications naming any of `transactionIDs` that `condition` selects, looked up through the
    /// transaction index (the ids passed as JSON arrays of 20,000: SQLite's list of a million ids went to
    /// a temporary file), by event time.
    private static func fetch(naming transactionIDs: Set<String>, where condition: String, in db: Database) throws -> [ReceivedNotification] {
        let ids = Array(transactionIDs)
        let parts = try stride(from: 0, to: ids.count, by: 20_000).map { start in
            try fetch(where: "transaction_id IN (SELECT value FROM json_each(?)) AND \(condition)", in: db) {
                $0.bind(text: JSONText.array(ids[start..<min(ids.count, start + 20_000)]), at: 1)
            }
        }
        guard parts.count > 1 else { return parts.first ?? [] }
        return parts.joined().sorted {
            ($0.notification.eventMillis, $0.notification.store.rawValue, $0.notification.notificationID)
                < ($1.notification.eventMillis, $1.notification.store.rawValue, $1.notification.notificationID)
        }
    }

    /// The notifications `condition` selects (its parameters bound by `bind`), by event time. Read through
    /// the C API: GRDB's rows took 10 µs a notification.
    private static func fetch(
        where condition: String, in db: Database, binding bind: (RawStatement) -> Void
    ) throws -> [ReceivedNotification] {
        let statement = try RawStatement(
            db,
            sql: """
                SELECT store, notification_id, environment, app_id, type, subtype, kind, signed_millis, received_millis, transaction_id,
                    original_transaction_id, product_id, purchase_millis, price, currency, app_account_token, revocation_millis, family_shared
                FROM store_notification WHERE \(condition)
                ORDER BY event_millis, store, notification_id
                """)
        defer { statement.reset() }
        bind(statement)
        var found: [ReceivedNotification] = []
        while try statement.step() {
            guard let store = statement.text(0).flatMap(Store.init(rawValue:)), let kind = statement.text(6).flatMap(StoreEventKind.init(rawValue:))
            else { continue }
            let notification = StoreNotification(
                store: store, notificationID: statement.text(1) ?? "", environment: statement.text(2) ?? "", appID: statement.text(3) ?? "",
                type: statement.text(4) ?? "", subtype: statement.text(5), kind: kind, signedMillis: statement.int64(7),
                transactionID: statement.text(9), originalTransactionID: statement.text(10), productID: statement.text(11),
                purchaseMillis: statement.optionalInt64(12), price: statement.optionalDouble(13), currency: statement.text(14),
                appAccountToken: statement.text(15), revocationMillis: statement.optionalInt64(16), isFamilyShared: statement.int64(17) != 0)
            found.append(ReceivedNotification(notification, receivedMillis: statement.int64(8)))
        }
        return found
    }

    /// Charges and refunds of `[fromMillis, toMillis)` (not a family member's share) counted per step and key, each transaction's
    /// charge (or refund) once, as told by its notification of the smallest id (SQLite takes the bare
    /// columns of an aggregate query from the row `min()` picks); a refund without a product takes its
    /// charge's. The same answer as ``PurchaseSLICore/StoreActivityRow/rows(of:fromMillis:toMillis:stepSeconds:)``.
    /// O(rows log rows).
    static func activity(fromMillis: Int64, toMillis: Int64, stepSeconds: Int64, in db: Database) throws -> [StoreActivityRow] {
        let step = max(1, stepSeconds) * .millisPerSecond
        return try Row.fetchAll(
            db,
            sql: """
                WITH distinct_events AS (
                    SELECT store, environment, app_id, kind, type, currency, price, event_millis, min(notification_id),
                        coalesce(product_id, (SELECT c.product_id FROM store_notification c WHERE c.transaction_id = n.transaction_id
                            AND c.store = n.store AND c.product_id IS NOT NULL ORDER BY c.notification_id LIMIT 1)) AS product
                    FROM store_notification n
                    WHERE event_millis >= ? AND event_millis < ? AND kind != 'other' AND family_shared = 0
                    GROUP BY store, kind, coalesce(transaction_id, notification_id), event_millis
                )
                SELECT (event_millis - ((event_millis % ?) + ?) % ?) / 1000, store, environment, app_id, product, kind, type, currency,
                    count(*), coalesce(sum(price), 0)
                FROM distinct_events GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
                """, arguments: [fromMillis, toMillis, step, step, step]
        ).compactMap { row in
            guard let store = Store(rawValue: row[1]), let kind = StoreEventKind(rawValue: row[5]) else { return nil }
            return StoreActivityRow(
                timeSeconds: row[0], store: store, environment: row[2], appID: row[3], productID: row[4], kind: kind, type: row[6],
                currency: row[7], count: row[8], amount: row[9])
        }
    }
}
