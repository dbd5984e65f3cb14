public import PurchaseSLICore

/// What the grant server answered for each charge make-whole posted, and the charges a person wrote off
/// (``MakeWholeDelivery``), written once over SQL for every backend: one per store and transaction,
/// replaced by each attempt.
public struct MakeWholeDeliveryRepository: Sendable {
    private let sql: any SQLExecutor

    /// The repository of the deliveries kept in `sql`'s database.
    public init(_ sql: any SQLExecutor) {
        self.sql = sql
    }

    /// Keeps each delivery, replacing the one kept for its store and transaction (the last of a store and
    /// transaction given wins): all or nothing, in one transaction.
    public func record(_ deliveries: [MakeWholeDelivery]) async throws {
        var latest: [[String]: MakeWholeDelivery] = [:]
        for delivery in deliveries { latest[[delivery.store.rawValue, delivery.transactionID]] = delivery }
        let rows = latest.values.sorted { ($0.store.rawValue, $0.transactionID) < ($1.store.rawValue, $1.transactionID) }
        guard !rows.isEmpty else { return }
        let values = rows.map { delivery -> SQLStatement in
            """
            (\(delivery.store.rawValue), \(delivery.transactionID), \(delivery.outcome.rawValue), \(Int64(delivery.status)), \(delivery.detail),
                \(Int64(delivery.attempts)), \(delivery.lastAttemptMillis))
            """
        }
        let statements = SQLStatement.inserting(values) { values in
            """
            INSERT INTO make_whole_delivery (\(sql: Self.columns)) VALUES \(sql: values)
            ON CONFLICT (store, transaction_id) DO UPDATE SET outcome = excluded.outcome, status = excluded.status,
                detail = excluded.detail, attempts = excluded.attempts, last_attempt_millis = excluded.last_attempt_millis
            """
        }
        _ = try await sql.write(statements, of: Self.table)
    }

    /// The deliveries kept for `transactionIDs`, by store and transaction (by bytes); those of a store or
    /// outcome this version does not know (a newer version wrote them) are left out.
    public func deliveries(naming transactionIDs: Set<String>) async throws -> [MakeWholeDelivery] {
        guard !transactionIDs.isEmpty else { return [] }
        return try await sql.read(
            """
            SELECT \(sql: Self.columns) FROM make_whole_delivery WHERE transaction_id \(oneOf: transactionIDs.sorted())
            ORDER BY store \(.byteOrder), transaction_id \(.byteOrder)
            """, of: Self.table
        ).compactMap(Self.delivery)
    }

    private static let table = "make_whole_delivery"

    /// The columns ``delivery(_:)`` reads, in its order.
    private static let columns: SQLStatement = "store, transaction_id, outcome, status, detail, attempts, last_attempt_millis"

    private static func delivery(_ row: SQLRow) throws -> MakeWholeDelivery? {
        guard let store = Store(rawValue: try row.text(0)), let outcome = MakeWholeDelivery.Outcome(rawValue: try row.text(2)) else {
            return nil
        }
        return MakeWholeDelivery(
            store: store, transactionID: try row.text(1), outcome: outcome, status: Int(try row.integer(3)), detail: try row.text(4),
            attempts: Int(try row.integer(5)), lastAttemptMillis: try row.integer(6))
    }
}
