import Foundation
import GRDB
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@Suite struct SQLiteBucketStoreTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func total(_ store: SQLiteBucketStore, from: String = "2026-11-01T00:00:00Z", to: String = "2026-12-01T00:00:00Z",
                       by: [EventDimension] = [], step: TimeStep? = nil) throws -> [CountRow] {
        try store.counts(CountQuery(fromSeconds: seconds(from), toSeconds: seconds(to), step: step, groupBy: by))
    }

    @Test func countsEachEventIDOnceWithinABatchAcrossBatchesAndAcrossReopening() throws {
        let path = directory.file("db.sqlite")
        do {
            let store = try SQLiteBucketStore(path: path)
            let first = try store.record(
                [event("a", at: "2026-11-14T09:30:00Z"), event("a", at: "2026-11-14T09:30:00Z"),
                 event("b", at: "2026-11-14T09:31:00Z", result: .failure)],
                receivedAtMillis: receivedAt)
            #expect(first.accepted == 2 && first.duplicates == 1 && first.duplicateIndexes.count == 1)
            let second = try store.record([event("b", at: "2026-11-14T09:31:00Z", result: .failure)], receivedAtMillis: receivedAt)
            #expect(second.accepted == 0 && second.duplicates == 1 && second.duplicateIndexes == [0])
        }
        let reopened = try SQLiteBucketStore(path: path)
        let third = try reopened.record([event("a", at: "2026-11-14T09:30:00Z"), event("c", at: "2026-11-14T09:32:00Z")], receivedAtMillis: receivedAt)
        #expect(third.accepted == 1 && third.duplicates == 1 && third.duplicateIndexes == [0])
        let counts = try total(reopened)[0].counts
        #expect(counts.success == 2 && counts.failure == 1 && counts.valid == 3)
    }

    @Test func queriesAnsweredTogetherEqualQueriesAnsweredAlone() throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let start = seconds("2026-11-14T08:00:00Z")
        let products = ["coins_100", "coins_500", "premium"], versions = ["4.10.2", "4.11.0"]
        let events = (0..<600).map { (index: Int) -> PurchaseEvent in
            let plan: String? = index % 4 == 0 ? nil : "plan-\(index % 2)"
            let result: ResultType = index % 7 == 0 ? .failure : .success
            return event("e\(index)", at: RFC3339.format(seconds: start + Int64(index) * 37), product: products[index % 3],
                         plan: plan, result: result, version: versions[index % 2])
        }
        _ = try store.record(events, receivedAtMillis: receivedAt)
        let groupings: [[EventDimension]] = [[.actionType], [.actionType, .productID], [.planID], [.appVersion, .resultType]]
        let queries = groupings.map {
            CountQuery(fromSeconds: seconds("2026-11-14T07:30:00Z"), toSeconds: seconds("2026-11-14T14:30:00Z"),
                       step: TimeStep(seconds: 60), groupBy: $0, filters: [.actionType: ["purchase"]])
        }
        let together = try store.counts(queries)
        #expect(together.count == 4)
        for (query, rows) in zip(queries, together) {
            #expect(rows == (try store.counts(query)), "\(query.groupBy)")
            #expect(rows.reduce(0) { $0 + $1.counts.total } == 600)
        }
        // As dense series: the same counts, per group and minute.
        let series = try store.series(Array(queries.prefix(3)))
        for (query, dense) in zip(queries, series) {
            let fromRows = CountSeries(rows: try store.counts(query), startSeconds: query.fromSeconds, stepSeconds: 60,
                                       stepCount: 420)
            #expect(Dictionary(uniqueKeysWithValues: zip(dense.keys, dense.counts))
                    == Dictionary(uniqueKeysWithValues: zip(fromRows.keys, fromRows.counts)), "\(query.groupBy)")
            #expect(dense.keys == dense.keys.sorted { $0.lexicographicallyPrecedes($1) { ($0 ?? "") < ($1 ?? "") } })
        }
        #expect(throws: (any Error).self) { try store.series([queries[3]]) }  // grouped by resultType
        // Different ranges are answered one by one.
        var shorter = queries[0]
        shorter.toSeconds = seconds("2026-11-14T09:00:00Z")
        let mixed = try store.counts([queries[0], shorter])
        #expect(mixed[1] == (try store.counts(shorter)) && mixed[1].count < mixed[0].count)
    }

    @Test func putsLateEventsInTheMinuteOfTheirEventTime() throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        _ = try store.record([event("new", at: "2026-11-14T10:00:10Z")], receivedAtMillis: receivedAt)
        _ = try store.record([event("late", at: "2026-11-14T09:05:59Z", result: .failure)], receivedAtMillis: receivedAt)
        let rows = try total(store, from: "2026-11-14T09:00:00Z", to: "2026-11-14T10:05:00Z", step: TimeStep(seconds: 60))
        #expect(rows.map(\.timeSeconds) == [seconds("2026-11-14T09:05:00Z"), seconds("2026-11-14T10:00:00Z")])
        #expect(rows[0].counts.failure == 1 && rows[1].counts.success == 1)
    }

    @Test func keepsMinuteHourAndDayBucketsConsistent() throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        var events: [PurchaseEvent] = []
        for index in 0..<500 {
            let minute = index * 7 % 2880
            let time = RFC3339.format(seconds: seconds("2026-11-14T00:00:00Z") + Int64(minute * 60 + index % 60))
            events.append(event("e\(index)", at: time, product: ["coins_100", "coins_500"][index % 2],
                                result: [.start, .success, .failure, .alreadyGranted, .cancel][index % 5],
                                status: index % 5 == 3 ? 409 : nil))
        }
        _ = try store.record(events, receivedAtMillis: receivedAt)
        let from = "2026-11-14T00:00:00Z", to = "2026-11-16T00:00:00Z"
        let byMinute = try total(store, from: from, to: to, by: [.productID], step: TimeStep(seconds: 60))
        let byHour = try total(store, from: from, to: to, by: [.productID], step: TimeStep(seconds: 3600))
        let byDay = try total(store, from: from, to: to, by: [.productID], step: TimeStep(seconds: 86_400))
        for product in ["coins_100", "coins_500"] {
            func sum(_ rows: [CountRow]) -> OutcomeCounts {
                rows.filter { $0.key == [product] }.reduce(into: OutcomeCounts()) { $0 += $1.counts }
            }
            #expect(sum(byMinute) == sum(byHour))
            #expect(sum(byHour) == sum(byDay))
            #expect(sum(byDay).total == 250)
        }
        // An unaligned range reads the edges from finer buckets.
        let edge = try total(store, from: "2026-11-14T00:07:00Z", to: "2026-11-15T13:13:00Z")
        let expected = events.filter {
            $0.timestampMillis >= RFC3339.parseMillis("2026-11-14T00:07:00Z")! && $0.timestampMillis < RFC3339.parseMillis("2026-11-15T13:13:00Z")!
        }.count
        #expect(edge[0].counts.total == Int64(expected))
    }

    @Test func countsValuesBeyondTheCardinalityCapAsOther() throws {
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = 3
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"), configuration: configuration)
        let events = (0..<10).map { event("e\($0)", at: "2026-11-14T09:30:00Z", plan: "plan-\($0 % 5)") }
        let outcome = try store.record(events, receivedAtMillis: receivedAt)
        #expect(outcome.overflowed == ["planID": 4])
        let rows = try total(store, by: [.planID])
        let admitted = rows.compactMap { $0.key[0] }.filter { $0 != "__other__" }
        #expect(rows.count == 4 && admitted.count == 3 && rows[0].key == ["__other__"] && rows[0].counts.total == 4)
        #expect(rows.map(\.counts.total).reduce(0, +) == 10)
        // Admitted values stay admitted; the next day has room again.
        let rejected = Set((0..<5).map { "plan-\($0)" }).subtracting(admitted).sorted()
        _ = try store.record([event("x", at: "2026-11-14T10:00:00Z", plan: admitted[0]), event("y", at: "2026-11-15T10:00:00Z", plan: rejected[0])],
                             receivedAtMillis: receivedAt)
        let report = try store.overflowReport()
        #expect(report.count == 1 && report[0].dimension == "planID" && report[0].events == 4)
        #expect(try total(store, by: [.planID]).first { $0.key == [rejected[0]] }?.counts.total == 1)
    }

    /// Combinations are capped too: past `seriesCap` series a day, an event counts in its action's
    /// `__other__` series, so each action's total stays exact and no new series row is made for it.
    @Test func countsSeriesBeyondTheSeriesCapInTheirActionsOtherSeries() throws {
        var configuration = StoreConfiguration.default
        configuration.seriesCap = 3
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path, configuration: configuration)
        let purchases = (0..<10).map { event("p\($0)", at: "2026-11-14T09:30:00Z", plan: "plan-\($0)", result: $0 < 4 ? .failure : .success) }
        let restores = (0..<2).map { event("r\($0)", at: "2026-11-14T09:31:00Z", plan: "plan-\($0)", action: .restore) }
        let outcome = try store.record(purchases + restores, receivedAtMillis: receivedAt)
        #expect(outcome.overflowed == ["series": 9])
        let byAction = try total(store, by: [.actionType])
        #expect(byAction.map(\.key) == [["purchase"], ["restore"]] && byAction.map(\.counts.total) == [10, 2])
        #expect(byAction[0].counts.failure == 4, "the failures of overflowed series still count for their action")
        let byPlan = try total(store, by: [.actionType, .planID])
        #expect(byPlan.filter { $0.key[1] != "__other__" }.count == 3)
        #expect(byPlan.filter { $0.key[1] == "__other__" }.map(\.counts.total).reduce(0, +) == 9)
        let seriesRows = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM series") }
        #expect(seriesRows == 5, "3 admitted and 2 overflow series (one per action), none for the 9 over the cap")
        // The next day has room again.
        _ = try store.record([event("n", at: "2026-11-15T09:30:00Z", plan: "plan-9")], receivedAtMillis: receivedAt)
        #expect(try store.overflowReport().map(\.dimension) == ["series"])
    }

    /// A writer that runs for many days keeps only a few days' worth of ids in memory: past that it
    /// starts over, and the ids it looks up again are the same rows (no series or value twice).
    @Test func idsLookedUpAgainAfterTheCacheStartsOverAreTheSameRows() throws {
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
            _ = try store.record(plans.enumerated().map { event("\(day)-\($0)", at: date, plan: $1) }, receivedAtMillis: receivedAt)
        }
        let byPlan = try store.counts(CountQuery(
            fromSeconds: seconds("2026-11-01T00:00:00Z"), toSeconds: seconds("2026-11-13T00:00:00Z"), groupBy: [.planID]))
        #expect(byPlan.first { $0.key == ["every-day"] }?.counts.total == 12)
        #expect(byPlan.count == 25 && byPlan.allSatisfy { $0.key != ["__other__"] })
        let (seriesRows, planValues) = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM series")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM dimension_value WHERE value LIKE 'day%' OR value = 'every-day'")!)
        }
        #expect(seriesRows == 25 && planValues == 25)
    }

    @Test func groupsAndFilters() throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        _ = try store.record([
            event("1", at: "2026-11-14T09:30:00Z", product: "coins_100", result: .success, version: "4.11.0"),
            event("2", at: "2026-11-14T09:30:00Z", product: "coins_100", result: .failure, status: 503, version: "4.12.0"),
            event("3", at: "2026-11-14T09:30:00Z", product: "coins_500", result: .alreadyGranted, status: 409, version: nil),
            event("4", at: "2026-11-14T09:30:00Z", product: "coins_500", action: .retry, result: .failure, status: 409, version: "4.12.0"),
        ], receivedAtMillis: receivedAt)
        let byVersion = try store.counts(CountQuery(
            fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"), groupBy: [.appVersion]))
        #expect(byVersion.map(\.key) == [[nil], ["4.11.0"], ["4.12.0"]])
        #expect(byVersion[2].counts.failure == 2 && byVersion[2].counts.serverErrors == 1 && byVersion[2].counts.conflicts == 1)
        #expect(byVersion[0].counts.conflicts == 1 && byVersion[0].counts.successRate == 1)
        let filtered = try store.counts(CountQuery(
            fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"), groupBy: [.resultType],
            filters: [.actionType: ["purchase"], .appVersion: ["4.12.0", nil]]))
        #expect(filtered.map(\.key) == [["alreadyGranted"], ["failure"]])
        #expect(filtered.map(\.counts.total) == [1, 1])
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
    @Test func aCreationKilledBeforeTheFirstMigrationIsOpenedAsNew() throws {
        let path = directory.file("interrupted.sqlite")
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)") }
        let store = try SQLiteBucketStore(path: path)
        #expect(try store.record([event("a", at: "2026-11-14T09:30:00Z")], receivedAtMillis: receivedAt).accepted == 1)
        // A file with other tables, or with migrations recorded but no application id, is still refused.
        let foreign = directory.file("foreign.sqlite")
        try DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        #expect(throws: StorageError.self) { try SQLiteBucketStore(path: foreign) }
    }

    @Test func migratesAnEmptyFileAndReopensWithoutChange() throws {
        let path = directory.file("db.sqlite")
        _ = try SQLiteBucketStore(path: path)
        let queue = try DatabaseQueue(path: path)
        let migrations = try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations == ["v1-buckets", "v2-rollup-pending", "v3-deferred-writes", "v4-product-prices", "v5-store-records", "v6-client-reports-by-minute"])
        let applicationID = try queue.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") }
        #expect(applicationID == 0x5053_4C49)
        _ = try SQLiteBucketStore(path: path)
    }

    @Test func forgetsEventIDsOnlyAfterTheDedupHorizon() throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let old = event("old", at: "2026-10-01T12:00:00Z")
        _ = try store.record([old], receivedAtMillis: receivedAt)
        try store.prune(nowMillis: receivedAt + 7 * 86_400_000)
        #expect(try store.record([old], receivedAtMillis: receivedAt).duplicates == 1)
        try store.prune(nowMillis: receivedAt + 9 * 86_400_000)
        #expect(try store.record([old], receivedAtMillis: receivedAt + 9 * 86_400_000).accepted == 1)
    }

    @Test func dropsMinuteBucketsPastTheirRetentionButKeepsRollups() throws {
        var configuration = StoreConfiguration.default
        configuration.minuteRetentionSeconds = 86_400
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"), configuration: configuration)
        _ = try store.record([event("a", at: "2026-11-10T09:30:00Z"), event("b", at: "2026-11-14T09:30:00Z")], receivedAtMillis: receivedAt)
        try store.prune(nowMillis: receivedAt)
        let minutes = try total(store, from: "2026-11-10T09:00:00Z", to: "2026-11-10T10:00:00Z", step: TimeStep(seconds: 60))
        #expect(minutes.isEmpty)
        let hours = try total(store, from: "2026-11-10T09:00:00Z", to: "2026-11-10T10:00:00Z", step: TimeStep(seconds: 3600))
        #expect(hours.first?.counts.success == 1)
    }

    @Test func countsErrorDescriptionsByGroupMostFirst() throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        var events: [PurchaseEvent] = []
        for index in 0..<6 {
            events.append(event("t\(index)", at: "2026-11-14T09:3\(index):00Z", product: "coins_100", result: .failure, error: "timeout"))
        }
        events.append(event("c1", at: "2026-11-14T09:31:00Z", product: "coins_500", result: .cancel, error: "payment cancelled"))
        events.append(event("c2", at: "2026-11-14T10:31:00Z", product: "coins_500", result: .cancel, error: "payment cancelled"))
        events.append(event("r1", at: "2026-11-14T10:32:00Z", product: "coins_100", result: .failure, error: "receipt missing"))
        events.append(event("ok", at: "2026-11-14T10:33:00Z", product: "coins_100", result: .success))
        _ = try store.record(events, receivedAtMillis: receivedAt)
        let range = (seconds("2026-11-14T00:00:00Z"), seconds("2026-11-15T00:00:00Z"))
        let byError = try store.errorCounts(CountQuery(fromSeconds: range.0, toSeconds: range.1, groupBy: [.errorDescription]))
        #expect(byError.map(\.key) == [["timeout"], ["payment cancelled"], ["receipt missing"]])
        #expect(byError.map(\.events) == [6, 2, 1])
        let hourly = try store.errorCounts(CountQuery(
            fromSeconds: range.0, toSeconds: range.1, step: TimeStep(seconds: 3600), groupBy: [.productID, .errorDescription],
            filters: [.productID: ["coins_500", "coins_100"]]))
        #expect(hourly.map(\.timeSeconds) == [seconds("2026-11-14T09:00:00Z"), seconds("2026-11-14T09:00:00Z"),
                                              seconds("2026-11-14T10:00:00Z"), seconds("2026-11-14T10:00:00Z")])
        #expect(hourly[0].key == ["coins_100", "timeout"] && hourly[0].events == 6)
        let onlyCancels = try store.errorCounts(CountQuery(
            fromSeconds: range.0, toSeconds: range.1, groupBy: [.productID], filters: [.errorDescription: ["payment cancelled"]]))
        #expect(onlyCancels.map(\.key) == [["coins_500"]] && onlyCancels[0].events == 2)
        let byResult = try store.errorCounts(CountQuery(fromSeconds: range.0, toSeconds: range.1, groupBy: [.resultType, .errorDescription]))
        #expect(byResult.map(\.key) == [["failure", "timeout"], ["cancel", "payment cancelled"], ["failure", "receipt missing"]])
        let failuresOnly = try store.errorCounts(CountQuery(
            fromSeconds: range.0, toSeconds: range.1, groupBy: [.errorDescription], filters: [.resultType: ["failure"]]))
        #expect(failuresOnly.map(\.key) == [["timeout"], ["receipt missing"]])
    }
}

