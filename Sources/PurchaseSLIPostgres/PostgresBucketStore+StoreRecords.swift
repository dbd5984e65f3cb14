#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
public import PurchaseSLICore
public import PurchaseSLIStorage

extension PostgresBucketStore {
    /// Stores verified notifications in one statement, skipping those already stored (by any node).
    public func record(_ notifications: [ReceivedNotification]) async throws -> NotificationOutcome {
        guard !notifications.isEmpty else { return NotificationOutcome(accepted: 0, duplicateIndexes: []) }
        let logger = logger
        let inserted = try await transaction { connection in try await Self.insert(notifications, on: connection, logger: logger) }
        var counted = Set<[String]>()
        var duplicates: [Int] = []
        for (index, received) in notifications.enumerated() {
            let key = [received.notification.store.rawValue, received.notification.notificationID]
            if inserted.contains(key), counted.insert(key).inserted { continue }
            duplicates.append(index)
        }
        return NotificationOutcome(accepted: notifications.count - duplicates.count, duplicateIndexes: duplicates)
    }

    /// Inserts the notifications not stored yet; returns the (store, id) of those inserted.
    static func insert(_ notifications: [ReceivedNotification], on connection: PostgresConnection, logger: Logger) async throws -> Set<[String]> {
        guard !notifications.isEmpty else { return [] }
        let rows = String(decoding: try JSONEncoder().encode(notifications.map(NotificationRow.init)), as: UTF8.self)
        var inserted = Set<[String]>()
        for try await (store, id) in try await connection.query(
            """
            INSERT INTO store_notification (\(unescaped: NotificationRow.columns))
            SELECT \(unescaped: NotificationRow.columns) FROM jsonb_to_recordset(\(rows)::jsonb) AS x(\(unescaped: NotificationRow.columnTypes))
            ON CONFLICT (store, notification_id) DO NOTHING RETURNING store, notification_id
            """, logger: logger
        ).decode((String, String).self) { inserted.insert([store, id]) }
        return inserted
    }

    /// The notifications of `kinds` that happened in `[fromMillis, toMillis)`, by event time, store and id.
    public func notifications(kinds: Set<StoreEventKind>, fromMillis: Int64, toMillis: Int64) async throws -> [ReceivedNotification] {
        guard !kinds.isEmpty else { return [] }
        let kindNames = kinds.map(\.rawValue).sorted()
        return try await fetchNotifications(where: "event_millis >= $1 AND event_millis < $2 AND kind = ANY($3)") {
            $0.append(fromMillis)
            $0.append(toMillis)
            $0.append(kindNames)
        }
    }

    /// The charge notifications naming any of `transactionIDs`, by event time, store and id.
    public func notifications(of kind: StoreEventKind, naming transactionIDs: Set<String>) async throws -> [ReceivedNotification] {
        guard !transactionIDs.isEmpty else { return [] }
        if kind == .charge, try await !holdsCharges() { return [] }
        let ids = Array(transactionIDs)
        return try await fetchNotifications(where: "transaction_id = ANY($1) AND kind = $2") {
            $0.append(ids)
            $0.append(kind.rawValue)
        }
    }

    /// The notifications of any kind naming any of `transactionIDs` with a product, by event time, store and id.
    public func notificationsWithProduct(naming transactionIDs: Set<String>) async throws -> [ReceivedNotification] {
        guard !transactionIDs.isEmpty else { return [] }
        let ids = Array(transactionIDs)
        return try await fetchNotifications(where: "transaction_id = ANY($1) AND product_id IS NOT NULL") { $0.append(ids) }
    }

    /// Whether any charge notification is stored: without one (events alone), none is looked up by id.
    public func holdsCharges() async throws -> Bool {
        let logger = logger
        return try await connection { connection in
            var holds = false
            for try await exists in try await connection.query(
                "SELECT EXISTS (SELECT 1 FROM store_notification WHERE kind = 'charge')", logger: logger
            ).decode(Bool.self) { holds = exists }
            return holds
        }
    }

    /// Events clients dropped unsent, reported with batches received in `[fromMillis, toMillis)`.
    public func clientDroppedEvents(fromMillis: Int64, toMillis: Int64) async throws -> Int64 {
        let logger = logger
        return try await connection { connection in
            var total: Int64 = 0
            for try await events in try await connection.query(
                "SELECT coalesce(sum(events), 0)::bigint FROM client_drop WHERE minute * 60000 >= \(fromMillis) AND minute * 60000 < \(toMillis)",
                logger: logger
            ).decode(Int64.self) { total = events }
            return total
        }
    }

