import Foundation
import GRDB
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

#if PostgreSQL
import PurchaseSLIPostgres
#endif

/// Maintenance windows kept before their repository was written once (SQLite's `start`/`end` columns and
/// actions joined by U+001F, PostgreSQL's `text[]`) read back whole after the migration.
@Suite struct MaintenanceUpgradeTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    static let expected = [
        MaintenanceWindow(
            id: "mw-1", app: "com.example.app", startSeconds: 1_795_000_000, endSeconds: 1_795_003_600,
            recurrence: try! RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=SU"), actions: ["purchase", "restore"], reason: "weekly deploy",
            createdSeconds: 1_794_990_000),
        MaintenanceWindow(id: "mw-2", startSeconds: 1_795_100_000, endSeconds: 1_795_100_600, reason: "every action"),
        MaintenanceWindow(id: "mw-3", startSeconds: 1_795_200_000, endSeconds: 1_795_200_600, actions: ["retry"], reason: "one action"),
    ]

    @Test("a SQLite database of v17 keeps its windows through v18")
    func sqlite() async throws {
        let path = directory.file("db.sqlite")
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue, upTo: "v17-incidents")
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO maintenance_window (id, app, start, end, rrule, actions, reason, created) VALUES
                        ('mw-1', 'com.example.app', 1795000000, 1795003600, 'FREQ=WEEKLY;BYDAY=SU', 'purchase' || char(31) || 'restore',
                            'weekly deploy', 1794990000),
                        ('mw-2', '', 1795100000, 1795100600, NULL, '', 'every action', NULL),
                        ('mw-3', '', 1795200000, 1795200600, NULL, 'retry', 'one action', NULL)
                    """)
        }
        try queue.close()
        let store = try SQLiteBucketStore(path: path)
        #expect(try await MaintenanceWindowRepository(store.sql).windows() == Self.expected)
    }
}

#if PostgreSQL
@Suite(.enabled(if: TestPostgres.isEnabled, "set PURCHASE_SLI_TEST_POSTGRES_URL (scripts/test-postgres.sh start DIR prints it)"))
struct PostgresMaintenanceUpgradeTests {
    @Test("a PostgreSQL database of migration 12 keeps its windows through 13")
    func postgres() async throws {
        let text = try await TestPostgres.newDatabase()
        _ = try await PostgresBucketStore(url: try PostgresURL(text), timeout: TestPostgres.callTimeout)
        // Back to migration 12: the actions a text[], and the windows as it kept them.
        try await TestPostgres.run(
            [
                "ALTER TABLE maintenance_window DROP COLUMN actions",
                "ALTER TABLE maintenance_window ADD COLUMN actions text[] NOT NULL",
                "DELETE FROM purchase_sli_migration WHERE version = 13",
                """
                INSERT INTO maintenance_window (id, app, start_seconds, end_seconds, rrule, actions, reason, created) VALUES
                    ('mw-1', 'com.example.app', 1795000000, 1795003600, 'FREQ=WEEKLY;BYDAY=SU', ARRAY['purchase', 'restore'],
                        'weekly deploy', 1794990000),
                    ('mw-2', '', 1795100000, 1795100600, NULL, ARRAY[]::text[], 'every action', NULL),
                    ('mw-3', '', 1795200000, 1795200600, NULL, ARRAY['retry'], 'one action', NULL)
                """,
            ], in: text)
        let store = try await PostgresBucketStore(url: try PostgresURL(text), timeout: TestPostgres.callTimeout)
        #expect(try await MaintenanceWindowRepository(store.sql).windows() == MaintenanceUpgradeTests.expected)
    }
}
#endif
