import Foundation
import GRDB
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// What only the SQLite store does: reopening a file, refusing foreign ones, its schema and its caches.
/// What every store does is in the contract suite (`Contract/`).
@Suite struct SQLiteBucketStoreTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func total(
        _ store: SQLiteBucketStore, from: String = "2026-11-01T00:00:00Z", to: String = "2026-12-01T00:00:00Z",
        by: [EventDimension] = [], step: TimeStep? = nil
    ) async throws -> [CountRow] {
        try await store.counts(CountQuery(fromSeconds: seconds(from), toSeconds: seconds(to), step: step, groupBy: by))
    }

    @Test func countsEachEventIDOnceWithinABatchAcrossBatchesAndAcrossReopening() async throws {
        let path = directory.file("db.sqlite")
        do {
            let store = try SQLiteBucketStore(path: path)
            let first = try await store.record(
                [
                    event("a", at: "2026-11-14T09:30:00Z"), event("a", at: "2026-11-14T09:30:00Z"),
                    event("b", at: "2026-11-14T09:31:00Z", result: .failure),
                ],
                receivedAtMillis: receivedAt)
            #expect(first.accepted == 2 && first.duplicates == 1 && first.duplicateIndexes.count == 1)
            let second = try await store.record([event("b", at: "2026-11-14T09:31:00Z", result: .failure)], receivedAtMillis: receivedAt)
            #expect(second.accepted == 0 && second.duplicates == 1 && second.duplicateIndexes == [0])
        }
        let reopened = try SQLiteBucketStore(path: path)
        let third = try await reopened.record(
            [event("a", at: "2026-11-14T09:30:00Z"), event("c", at: "2026-11-14T09:32:00Z")], receivedAtMillis: receivedAt)
        #expect(third.accepted == 1 && third.duplicates == 1 && third.duplicateIndexes == [0])
        let counts = try await total(reopened)[0].counts
        #expect(counts.success == 2 && counts.failure == 1 && counts.valid == 3)
    }

    @Test func countsValuesBeyondTheCardinalityCapAsOther() async throws {
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = 3
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"), configuration: configuration)
        let events = (0..<10).map { event("e\($0)", at: "2026-11-14T09:30:00Z", plan: "plan-\($0 % 5)") }
        let outcome = try await store.record(events, receivedAtMillis: receivedAt)
        #expect(outcome.overflowed == ["planID": 4])
        let rows = try await total(store, by: [.planID])
        let admitted = rows.compactMap { $0.key[0] }.filter { $0 != "__other__" }
        #expect(rows.count == 4 && admitted.count == 3 && rows[0].key == ["__other__"] && rows[0].counts.total == 4)
        #expect(rows.map(\.counts.total).reduce(0, +) == 10)
        // Admitted values stay admitted; the next day has room again.
        let rejected = Set((0..<5).map { "plan-\($0)" }).subtracting(admitted).sorted()
        _ = try await store.record(
            [event("x", at: "2026-11-14T10:00:00Z", plan: admitted[0]), event("y", at: "2026-11-15T10:00:00Z", plan: rejected[0])],
            receivedAtMillis: receivedAt)
        let report = try await store.overflow(fromDay: .min, toDay: .max)
        #expect(report.count == 1 && report[0].dimension == "planID" && report[0].events == 4)
        await #expect(try total(store, by: [.planID]).first { $0.key == [rejected[0]] }?.counts.total == 1)
    }

    /// Combinations are capped too: past `seriesCap` series a day, an event counts in its action's
    /// `__other__` series, so each action's total stays exact and no new series row is made for it.
    @Test func countsSeriesBeyondTheSeriesCapInTheirActionsOtherSeries() async throws {
        var configuration = StoreConfiguration.default
        configuration.seriesCap = 3
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path, configuration: configuration)
        let purchases = (0..<10).map { event("p\($0)", at: "2026-11-14T09:30:00Z", plan: "plan-\($0)", result: $0 < 4 ? .failure : .success) }
        let restores = (0..<2).map { event("r\($0)", at: "2026-11-14T09:31:00Z", plan: "plan-\($0)", action: .restore) }
        let outcome = try await store.record(purchases + restores, receivedAtMillis: receivedAt)
        #expect(outcome.overflowed == ["series": 9])
        let byAction = try await total(store, by: [.actionType])
        #expect(byAction.map(\.key) == [["purchase"], ["restore"]] && byAction.map(\.counts.total) == [10, 2])
        #expect(byAction[0].counts.failure == 4, "the failures of overflowed series still count for their action")
        let byPlan = try await total(store, by: [.actionType, .planID])
        #expect(byPlan.filter { $0.key[1] != "__other__" }.count == 3)
        #expect(byPlan.filter { $0.key[1] == "__other__" }.map(\.counts.total).reduce(0, +) == 9)
        let seriesRows = try await DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM series") }
        #expect(seriesRows == 5, "3 admitted and 2 overflow series (one per action), none for the 9 over the cap")
        // The next day has room again.
        _ = try await store.record([event("n", at: "2026-11-15T09:30:00Z", plan: "plan-9")], receivedAtMillis: receivedAt)
        await #expect(try store.overflow(fromDay: .min, toDay: .max).map(\.dimension) == ["series"])
    }

    /// A writer that starts on a day other writers began reads each app's admitted series apart: an app
    /// at its cap stays full, another app keeps the room it has, a new app starts with its whole budget, as
    /// far as the day's total ceiling (counted from the file too) allows.
    @Test func eachAppsSeriesBudgetHoldsAcrossWriters() async throws {
        var configuration = StoreConfiguration.default
        configuration.seriesCap = 3
        configuration.totalSeriesCap = 7
        let path = directory.file("db.sqlite")
        func purchases(_ app: String, plans: Range<Int>, minute: Int) -> [PurchaseEvent] {
            plans.map { event("\(app)-\($0)-\(minute)", at: "2026-11-14T09:3\(minute):00Z", plan: "plan-\($0)", app: app) }
        }
        do {
            let store = try SQLiteBucketStore(path: path, configuration: configuration)
            let first = try await store.record(
                purchases("a", plans: 0..<3, minute: 0) + purchases("b", plans: 0..<1, minute: 0), receivedAtMillis: receivedAt)
            #expect(first.overflowed.isEmpty)
        }
        let store = try SQLiteBucketStore(path: path, configuration: configuration)
        await #expect(try store.record(purchases("a", plans: 0..<4, minute: 1), receivedAtMillis: receivedAt).overflowed == ["series": 1])
        await #expect(try store.record(purchases("b", plans: 0..<4, minute: 1), receivedAtMillis: receivedAt).overflowed == ["series": 1])
        // 4 series from the first writer, 2 more of b: c's first is the seventh, its next two are past the ceiling.
        await #expect(try store.record(purchases("c", plans: 0..<3, minute: 1), receivedAtMillis: receivedAt).overflowed == ["series": 2])
    }

    /// Once a day is full, the writer tells an admitted series from one past the cap by the day's admitted
    /// series it holds (read from the file when it starts): each event of a series past the cap counts as
    /// overflowed, in every batch; a series admitted earlier that day, by this writer or one before it,
    /// counts as itself; a series first seen on another day overflows.
    @Test func aFullDaysDecisionsHoldAcrossBatchesAndWriters() async throws {
        var configuration = StoreConfiguration.default
        configuration.seriesCap = 3
        let path = directory.file("db.sqlite")
        func purchase(_ id: String, plan: String, on day: String = "2026-11-14") -> PurchaseEvent {
            event(id, at: "\(day)T09:30:00Z", plan: plan)
        }
        do {
            let store = try SQLiteBucketStore(path: path, configuration: configuration)
            _ = try await store.record([purchase("d0", plan: "plan-9", on: "2026-11-13")], receivedAtMillis: receivedAt)
            let first = try await store.record(
                ["plan-0", "plan-1", "plan-2", "plan-3", "plan-9"].enumerated().map { purchase("a\($0.offset)", plan: $0.element) },
                receivedAtMillis: receivedAt)
            #expect(first.overflowed == ["series": 2])
            let second = try await store.record(
                [purchase("b0", plan: "plan-3"), purchase("b1", plan: "plan-3"), purchase("b2", plan: "plan-0")], receivedAtMillis: receivedAt)
            #expect(second.overflowed == ["series": 2])
        }
        let store = try SQLiteBucketStore(path: path, configuration: configuration)
        let third = try await store.record(
            [purchase("c0", plan: "plan-1"), purchase("c1", plan: "plan-3"), purchase("c2", plan: "plan-9")], receivedAtMillis: receivedAt)
        #expect(third.overflowed == ["series": 2])
        let byPlan = try await total(store, from: "2026-11-14T00:00:00Z", to: "2026-11-15T00:00:00Z", by: [.planID])
        #expect(byPlan.map(\.key) == [["__other__"], ["plan-0"], ["plan-1"], ["plan-2"]])
        #expect(byPlan.map(\.counts.total) == [6, 2, 2, 1])
        let seriesRows = try await DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM series") }
        #expect(seriesRows == 5, "plan-9 of the day before, the 3 admitted, and the overflow series")
    }

    /// A writer that runs for many days keeps only a few days' worth of ids in memory: past that it
    /// starts over, and the ids it looks up again are the same rows (no series or value twice).
    @Test func idsLookedUpAgainAfterTheCacheStartsOverAreTheSameRows() async throws {
        var configuration = StoreConfiguration.default
        configuration.seriesCap = 3
        configuration.cardinalityCap = 3
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path, configuration: configuration)
        // Twelve days, each with two plans of its own and the recurring plan "every-day": 25 plans, far
        // more than the 4 days × cap of 3 ids the cache keeps.
        for day in 0..<12 {
            let date = RFC3339.format(seconds: seconds("2026-11-01T09:00:00Z") + Int64(day) * 86_400)
            let plans = ["every-day", "day\(day)-a", "day\(day)-b"]
            _ = try await store.record(plans.enumerated().map { event("\(day)-\($0)", at: date, plan: $1) }, receivedAtMillis: receivedAt)
        }
        let byPlan = try await store.counts(
            CountQuery(
                fromSeconds: seconds("2026-11-01T00:00:00Z"), toSeconds: seconds("2026-11-13T00:00:00Z"), groupBy: [.planID]))
        #expect(byPlan.first { $0.key == ["every-day"] }?.counts.total == 12)
        #expect(byPlan.count == 25 && byPlan.allSatisfy { $0.key != ["__other__"] })
        let (seriesRows, planValues) = try await DatabaseQueue(path: path).read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM series")!,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM dimension_value WHERE value LIKE 'day%' OR value = 'every-day'")!
            )
        }
        #expect(seriesRows == 25 && planValues == 25)
    }

    /// A query asked again reads the catalog as it is now: after events of a new product, the grouping (and
    /// an app's narrowed table) made before, which the catalog keeps for queries alike, is not the one
    /// used, and the new series count.
    @Test func whatTheCatalogKeepsForQueriesAlikeIsNotUsedOnceSeriesAreAdded() async throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        _ = try await store.record([event("a", at: "2026-11-14T09:30:00Z")], receivedAtMillis: receivedAt)
        #expect(try await total(store, by: [.productID]).map(\.key) == [["coins_100"]])
        #expect(try await total(store, by: [.productID]).map(\.key) == [["coins_100"]], "the same answer from the grouping kept")
        _ = try await store.record(
            [event("b", at: "2026-11-14T09:31:00Z", product: "coins_500"), event("c", at: "2026-11-14T09:32:00Z", plan: "coins-new")],
            receivedAtMillis: receivedAt)
        let byProduct = try await total(store, by: [.productID])
        #expect(byProduct.map(\.key) == [["coins_100"], ["coins_500"]] && byProduct.map(\.counts.total) == [2, 1], "\(byProduct)")
        #expect(try await total(store).first?.counts.total == 3)
        // An app's view, which keeps its narrowed tables and its series with the catalog, alike.
        let view = AppScopedStore(store, app: "com.example.coins")
        let query = CountQuery(fromSeconds: seconds("2026-11-01T00:00:00Z"), toSeconds: seconds("2026-12-01T00:00:00Z"), groupBy: [.productID])
        _ = try await store.record([event("d", at: "2026-11-14T09:33:00Z", app: "com.example.coins")], receivedAtMillis: receivedAt)
        #expect(try await view.counts(query).map(\.key) == [["coins_100"]])
        #expect(try await view.counts(query).map(\.key) == [["coins_100"]])
        _ = try await store.record(
            [event("e", at: "2026-11-14T09:34:00Z", product: "coins_900", app: "com.example.coins")], receivedAtMillis: receivedAt)
        #expect(try await view.counts(query).map(\.key) == [["coins_100"], ["coins_900"]])
    }

    /// What a catalog keeps for queries alike follows the series added: after each of many commits of new
    /// series (most of them of values met before, some with new products), every query of a store that has
    /// answered before gives what a store opened afresh on the same file gives, row for row and in order.
    @Test func aStoreThatAnsweredBeforeAnswersAsOneOpenedAfreshAfterEachCommit() async throws {
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let window = (from: seconds("2026-11-01T00:00:00Z"), to: seconds("2026-12-01T00:00:00Z"))
        let queries = [
            CountQuery(fromSeconds: window.from, toSeconds: window.to),
            CountQuery(fromSeconds: window.from, toSeconds: window.to, groupBy: [.productID]),
            CountQuery(fromSeconds: window.from, toSeconds: window.to, groupBy: [.app, .planID, .appVersion]),
            CountQuery(fromSeconds: window.from, toSeconds: window.to, step: TimeStep(seconds: 3_600), groupBy: [.actionType, .app]),
            CountQuery(
                fromSeconds: window.from, toSeconds: window.to, groupBy: [.planID],
                filters: [.productID: ["p1", "p4"], .resultType: ["failure", "success"]]),
            CountQuery(fromSeconds: window.from, toSeconds: window.to, groupBy: [.productID], filters: [.app: [nil, "a2"]]),
            CountQuery(fromSeconds: window.from, toSeconds: window.to, groupBy: [.productID], requiredValues: [.appVersion]),
        ]
        var random = SystemRandomNumberGenerator()
        for round in 0..<12 {
            let events = (0..<25).map { index in
                event(
                    "\(round)-\(index)", at: "2026-11-14T\(10 + round % 10):\(10 + index):00Z",
                    product: "p\(Int.random(in: 0..<(3 + round / 4), using: &random))",
                    plan: Bool.random(using: &random) ? nil : "plan-\(Int.random(in: 0..<4, using: &random))",
                    action: [.purchase, .restore, .retry][Int.random(in: 0..<3, using: &random)],
                    result: [.success, .failure, .cancel][Int.random(in: 0..<3, using: &random)],
                    version: Bool.random(using: &random) ? nil : "4.11.\(Int.random(in: 0..<3, using: &random))",
                    app: ["a1", "a2", nil][Int.random(in: 0..<3, using: &random)])
            }
            _ = try await store.record(events, receivedAtMillis: receivedAt)
            let afresh = try SQLiteBucketStore(path: path)
            for query in queries {
                let answer = try await store.counts(query)
                #expect(answer == (try await afresh.counts(query)), "round \(round), \(query.groupBy) \(query.filters)")
            }
        }
    }

    @Test func refusesAForeignSQLiteDatabaseAndANonDatabaseFile() throws {
        let foreign = directory.file("foreign.sqlite")
        let queue = try DatabaseQueue(path: foreign)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        let error = #expect(throws: StorageError.self) { try SQLiteBucketStore(path: foreign) }
        #expect(error?.description.contains("is not a purchase-sli database") == true)
        #expect(error?.description.contains("notes") == true)

        let text = directory.file("notes.txt")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: text))
        let notDatabase = #expect(throws: StorageError.self) { try SQLiteBucketStore(path: text) }
        #expect(notDatabase?.description.contains("not a purchase-sli database") == true)
    }

    @Test func refusesADatabaseFromANewerVersion() throws {
        let path = directory.file("db.sqlite")
        _ = try SQLiteBucketStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-future')") }
        let error = #expect(throws: StorageError.self) { try SQLiteBucketStore(path: path) }
        #expect(error?.description.contains("newer purchase-sli") == true)
        #expect(error?.description.contains("v9-future") == true)
    }

    /// A run killed while it created the database, after GRDB's migrations table and before the first
    /// migration committed, leaves a file that is still a new database, not a foreign one.
    @Test func aCreationKilledBeforeTheFirstMigrationIsOpenedAsNew() async throws {
        let path = directory.file("interrupted.sqlite")
        try await DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)") }
        let store = try SQLiteBucketStore(path: path)
        await #expect(try store.record([event("a", at: "2026-11-14T09:30:00Z")], receivedAtMillis: receivedAt).accepted == 1)
        // A file with other tables, or with migrations recorded but no application id, is still refused.
        let foreign = directory.file("foreign.sqlite")
        try await DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        #expect(throws: StorageError.self) { try SQLiteBucketStore(path: foreign) }
    }

    @Test func migratesAnEmptyFileAndReopensWithoutChange() throws {
        let path = directory.file("db.sqlite")
        _ = try SQLiteBucketStore(path: path)
        let queue = try DatabaseQueue(path: path)
        let migrations = try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(
            migrations == [
                "v1-buckets", "v2-rollup-pending", "v3-deferred-writes", "v4-product-prices", "v5-store-records", "v6-client-reports-by-minute",
                "v7-client-drops", "v8-app-dimension", "v9-grants", "v10-make-whole", "v11-rollout-actions", "v12-maintenance",
                "v13-report-settlement", "v14-grant-fingerprints", "v15-late-arrivals", "v16-family-shared", "v17-incidents",
                "v18-maintenance-as-postgres", "v19-incidents-as-postgres", "v20-caps-per-app", "v21-bucket-changes",
            ])
        let applicationID = try queue.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") }
        #expect(applicationID == 0x5053_4C49)
        _ = try SQLiteBucketStore(path: path)
    }

}
