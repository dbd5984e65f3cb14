import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// One app's view of each backend reads what the whole store answers for that app, and nothing of the
/// other apps.
@Suite("One app's view of a store")
struct AppScopedStoreContractTests {
    @Test("the view counts what the store counts filtered by app, for every grouping, step and filter", arguments: Backend.all)
    func countsLikeTheFilter(_ backend: Backend) async throws {
        let store = try await backend.store()
        _ = try await store.record(mixedEvents(count: 2000), receivedAtMillis: receivedAt)
        let app = "com.example.premium"
        let view = AppScopedStore(store, app: app)
        let from = seconds("2026-11-14T00:00:00Z")
        let to = seconds("2026-11-16T00:00:00Z")
        for step in [nil, 3600, 86_400].map({ $0.map { TimeStep(seconds: Int64($0)) } }) {
            for groupBy: [EventDimension] in [[], [.actionType, .productID], [.appVersion, .resultType], [.app]] {
                for filter: [EventDimension: Set<String?>] in [[:], [.actionType: ["purchase"]], [.app: ["com.example.coins"]]] {
                    var query = CountQuery(fromSeconds: from, toSeconds: to, step: step, groupBy: groupBy, filters: filter)
                    let seen = try await view.counts(query)
                    var filtered = query
                    filtered.filters[.app] = filter[.app].map { $0.intersection([app]) } ?? [app]
                    await #expect(seen == (try store.counts(filtered)), "\(query)")
                    query.groupBy = groupBy.filter { $0 != .resultType } + [.errorDescription]
                    filtered.groupBy = query.groupBy
                    await #expect(try view.errorCounts(query) == (try store.errorCounts(filtered)), "\(query)")
                }
            }
        }
        let everyApp = try await store.counts(CountQuery(fromSeconds: from, toSeconds: to)).first?.counts.valid ?? 0
        let own = try await view.counts(CountQuery(fromSeconds: from, toSeconds: to)).first?.counts.valid ?? 0
        #expect(own > 0 && own < everyApp)
        await #expect(try view.series([.app]).allSatisfy { $0.values == [app] })
    }

    @Test("past the series cap each app's totals stay exact: overflow series keep the action and the app", arguments: Backend.all)
    func exactPastTheSeriesCap(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.seriesCap = 60
        let store = try await backend.store(configuration)
        let events = mixedEvents(count: 3000)
        let outcome = try await store.record(events, receivedAtMillis: receivedAt)
        #expect((outcome.overflowed["series"] ?? 0) > 0)
        for app in ["com.example.coins", "com.example.premium"] {
            var expected: [String: OutcomeCounts] = [:]
            for event in events where event.app == app {
                expected[event.actionType.rawValue, default: OutcomeCounts()].add(event.resultType, statusCode: event.statusCode)
            }
            let rows = try await AppScopedStore(store, app: app).counts(
                CountQuery(fromSeconds: seconds("2026-11-01T00:00:00Z"), toSeconds: seconds("2026-12-01T00:00:00Z"), groupBy: [.actionType]))
            #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0.key[0] ?? "", $0.counts) }) == expected, "\(app)")
        }
    }

