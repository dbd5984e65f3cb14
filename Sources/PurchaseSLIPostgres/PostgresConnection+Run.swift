#if PostgreSQL
import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs a statement to its end, reading and dropping any rows it returns. postgres-nio answers
    /// `query` once the first rows are described, so an error the server reports after that (a deadlock
    /// found while `pg_advisory_xact_lock` waited) is thrown only to a reader of the rows: discarding them
    /// would lose it, and the transaction's next statement would fail as "aborted" instead, which no
    /// retry recognises.
    func run(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}
#endif
