/// Runs the statements of the low-volume records (maintenance windows and their kin) on one backend's
/// database: what a repository written once over SQL needs, and no more. SQLite's is ``SQLiteExecutor``;
/// PostgreSQL's lives with its store. Every call is async and blocks no thread.
public protocol SQLExecutor: Sendable {
    /// The SQL the database speaks.
    var dialect: SQLDialect { get }

    /// Runs a query and gives back its rows, read as rows of `table` (on a reader: no write waits for it).
    func read(_ statement: SQLStatement, of table: String) async throws -> [SQLRow]

    /// Runs `statements` in order, in one transaction (all or nothing), and gives back the rows they
    /// return (none without `RETURNING`), read as rows of `table`.
    func write(_ statements: [SQLStatement], of table: String) async throws -> [SQLRow]

    /// Reads `read`'s rows, hands them to `decide`, and runs the statements it returns, all in one
    /// transaction during which no other writer (of this process or another) writes `table`: a
    /// read-then-write that two callers at once cannot interleave. `decide` may throw to write nothing.
    func transaction<Value: Sendable>(
        locking table: String, read: SQLStatement,
        decide: @escaping @Sendable ([SQLRow]) throws -> (statements: [SQLStatement], value: Value)
    ) async throws -> Value
}

extension SQLExecutor {
    /// Runs one write, in a transaction of its own, and gives back the rows it returns (none without
    /// `RETURNING`), read as rows of `table`.
    public func write(_ statement: SQLStatement, of table: String) async throws -> [SQLRow] {
        try await write([statement], of: table)
    }
}
