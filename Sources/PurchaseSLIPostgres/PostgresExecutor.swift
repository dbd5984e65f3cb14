#if PostgreSQL
import Logging
import PostgresNIO
public import PurchaseSLIStorage

/// The ``PurchaseSLIStorage/SQLExecutor`` of a PostgreSQL database: PostgresNIO's pooled client used
/// natively (no thread waits), each call given at most the store's timeout, its errors the store's
/// (``PostgresFailure``). It holds the store, whose life is the client's.
struct PostgresExecutor: SQLExecutor {
    let store: PostgresBucketStore

    private var client: PostgresClient { store.client }
    private var timeout: Duration { store.timeout }
    private var logger: Logger { store.logger }

    var dialect: SQLDialect { .postgres }

    /// Runs a query on a pooled connection.
    func read(_ statement: SQLStatement, of table: String) async throws -> [SQLRow] {
        try await run(statement, of: table)
    }

    /// Runs the writes: one alone, which PostgreSQL commits as a transaction of its own; more in one
    /// transaction.
    func write(_ statements: [SQLStatement], of table: String) async throws -> [SQLRow] {
        if statements.count == 1 { return try await run(statements[0], of: table) }
        let (client, logger) = (client, logger)
        do {
            return try await withDeadline(timeout) {
                try await client.withTransaction(logger: logger) { connection in
                    var rows: [SQLRow] = []
                    for statement in statements { rows += try await Self.rows(statement, of: table, on: connection, logger: logger) }
                    return rows
                }
            }
        } catch {
            throw PostgresFailure.storageError(error)
        }
    }

    /// Reads, decides and writes in one transaction that first locks `table` against other writers (the
    /// readers still read): two nodes' declarations at once run one after the other. Run again, up to 5
    /// times, when PostgreSQL aborts it for a deadlock.
    func transaction<Value: Sendable>(
        locking table: String, read: SQLStatement,
        decide: @escaping @Sendable ([SQLRow]) throws -> (statements: [SQLStatement], value: Value)
    ) async throws -> Value {
        let (client, logger) = (client, logger)
        var attempt = 1
        while true {
            do {
                return try await withDeadline(timeout) {
                    try await client.withTransaction(logger: logger) { connection in
                        try await connection.query(PostgresQuery(unsafeSQL: "LOCK TABLE \(table) IN SHARE ROW EXCLUSIVE MODE"), logger: logger)
                        let decision = try decide(try await Self.rows(read, of: table, on: connection, logger: logger))
                        for statement in decision.statements { _ = try await Self.rows(statement, of: table, on: connection, logger: logger) }
                        return decision.value
                    }
                }
            } catch let error as PostgresTransactionError {
                // What `decide` refused is the caller's to see as it was thrown.
                if let refusal = error.closureError, !(refusal is PSQLError) { throw refusal }
                let failure = PostgresFailure.storageError(error)
                guard let retryable = failure as? PostgresFailure, retryable.isRetryable, attempt < 5 else { throw failure }
                attempt += 1
            } catch {
                throw PostgresFailure.storageError(error)
            }
        }
    }

    private func run(_ statement: SQLStatement, of table: String) async throws -> [SQLRow] {
        let (client, logger) = (client, logger)
        do {
            return try await withDeadline(timeout) {
                try await client.withConnection { connection in try await Self.rows(statement, of: table, on: connection, logger: logger) }
            }
        } catch {
            throw PostgresFailure.storageError(error)
        }
    }

    private static func rows(_ statement: SQLStatement, of table: String, on connection: PostgresConnection, logger: Logger) async throws -> [SQLRow]
    {
        let (sql, values) = statement.rendered(for: .postgres)
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(integer)
            case .text(let text): bindings.append(text)
            case .boolean(let truth): bindings.append(truth)
            case .texts(let texts): bindings.append(texts)
            }
        }
        var rows: [SQLRow] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
            rows.append(SQLRow(try row.map { try value(of: $0, table: table) }, table: table))
        }
        return rows
    }

    private static func value(of cell: PostgresCell, table: String) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .text, .varchar, .name, .bpchar: return .text(try cell.decode(String.self))
        case .bool: return .boolean(try cell.decode(Bool.self))
        default:
            throw StorageError.damaged(
                table: table, row: "?", detail: "column \(cell.columnName) is of type \(cell.dataType), not text or an integer")
        }
    }
}

extension PostgresBucketStore: SQLRecordStore {
    /// The database the low-volume records' repositories run on, through the store's pool.
    public var sql: any SQLExecutor { PostgresExecutor(store: self) }
}
#endif
