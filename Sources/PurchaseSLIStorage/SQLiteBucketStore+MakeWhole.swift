import GRDB
public import PurchaseSLICore

extension SQLiteBucketStore {
    /// Keeps each delivery, replacing the one kept for its store and transaction; one transaction.
    public func record(_ deliveries: [MakeWholeDelivery]) throws {
        guard !deliveries.isEmpty else { return }
        try pool.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO make_whole_delivery (store, transaction_id, outcome, status, detail, attempts, last_attempt_millis)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (store, transaction_id) DO UPDATE SET outcome = excluded.outcome,
                    status = excluded.status, detail = excluded.detail, attempts = excluded.attempts,
                    last_attempt_millis = excluded.last_attempt_millis
                    """)
            for delivery in deliveries {
                try statement.execute(arguments: [
                    delivery.store.rawValue, delivery.transactionID, delivery.outcome.rawValue, delivery.status, delivery.detail,
                    delivery.attempts, delivery.lastAttemptMillis,
                ])
            }
        }
    }

    /// The deliveries kept for `transactionIDs`, by store and transaction.
    public func makeWholeDeliveries(naming transactionIDs: Set<String>) throws -> [MakeWholeDelivery] {
        guard !transactionIDs.isEmpty else { return [] }
        return try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT store, transaction_id, outcome, status, detail, attempts, last_attempt_millis FROM make_whole_delivery
                    WHERE transaction_id IN (SELECT value FROM json_each(?)) ORDER BY store, transaction_id
                    """, arguments: [JSONText.array(transactionIDs)]
            ).compactMap { row in
                guard let store = Store(rawValue: row[0]), let outcome = MakeWholeDelivery.Outcome(rawValue: row[2]) else { return nil }
                return MakeWholeDelivery(
                    store: store, transactionID: row[1], outcome: outcome, status: row[3], detail: row[4], attempts: row[5],
                    lastAttemptMillis: row[6])
            }
        }
    }
}
