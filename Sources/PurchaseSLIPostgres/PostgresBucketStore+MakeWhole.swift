#if PostgreSQL
import Logging
import PostgresNIO
public import PurchaseSLICore
import PurchaseSLIStorage

extension PostgresBucketStore {
    /// Keeps each delivery, replacing the one kept for its store and transaction: one statement.
    public func record(_ deliveries: [MakeWholeDelivery]) throws {
        guard !deliveries.isEmpty else { return }
        // One row per store and transaction (the last given wins), as ON CONFLICT needs.
        let latest = Array(
            Dictionary(deliveries.map { ("\($0.store.rawValue) \($0.transactionID)", $0) }, uniquingKeysWith: { _, last in last }).values)
        let logger = logger
        try withConnection { connection in
            try await connection.run(
                """
                INSERT INTO make_whole_delivery (store, transaction_id, outcome, status, detail, attempts, last_attempt_millis)
                SELECT * FROM unnest(\(latest.map(\.store.rawValue)), \(latest.map(\.transactionID)), \(latest.map(\.outcome.rawValue)),
                    \(latest.map { Int32(clamping: $0.status) }), \(latest.map(\.detail)), \(latest.map { Int32(clamping: $0.attempts) }),
                    \(latest.map(\.lastAttemptMillis)))
                ON CONFLICT (store, transaction_id) DO UPDATE SET outcome = excluded.outcome, status = excluded.status,
                    detail = excluded.detail, attempts = excluded.attempts, last_attempt_millis = excluded.last_attempt_millis
                """, logger: logger)
        }
    }

    /// The deliveries kept for `transactionIDs`, by store and transaction.
    public func makeWholeDeliveries(naming transactionIDs: Set<String>) throws -> [MakeWholeDelivery] {
        guard !transactionIDs.isEmpty else { return [] }
        let ids = transactionIDs.sorted()
        let logger = logger
        return try withConnection { connection in
            var deliveries: [MakeWholeDelivery] = []
            for try await (store, id, outcome, status, detail, attempts, last) in try await connection.query(
                """
                SELECT store, transaction_id, outcome, status, detail, attempts, last_attempt_millis FROM make_whole_delivery
                WHERE transaction_id = ANY(\(ids)) ORDER BY store COLLATE "C", transaction_id COLLATE "C"
                """, logger: logger
            ).decode((String, String, String, Int32, String, Int32, Int64).self) {
                guard let store = Store(rawValue: store), let outcome = MakeWholeDelivery.Outcome(rawValue: outcome) else { continue }
                deliveries.append(
                    MakeWholeDelivery(
                        store: store, transactionID: id, outcome: outcome, status: Int(status), detail: detail, attempts: Int(attempts),
                        lastAttemptMillis: last))
            }
            return deliveries
        }
    }
}
#endif