    /// What the app's events of `[fromMillis, toMillis)` reported for each of `keys`.
    public func clientReports(_ keys: Set<ClientReport.Key>, fromMillis: Int64, toMillis: Int64) async throws -> [ClientReport] {
        guard !keys.isEmpty else { return [] }
        let wanted = Dictionary(keys.map { (ClientReportBlob.hash(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        var reports = RecordsByTime(order: ClientReport.byTime)
        try forEach(try await reportBlobs(fromMillis: fromMillis, toMillis: toMillis)) { minute, bytes in
            try reports.append(minute: minute) {
                try ClientReportBlob.decode(bytes, minute: minute, wanted: wanted, in: fromMillis..<toMillis, into: &$0)
            }
        }
        return reports.sorted()
    }

    /// The outcome of every event of `[fromMillis, toMillis)` that named a transaction or account token.
    public func reportedOutcomes(fromMillis: Int64, toMillis: Int64, keyHashes: Set<Int64>?) async throws -> [ReportedOutcome] {
        var outcomes: [ReportedOutcome] = []
        try forEach(try await reportBlobs(fromMillis: fromMillis, toMillis: toMillis)) { minute, bytes in
            try ClientReportBlob.decodeOutcomes(bytes, minute: minute, in: fromMillis..<toMillis, keyHashes: keyHashes, into: &outcomes)
        }
        return outcomes
    }

    /// The report blobs of the minutes of `[fromMillis, toMillis)`, by minute, from one query.
    private func reportBlobs(fromMillis: Int64, toMillis: Int64) async throws -> [(Int64, ByteBuffer)] {
        let logger = logger
        return try await connection { connection in
            var blobs: [(Int64, ByteBuffer)] = []
            for try await row in try await connection.query(
                """
                SELECT minute, reports FROM client_report_minute WHERE minute >= \(fromMillis.floorDividedBy(.millisPerMinute).quotient)
                    AND minute < \(toMillis.floorDividedBy(.millisPerMinute).quotient + 1) ORDER BY minute, part
                """, logger: logger
            ).decode((Int64, ByteBuffer).self) { blobs.append(row) }
            return blobs
        }
    }

    /// Calls `body` with each of `blobs` (of `client_report_minute`), in order; a damaged blob's error
    /// names its row.
    private func forEach(_ blobs: [(Int64, ByteBuffer)], _ body: (Int64, UnsafeRawBufferPointer) throws -> Void) throws {
        for (minute, blob) in blobs {
            try decoding(table: "client_report_minute", row: "minute \(minute)") {
                try blob.withUnsafeReadableBytes { try body(minute, $0) }
            }
        }
    }

    /// The grants events of `[fromMillis, toMillis)` reported, by time, those of `selection`.
    public func grants(fromMillis: Int64, toMillis: Int64, of selection: GrantSelection) async throws -> [GrantRecord] {
        let blobs = try await grantBlobs(fromMillis: fromMillis, toMillis: toMillis)
        return try GrantBlob.grants(fromMillis: fromMillis, toMillis: toMillis, of: selection) { try forEach(blobs, $0) }
    }

    /// The time and transaction fingerprint of each grant events of `[fromMillis, toMillis)` reported.
    public func grantFingerprints(fromMillis: Int64, toMillis: Int64) async throws -> [GrantFingerprint] {
        let blobs = try await grantBlobs(fromMillis: fromMillis, toMillis: toMillis)
        return try GrantBlob.fingerprints(fromMillis: fromMillis, toMillis: toMillis) { try forEach(blobs, $0) }
    }

    /// The grant blobs of the minutes of `[fromMillis, toMillis)` that hold grants, by minute, from one query.
    private func grantBlobs(fromMillis: Int64, toMillis: Int64) async throws -> [(Int64, ByteBuffer)] {
        let logger = logger
        return try await connection { connection in
            var blobs: [(Int64, ByteBuffer)] = []
            for try await row in try await connection.query(
                """
                SELECT minute, grants FROM client_report_minute WHERE minute >= \(fromMillis.floorDividedBy(.millisPerMinute).quotient)
                    AND minute < \(toMillis.floorDividedBy(.millisPerMinute).quotient + 1) AND grants IS NOT NULL ORDER BY minute, part
                """, logger: logger
            ).decode((Int64, ByteBuffer).self) { blobs.append(row) }
            return blobs
        }
    }

    /// Charges and refunds of `[fromMillis, toMillis)` per step: the notifications of the range, and those
    /// that give a refund without a product its charge's.
    public func storeActivity(fromMillis: Int64, toMillis: Int64, stepSeconds: Int64) async throws -> [StoreActivityRow] {
        let inRange = try await fetchNotifications(where: "event_millis >= $1 AND event_millis < $2 AND kind <> 'other' AND NOT family_shared") {
            $0.append(fromMillis)
            $0.append(toMillis)
        }
        return try await storeActivity(of: inRange, fromMillis: fromMillis, toMillis: toMillis, stepSeconds: stepSeconds)
    }

    private func fetchNotifications(where condition: String, binding bind: (inout PostgresBindings) -> Void) async throws -> [ReceivedNotification] {
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT \(NotificationRow.columns) FROM store_notification WHERE \(condition)
                ORDER BY event_millis, store COLLATE "C", notification_id COLLATE "C"
                """)
        bind(&query.binds)
        let logger = logger
        return try await connection { [query] connection in
            var notifications: [ReceivedNotification] = []
            for try await row in try await connection.query(query, logger: logger) {
                if let notification = try NotificationRow(row).received { notifications.append(notification) }
            }
            return notifications
        }
    }
}

/// A `store_notification` row, as JSON for `jsonb_to_recordset` and as read back.
struct NotificationRow: Codable {
    var store: String
    var notification_id: String
    var environment: String
    var app_id: String
    var type: String
    var subtype: String?
    var kind: String
    var signed_millis: Int64
    var event_millis: Int64
    var received_millis: Int64
    var transaction_id: String?
    var original_transaction_id: String?
    var product_id: String?
    var purchase_millis: Int64?
    var price: Double?
    var currency: String?
    var app_account_token: String?
    var revocation_millis: Int64?
    var family_shared: Bool

    /// The columns, in the order of the properties.
    static let columns = """
        store, notification_id, environment, app_id, type, subtype, kind, signed_millis, event_millis, received_millis, transaction_id,
        original_transaction_id, product_id, purchase_millis, price, currency, app_account_token, revocation_millis, family_shared
        """

    /// The columns with their types, for `jsonb_to_recordset`.
    static let columnTypes = """
        store text, notification_id text, environment text, app_id text, type text, subtype text, kind text, signed_millis bigint,
        event_millis bigint, received_millis bigint, transaction_id text, original_transaction_id text, product_id text,
        purchase_millis bigint, price double precision, currency text, app_account_token text, revocation_millis bigint,
        family_shared boolean
        """

    init(_ received: ReceivedNotification) {
        let notification = received.notification
        store = notification.store.rawValue
        notification_id = notification.notificationID
        environment = notification.environment
        app_id = notification.appID
        type = notification.type
        subtype = notification.subtype
        kind = notification.kind.rawValue
        signed_millis = notification.signedMillis
        event_millis = notification.eventMillis
        received_millis = received.receivedMillis
        transaction_id = notification.transactionID
        original_transaction_id = notification.originalTransactionID
        product_id = notification.productID
        purchase_millis = notification.purchaseMillis
        price = notification.price
        currency = notification.currency
        app_account_token = notification.appAccountToken
        revocation_millis = notification.revocationMillis
        family_shared = notification.isFamilyShared
    }

    init(_ row: PostgresRow) throws {
        (
            store, notification_id, environment, app_id, type, subtype, kind, signed_millis, event_millis, received_millis, transaction_id,
            original_transaction_id, product_id, purchase_millis, price, currency, app_account_token, revocation_millis, family_shared
        ) = try row.decode(
            (
                String, String, String, String, String, String?, String, Int64, Int64, Int64, String?, String?, String?, Int64?, Double?,
                String?, String?, Int64?, Bool
            ).self)
    }

    /// The notification, or nil for a store or kind this version does not know.
    var received: ReceivedNotification? {
        guard let store = Store(rawValue: store), let kind = StoreEventKind(rawValue: kind) else { return nil }
        return ReceivedNotification(
            StoreNotification(
                store: store, notificationID: notification_id, environment: environment, appID: app_id, type: type, subtype: subtype,
                kind: kind, signedMillis: signed_millis, transactionID: transaction_id, originalTransactionID: original_transaction_id,
                productID: product_id, purchaseMillis: purchase_millis, price: price, currency: currency, appAccountToken: app_account_token,
                revocationMillis: revocation_millis, isFamilyShared: family_shared),
            receivedMillis: received_millis)
    }
}
#endif
