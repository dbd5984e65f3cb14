import Foundation
import GRDB
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// A shipped migration is never edited: each one's SQL, as it runs on a new database, is kept in
/// `Tests/Fixtures/migrations/`, and a change to it (such as a table built from a column list the code
/// changed since) fails here. A new migration's SQL is written there the first time, to be committed.
@Suite struct FrozenMigrationTests {
    @Test func everyShippedSQLiteMigrationRunsTheSQLItShippedWith() throws {
        let recorder = StatementRecorder()
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.trace(options: .statement) { recorder.add("\($0)") } }
        let queue = try DatabaseQueue(configuration: configuration)
        let migrator = Schema.migrator
        #expect(!migrator.migrations.isEmpty)
        for identifier in migrator.migrations {
            _ = recorder.take()
            try migrator.migrate(queue, upTo: identifier)
            // GRDB's own statements (its transaction, its table of applied migrations, its checks) are not the migration's.
            let statements = recorder.take().filter { statement in
                !statement.contains("grdb_migrations")
                    && !["BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK", "PRAGMA FOREIGN_KEY"]
                        .contains { statement.uppercased().hasPrefix($0) }
            }
            try expectFrozen(statements, named: identifier, in: "sqlite")
        }
    }
}

/// Compares `statements` with the fixture `Tests/Fixtures/migrations/<backend>/<name>.sql`, writing the
/// fixture (and recording an issue) when there is none yet.
func expectFrozen(_ statements: [String], named name: String, in backend: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let path = packageRoot + "/Tests/Fixtures/migrations/\(backend)/\(name).sql"
    let sql = statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) + ";" }.joined(separator: "\n\n") + "\n"
    guard let shipped = try? String(contentsOfFile: path, encoding: .utf8) else {
        try sql.write(toFile: path, atomically: true, encoding: .utf8)
        Issue.record("the new migration \(name) has no fixture yet: its SQL is written to \(path), to commit", sourceLocation: sourceLocation)
        return
    }
    #expect(
        sql == shipped, "migration \(name) no longer runs the SQL it shipped with (\(path)): add a new migration instead",
        sourceLocation: sourceLocation)
}

/// The statements a database ran, collected from its trace (on the database's own queue).
final class StatementRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    func add(_ statement: String) { lock.withLock { statements.append(statement) } }

    /// The statements since the last call.
    func take() -> [String] {
        lock.withLock {
            defer { statements = [] }
            return statements
        }
    }
}
