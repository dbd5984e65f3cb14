import GRDB
import PurchaseSLICore

/// The rows of `client_report`: per transaction id (key_kind 0) and account token (1), the first grant
/// and the latest outcome the app's events reported.
enum ClientReportRows {
    /// Merges reports into their rows: the earliest grant, the latest outcome. Merging is idempotent, so
    /// a resent event changes nothing.
    static func upsert(_ reports: [ClientReport], in db: Database) throws {
        guard !reports.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO client_report (key_kind, key, product_id, plan_id, action, first_grant_millis, last_millis, last_result,
                last_status, last_error)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (key_kind, key) DO UPDATE SET
                first_grant_millis = CASE WHEN excluded.first_grant_millis IS NULL THEN first_grant_millis
                    WHEN first_grant_millis IS NULL THEN excluded.first_grant_millis
                    ELSE min(first_grant_millis, excluded.first_grant_millis) END,
                product_id = iif(excluded.last_millis >= last_millis, excluded.product_id, product_id),
                plan_id = iif(excluded.last_millis >= last_millis, excluded.plan_id, plan_id),
                action = iif(excluded.last_millis >= last_millis, excluded.action, action),
                last_result = iif(excluded.last_millis >= last_millis, excluded.last_result, last_result),
                last_status = iif(excluded.last_millis >= last_millis, excluded.last_status, last_status),
                last_error = iif(excluded.last_millis >= last_millis, excluded.last_error, last_error),
                last_millis = max(last_millis, excluded.last_millis)
            """)
        for report in reports {
            let (kind, key) = columns(of: report.key)
            try statement.execute(arguments: [
                kind, key, report.productID, report.planID, report.actionType, report.firstGrantMillis, report.lastMillis,
                report.lastResult.rawValue, report.lastStatusCode, report.lastErrorDescription,
            ])
        }
    }

    /// The stored kind and text of a key.
    static func columns(of key: ClientReport.Key) -> (Int, String) {
        switch key {
        case .transactionID(let id): (0, id)
        case .appAccountToken(let token): (1, token)
        }
    }

    /// The reports of the given keys. O(keys × log rows).
    static func fetch(_ keys: Set<ClientReport.Key>, in db: Database) throws -> [ClientReport] {
        let statement = try db.cachedStatement(sql: """
            SELECT product_id, plan_id, action, first_grant_millis, last_millis, last_result, last_status, last_error
            FROM client_report WHERE key_kind = ? AND key = ?
            """)
        var reports: [ClientReport] = []
        for key in keys {
            let (kind, text) = columns(of: key)
            guard let row = try Row.fetchOne(statement, arguments: [kind, text]) else { continue }
            let result: String = row[5]
            reports.append(ClientReport(
                key: key, productID: row[0], planID: row[1], actionType: row[2], firstGrantMillis: row[3], lastMillis: row[4],
                lastResult: ResultType(rawValue: result) ?? .start, lastStatusCode: row[6], lastErrorDescription: row[7]))
        }
        return reports
    }
}

/// The rows of `store_notification`: one per notification, keyed by store and the store's id.
enum StoreNotificationRows {
    /// Inserts the notifications not stored yet; returns the positions of those already stored (or
    /// repeated earlier in `notifications`).
    static func insert(_ notifications: [ReceivedNotification], in db: Database) throws -> [Int] {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO store_notification (store, notification_id, environment, app_id, type, subtype, kind, signed_millis,
                event_millis, received_millis, transaction_id, original_transaction_id, product_id, purchase_millis, price,
                currency, app_account_token, revocation_millis)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
                notification.appAccountToken, notification.revocationMillis,
            ])
            if db.changesCount == 0 { duplicates.append(index) }
        }
        return duplicates
    }

    /// The notifications of `kinds` whose event time is in `[fromMillis, toMillis)`, by event time.
    static func fetch(kinds: Set<StoreEventKind>, fromMillis: Int64, toMillis: Int64, in db: Database) throws -> [ReceivedNotification] {
        let kindList = kinds.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        guard !kindList.isEmpty else { return [] }
        return try Row.fetchAll(db, sql: """
            SELECT store, notification_id, environment, app_id, type, subtype, kind, signed_millis, received_millis, transaction_id,
                original_transaction_id, product_id, purchase_millis, price, currency, app_account_token, revocation_millis
            FROM store_notification WHERE event_millis >= ? AND event_millis < ? AND kind IN (\(kindList))
            ORDER BY event_millis, store, notification_id
            """, arguments: [fromMillis, toMillis]).compactMap { row in
            guard let store = Store(rawValue: row[0]), let kind = StoreEventKind(rawValue: row[6]) else { return nil }
            let notification = StoreNotification(
                store: store, notificationID: row[1], environment: row[2], appID: row[3], type: row[4], subtype: row[5], kind: kind,
                signedMillis: row[7], transactionID: row[9], originalTransactionID: row[10], productID: row[11],
                purchaseMillis: row[12], price: row[13], currency: row[14], appAccountToken: row[15], revocationMillis: row[16])
            return ReceivedNotification(notification, receivedMillis: row[8])
        }
    }

    /// Charges and refunds of `[fromMillis, toMillis)` counted per step and key, each transaction's
    /// charge (or refund) once; a refund without a product takes its charge's. O(rows log rows).
    static func activity(fromMillis: Int64, toMillis: Int64, stepSeconds: Int64, in db: Database) throws -> [StoreActivityRow] {
        let step = max(1, stepSeconds) * 1000
        return try Row.fetchAll(db, sql: """
            WITH distinct_events AS (
                SELECT store, environment, kind, type, currency, price, event_millis,
                    coalesce(product_id, (SELECT c.product_id FROM store_notification c WHERE c.transaction_id = n.transaction_id
                        AND c.store = n.store AND c.product_id IS NOT NULL LIMIT 1)) AS product
                FROM store_notification n
                WHERE event_millis >= ? AND event_millis < ? AND kind != 'other'
                GROUP BY store, kind, coalesce(transaction_id, notification_id), event_millis
            )
            SELECT (event_millis - ((event_millis % ?) + ?) % ?) / 1000, store, environment, product, kind, type, currency,
                count(*), coalesce(sum(price), 0)
            FROM distinct_events GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
            """, arguments: [fromMillis, toMillis, step, step, step]).compactMap { row in
            guard let store = Store(rawValue: row[1]), let kind = StoreEventKind(rawValue: row[4]) else { return nil }
            return StoreActivityRow(
                timeSeconds: row[0], store: store, environment: row[2], productID: row[3], kind: kind, type: row[5], currency: row[6],
                count: row[7], amount: row[8])
        }
    }
}
