package import GRDB
import PurchaseSLICore

/// The ``SQLExecutor`` of an SQLite database (a file's pool, or an in-memory queue): GRDB's asynchronous reads
/// and writes, which wait on GRDB's own queues, never on a cooperative thread.
public struct SQLiteExecutor: SQLExecutor {
    private let database: any DatabaseWriter

    /// Runs statements on `database`.
    package init(_ database: any DatabaseWriter) {
        self.database = database
    }

    /// SQLite's.
    public var dialect: SQLDialect { .sqlite }

    /// Runs a query on a reader, given back before the caller resumes (`readGivingReaderBack`).
    public func read(_ statement: SQLStatement, of table: String) async throws -> [SQLRow] {
        try await database.readGivingReaderBack { db in try Self.rows(statement, of: table, in: db) }
    }

    /// Runs the writes in one immediate transaction.
    public func write(_ statements: [SQLStatement], of table: String) async throws -> [SQLRow] {
        try await database.inImmediateTransaction { db in try statements.flatMap { try Self.rows($0, of: table, in: db) } }
    }

    /// Reads, decides and writes in one immediate transaction: SQLite lets one writer in at a time, so no
    /// other process writes between the read and the writes.
    public func transaction<Value: Sendable>(
        locking table: String, read: SQLStatement,
        decide: @escaping @Sendable ([SQLRow]) throws -> (statements: [SQLStatement], value: Value)
    ) async throws -> Value {
        try await database.inImmediateTransaction { db in
            let decision = try decide(try Self.rows(read, of: table, in: db))
            for statement in decision.statements { _ = try Self.rows(statement, of: table, in: db) }
            return decision.value
        }
    }

    private static func rows(_ statement: SQLStatement, of table: String, in db: Database) throws -> [SQLRow] {
        let (sql, values) = statement.rendered(for: .sqlite)
        let arguments = StatementArguments(
            values.map { value -> (any DatabaseValueConvertible)? in
                switch value {
                case .null: nil
                case .integer(let integer): integer
                case .text(let text): text
                case .boolean(let truth): truth
                case .texts(let texts): JSONText.array(texts)
                }
            })
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            SQLRow(
                try row.databaseValues.enumerated().map { index, value in
                    switch value.storage {
                    case .null: .null
                    case .int64(let integer): .integer(integer)
                    case .string(let text): .text(text)
                    case .double, .blob:
                        throw StorageError.damaged(table: table, row: "\(row)", detail: "column \(index + 1) holds \(value), not text or an integer")
                    }
                }, table: table)
        }
    }
}
