import Foundation
import GRDB
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

#if PostgreSQL
import PurchaseSLIPostgres
#endif

/// A database written before the `app` dimension is upgraded in place by its store's migration: every
/// series keeps its id and values, the counts stay as they were, duplicates stay duplicates, and events
/// that name an app count apart from the earlier ones.
enum AppDimensionUpgrade {
    /// Events as an earlier version wrote them: no app.
    static let earlierEvents = [
        event("a", at: "2026-11-14T09:30:00Z"),
        event("b", at: "2026-11-14T09:31:00Z", product: "premium_monthly", plan: nil, result: .failure, error: "timeout"),
        event("c", at: "2026-11-14T10:02:00Z", result: .alreadyGranted, status: 409, version: "4.12.0"),
    ]

    /// Every dimension the earlier schema had, in series order.
    static let earlierDimensions = EventDimension.seriesDimensions.filter { $0 != .app }

    static let day = (from: seconds("2026-11-14T00:00:00Z"), to: seconds("2026-11-15T00:00:00Z"))

    /// Records the earlier events through `open()`'s store, `downgrade`s its database to the schema before the
    /// app dimension, opens it again (which migrates it) and checks what it holds.
    static func check(open: @Sendable () async throws -> any BucketStore, downgrade: @Sendable () async throws -> Void) async throws {
        let query = CountQuery(
            fromSeconds: day.from, toSeconds: day.to, step: TimeStep(seconds: 3600), groupBy: earlierDimensions + [.resultType])
        let seriesBefore: [StoredSeries]
        let countsBefore: [CountRow]
        do {
            let store = try await open()
            await #expect(try store.record(earlierEvents, receivedAtMillis: receivedAt).accepted == 3)
            seriesBefore = try await store.series(earlierDimensions)
            countsBefore = try await store.counts(query)
        }
        #expect(seriesBefore.count == 3 && countsBefore.count == 3)
        try await downgrade()

        let store = try await open()
        await #expect(try store.series(earlierDimensions) == seriesBefore, "every series keeps its id and values")
        await #expect(try store.series([.app]).allSatisfy { $0.values == [nil] }, "the earlier series have no app")
        await #expect(try store.counts(query) == countsBefore)
        await #expect(try store.record([earlierEvents[0]], receivedAtMillis: receivedAt).duplicates == 1, "dedup spans the upgrade")

        // The same product, plan and version from two apps: two series, counted apart and filtered by app.
        let withApps = [
            event("d", at: "2026-11-14T09:30:00Z", app: "com.example.coins"),
            event("e", at: "2026-11-14T09:32:00Z", result: .failure, app: "com.example.coins"),
            event("f", at: "2026-11-14T09:33:00Z", app: "com.example.premium"),
        ]
        await #expect(try store.record(withApps, receivedAtMillis: receivedAt).accepted == 3)
        let byApp = try await store.counts(CountQuery(fromSeconds: day.from, toSeconds: day.to, groupBy: [.app]))
        let totals = Dictionary(uniqueKeysWithValues: byApp.map { ($0.key[0], $0.counts.total) })
        #expect(totals == [nil: 3, "com.example.coins": 2, "com.example.premium": 1])
        let coins = try await store.counts(
            CountQuery(fromSeconds: day.from, toSeconds: day.to, groupBy: [.productID], filters: [.app: ["com.example.coins"]]))
        #expect(coins.map(\.key) == [["coins_100"]] && coins.first?.counts.success == 1 && coins.first?.counts.failure == 1)
        await #expect(try store.series(EventDimension.seriesDimensions).count == 5)
    }
}

@Suite struct AppDimensionUpgradeTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test("a SQLite database from before the app dimension is upgraded in place (migration v8)")
    func sqlite() async throws {
        let path = directory.file("db.sqlite")
        try await AppDimensionUpgrade.check {
            try SQLiteBucketStore(path: path)
        } downgrade: {
            // Back to v7: the series table as v1 made it, its rows kept, v8 forgotten.
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE series_v7 (
                            id INTEGER PRIMARY KEY, action INTEGER NOT NULL, product INTEGER NOT NULL, plan INTEGER NOT NULL,
                            grp INTEGER NOT NULL, offer INTEGER NOT NULL, app_version INTEGER NOT NULL, platform INTEGER NOT NULL,
                            os_version INTEGER NOT NULL, variant INTEGER NOT NULL,
                            UNIQUE (action, product, plan, grp, offer, app_version, platform, os_version, variant));
                        INSERT INTO series_v7 SELECT id, action, product, plan, grp, offer, app_version, platform, os_version, variant FROM series;
                        DROP TABLE series;
                        ALTER TABLE series_v7 RENAME TO series;
                        DELETE FROM grdb_migrations WHERE identifier = 'v8-app-dimension';
                        """)
            }
            try queue.close()
        }
    }
}

#if PostgreSQL
@Suite(.enabled(if: TestPostgres.isEnabled, "set PURCHASE_SLI_TEST_POSTGRES_URL (scripts/test-postgres.sh start DIR prints it)"))
struct PostgresAppDimensionUpgradeTests {
    @Test("a PostgreSQL database from before the app dimension is upgraded in place (migration 4)")
    func postgres() async throws {
        let text = try await TestPostgres.newDatabase()
        let url = try PostgresURL(text)
        try await AppDimensionUpgrade.check {
            try await PostgresBucketStore(url: url, timeout: TestPostgres.callTimeout)
        } downgrade: {
            // Back to migration 3: no app column, the nine-column unique key under PostgreSQL's own name.
            try await TestPostgres.run(
                [
                    "ALTER TABLE series DROP CONSTRAINT series_dimensions_key",
                    "ALTER TABLE series DROP COLUMN app",
                    "ALTER TABLE series ADD UNIQUE (action, product, plan, grp, offer, app_version, platform, os_version, variant)",
                    "DELETE FROM purchase_sli_migration WHERE version = 4",
                ], in: text)
        }
    }
}
#endif