    @Test("each app has its own series budget: one app's catalog past the cap pushes no other app's series out", arguments: Backend.all)
    func seriesCapPerApp(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.seriesCap = 3
        let store = try await backend.store(configuration)
        func purchases(_ app: String?, plans: Range<Int>, at time: String = "2026-11-14T09:30:00Z") -> [PurchaseEvent] {
            plans.map { event("\(app ?? "none")-\($0)-\(time)", at: time, plan: "plan-\($0)", app: app) }
        }
        // The wide app fills its budget first; the others still have theirs, events without an app too.
        await #expect(
            try store.record(purchases("com.example.wide", plans: 0..<10), receivedAtMillis: receivedAt).overflowedByApp
                == ["com.example.wide": ["series": 7]])
        await #expect(try store.record(purchases("com.example.small", plans: 0..<3), receivedAtMillis: receivedAt).overflowed.isEmpty)
        await #expect(try store.record(purchases(nil, plans: 5..<8), receivedAtMillis: receivedAt).overflowed.isEmpty)
        // Past its own budget, the small app overflows into its own overflow series.
        await #expect(
            try store.record(purchases("com.example.small", plans: 3..<5, at: "2026-11-14T09:31:00Z"), receivedAtMillis: receivedAt).overflowed
                == ["series": 2])
        let small = try await AppScopedStore(store, app: "com.example.small").counts(
            CountQuery(fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"), groupBy: [.planID]))
        #expect(small.map(\.key) == [["__other__"], ["plan-0"], ["plan-1"], ["plan-2"]] && small.map(\.counts.total) == [2, 1, 1, 1])
        let wide = try await AppScopedStore(store, app: "com.example.wide").counts(
            CountQuery(fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"), groupBy: [.planID]))
        #expect(wide.map(\.counts.total) == [7, 1, 1, 1])
    }

    @Test(
        "each app has its own value budget: one app's plans past the cardinality cap push no other app's out, and its overflow is named",
        arguments: Backend.all)
    func valueCapPerApp(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = 3
        configuration.totalCardinalityCap = 10
        let store = try await backend.store(configuration)
        func record(_ app: String?, plans: Range<Int>, failing: Bool = false) async throws -> [String: [String: Int]] {
            let events = plans.map { plan in
                event(
                    "\(app ?? "none")-\(plan)", at: "2026-11-14T09:30:00Z", plan: "\(app ?? "none")-plan-\(plan)",
                    result: failing ? .failure : .success,
                    error: failing ? "error \(plan)" : nil, app: app)
            }
            return try await store.record(events, receivedAtMillis: receivedAt).overflowedByApp
        }
        // The wide app fills its own budget of plans and of error descriptions; the next app and events
        // without an app still have theirs.
        await #expect(try record("a", plans: 0..<5, failing: true) == ["a": ["planID": 2, "errorDescription": 2]])
        await #expect(try record("b", plans: 0..<3) == [:])
        await #expect(try record(nil, plans: 0..<3) == [:])
        // Past the day's total ceiling (10 plans of every app) a new app admits what is left, one plan.
        await #expect(try record("c", plans: 0..<3) == ["c": ["planID": 2]])
        // The day's apps are capped too: a fourth app counts as __other__, in a budget of its own.
        await #expect(try record("d", plans: 0..<1) == ["": ["app": 1], "__other__": ["planID": 1]])
        let day = CountQuery(fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"), groupBy: [.planID])
        let b = try await AppScopedStore(store, app: "b").counts(day)
        #expect(b.map(\.key) == [["b-plan-0"], ["b-plan-1"], ["b-plan-2"]], "none of b's plans pushed out by a's")
        let a = try await AppScopedStore(store, app: "a").counts(day)
        #expect(a.map(\.key) == [["__other__"], ["a-plan-0"], ["a-plan-1"], ["a-plan-2"]] && a.map(\.counts.total) == [2, 1, 1, 1])
        let errors = try await AppScopedStore(store, app: "a").errorCounts(
            CountQuery(fromSeconds: day.fromSeconds, toSeconds: day.toSeconds, groupBy: [.errorDescription]))
        #expect(errors.map(\.events).reduce(0, +) == 5 && errors.filter { $0.key == ["__other__"] }.map(\.events) == [2])
        // What was turned away is kept per day, dimension and app, in one order on every backend; an app's
        // view sees its own.
        let day14 = seconds("2026-11-14T00:00:00Z") / 86_400
        await #expect(
            try store.overflow(fromDay: day14, toDay: day14 + 1).map { "\($0.day - day14) \($0.dimension) \($0.app) \($0.events)" } == [
                "0 app  1", "0 errorDescription a 2", "0 planID __other__ 1", "0 planID a 2", "0 planID c 2",
            ])
        await #expect(try store.overflow(fromDay: day14 + 1, toDay: day14 + 30).isEmpty)
        // The app past the day's apps lost its name: each app's view counts it, as it may be its own.
        await #expect(
            try AppScopedStore(store, app: "a").overflow(fromDay: day14, toDay: day14 + 1).map { "\($0.dimension) \($0.app) \($0.events)" } == [
                "app  1", "errorDescription a 2", "planID a 2",
            ])
    }

    @Test(
        "an app the configuration names has caps of its own, counts as itself past the day's apps and is not refused by the totals",
        arguments: Backend.all)
    func capsOfNamedApps(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = 2
        configuration.totalCardinalityCap = 4
        configuration.seriesCap = 3
        configuration.totalSeriesCap = 4
        configuration.appCaps = ["big": AppCaps(seriesCap: 6, cardinalityCap: 5)]
        let store = try await backend.store(configuration)
        func record(_ app: String, plans: Range<Int>) async throws -> [String: [String: Int]] {
            let events = plans.map { event("\(app)-\($0)", at: "2026-11-14T09:30:00Z", plan: "\(app)-plan-\($0)", app: app) }
            return try await store.record(events, receivedAtMillis: receivedAt).overflowedByApp
        }
        // Two apps fill the day's apps, the day's plans (four in all) and the day's series (four).
        await #expect(try record("x", plans: 0..<2) == [:])
        await #expect(try record("y", plans: 0..<2) == [:])
        // The named app still counts as itself, and admits five plans of its own (six series: five plans
        // and its __other__ plan), past every total.
        await #expect(try record("big", plans: 0..<8) == ["big": ["planID": 3]])
        // An app it does not name counts as __other__, with nothing left in the totals.
        await #expect(try record("z", plans: 0..<1) == ["": ["app": 1], "__other__": ["planID": 1, "series": 1]])
        let day = CountQuery(fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"), groupBy: [.planID])
        let big = try await AppScopedStore(store, app: "big").counts(day)
        #expect(big.map(\.key) == [["__other__"]] + (0..<5).map { ["big-plan-\($0)"] } && big.map(\.counts.total) == [3, 1, 1, 1, 1, 1])
        // Its caps bound it: past six series a day (new app versions, within its five values), its series
        // overflow as any app's.
        let later = (5..<8).map {
            event("big-late-\($0)", at: "2026-11-14T09:40:00Z", plan: "big-plan-\($0 - 5)", version: "9.\($0)", app: "big")
        }
        await #expect(try store.record(later, receivedAtMillis: receivedAt).overflowedByApp == ["big": ["series": 3]])
    }

    @Test("past the day's total ceiling of series no app admits more: invented apps cannot multiply the budget", arguments: Backend.all)
    func totalSeriesCeiling(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.seriesCap = 3
        configuration.totalSeriesCap = 5
        let store = try await backend.store(configuration)
        let events = ["a", "b", "c"].flatMap { (app: String) in
            (0..<3).map { event("\(app)\($0)", at: "2026-11-14T09:30:00Z", plan: "plan-\($0)", app: app) }
        }
        await #expect(try store.record(events, receivedAtMillis: receivedAt).overflowed == ["series": 4])
        let byApp = try await store.counts(
            CountQuery(fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"), groupBy: [.app, .planID]))
        #expect(byApp.filter { $0.key[1] != "__other__" }.count == 5)
        #expect(byApp.map(\.counts.total).reduce(0, +) == 9, "every event counted")
        #expect(byApp.filter { $0.key[1] == "__other__" }.map { "\($0.key[0] ?? "-") \($0.counts.total)" } == ["b 1", "c 3"])
        // A series admitted before the ceiling still counts as itself; the next day has room again.
        await #expect(
            try store.record([event("a0-again", at: "2026-11-14T09:40:00Z", plan: "plan-0", app: "a")], receivedAtMillis: receivedAt).overflowed
                .isEmpty)
        await #expect(
            try store.record([event("c-next", at: "2026-11-15T09:30:00Z", plan: "plan-0", app: "c")], receivedAtMillis: receivedAt).overflowed.isEmpty
        )
    }

    @Test("the view reads the store notifications and charges of its app alone", arguments: Backend.all)
    func notificationsOfTheApp(_ backend: Backend) async throws {
        let store = try await backend.store()
        func charge(_ id: String, app: String, price: Double) -> StoreNotification {
            let time = RFC3339.parseMillis("2026-11-20T10:0\(id.suffix(1)):00Z")!
            return StoreNotification(
                store: .apple, notificationID: id, environment: "Production", appID: app, type: "ONE_TIME_CHARGE", kind: .charge,
                signedMillis: time, transactionID: "t-\(id)", productID: "coins_100", purchaseMillis: time, price: price, currency: "USD")
        }
        _ = try await store.record(
            [
                charge("n1", app: "com.example.coins", price: 1), charge("n2", app: "com.example.premium", price: 5),
                charge("n3", app: "com.example.premium", price: 5),
            ], receivedAtMillis: receivedAt)
        let view = AppScopedStore(store, app: "com.example.premium")
        let day = (RFC3339.parseMillis("2026-11-20T00:00:00Z")!, RFC3339.parseMillis("2026-11-21T00:00:00Z")!)
        await #expect(
            try view.notifications(kinds: [.charge], fromMillis: day.0, toMillis: day.1).map(\.notification.notificationID) == ["n2", "n3"])
        let rows = try await view.storeActivity(fromMillis: day.0, toMillis: day.1, stepSeconds: 86_400)
        #expect(rows.map { "\($0.appID) \($0.count) \($0.amount)" } == ["com.example.premium 2 10.0"])
        let all = try await store.storeActivity(fromMillis: day.0, toMillis: day.1, stepSeconds: 86_400)
        #expect(all.map { "\($0.appID) \($0.count)" } == ["com.example.coins 1", "com.example.premium 2"])
    }
}
