#if PostgreSQL
import PurchaseSLIPostgres
import Testing

/// The PostgreSQL store's migrations, like the SQLite store's (``FrozenMigrationTests``), run the SQL they
/// shipped with.
@Suite struct PostgresMigrationTests {
    @Test func everyShippedPostgresMigrationRunsTheSQLItShippedWith() throws {
        #expect(!PostgresSchema.migrations.isEmpty)
        for migration in PostgresSchema.migrations {
            try expectFrozen(migration.statements, named: "\(migration.version)-\(migration.name)", in: "postgres")
        }
    }
}
#endif