extension SQLiteBucketStoreTests {
    /// The latest price events carried is kept per product and plan, by event time: a late event with
    /// an older price does not replace a newer one, within a batch or across batches and reopening.
    @Test func keepsTheLatestPriceOfEachProductAndPlan() throws {
        let path = directory.file("prices.sqlite")
        func priced(_ id: String, _ time: String, _ product: String, _ plan: String?, _ price: Double?, _ currency: String? = "USD") -> PurchaseEvent {
            var priced = event(id, at: time, product: product)
            (priced.planID, priced.price, priced.currency) = (plan, price, currency)
            return priced
        }
        do {
            let store = try SQLiteBucketStore(path: path)
            _ = try store.record([
                priced("a", "2026-11-14T09:30:00Z", "pro", "monthly", 9.99), priced("b", "2026-11-14T09:00:00Z", "pro", "monthly", 8.99),
                priced("c", "2026-11-14T09:00:00Z", "coins", nil, 0.99), priced("d", "2026-11-14T10:00:00Z", "coins", nil, nil),
            ], receivedAtMillis: receivedAt)
        }
        let store = try SQLiteBucketStore(path: path)
        _ = try store.record([priced("e", "2026-11-14T08:00:00Z", "pro", "monthly", 7.99),
                              priced("f", "2026-11-14T11:00:00Z", "coins", nil, 1.09, "EUR")], receivedAtMillis: receivedAt)
        let prices = try store.prices().map { "\($0.productID) \($0.planID ?? "-") \($0.price) \($0.currency)" }
        #expect(prices == ["coins - 1.09 EUR", "pro monthly 9.99 USD"])
    }
}
