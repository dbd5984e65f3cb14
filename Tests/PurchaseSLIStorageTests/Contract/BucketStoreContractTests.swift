import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// What every ``BucketStore`` must do, run on each backend with the same fixtures and expectations.
@Suite("Bucket store contract")
struct BucketStoreContractTests {
    private func total(
        _ store: any BucketStore, from: String = "2026-11-01T00:00:00Z", to: String = "2026-12-01T00:00:00Z",
        by: [EventDimension] = [], step: TimeStep? = nil, filters: [EventDimension: Set<String?>] = [:]
    ) async throws -> [CountRow] {
        try await store.counts(CountQuery(fromSeconds: seconds(from), toSeconds: seconds(to), step: step, groupBy: by, filters: filters))
    }

    @Test("each eventID counts once: within a batch, across batches of one call and across calls", arguments: Backend.all)
    func countsEachEventIDOnce(_ backend: Backend) async throws {
        let store = try await backend.store()
        let first = try await store.record(
            [
                [event("a", at: "2026-11-14T09:30:00Z"), event("a", at: "2026-11-14T09:30:00Z")],
                [event("b", at: "2026-11-14T09:31:00Z", result: .failure), event("a", at: "2026-11-14T09:30:00Z")],
            ],
            receivedAtMillis: receivedAt)
        #expect(first.accepted == 2 && first.duplicates == 2 && first.duplicateIndexes == [1, 3])
        #expect(first.timeRange == RFC3339.parseMillis("2026-11-14T09:30:00Z")!...RFC3339.parseMillis("2026-11-14T09:31:00Z")!)
        let second = try await store.record(
            [event("c", at: "2026-11-14T09:32:00Z"), event("b", at: "2026-11-14T09:31:00Z", result: .failure)], receivedAtMillis: receivedAt)
        #expect(second.accepted == 1 && second.duplicateIndexes == [1])
        // The same id at another second is another event (the dedup key is the event's second and id).
        await #expect(try store.record([event("a", at: "2026-11-14T09:30:01Z")], receivedAtMillis: receivedAt).accepted == 1)
        let counts = try await total(store)[0].counts
        #expect(counts.success == 3 && counts.failure == 1 && counts.valid == 4)
    }

    @Test("a late event counts in the minute of its event time", arguments: Backend.all)
    func lateEvents(_ backend: Backend) async throws {
        let store = try await backend.store()
        _ = try await store.record([event("new", at: "2026-11-14T10:00:10Z")], receivedAtMillis: receivedAt)
        _ = try await store.record([event("late", at: "2026-11-14T09:05:59Z", result: .failure)], receivedAtMillis: receivedAt)
        let rows = try await total(store, from: "2026-11-14T09:00:00Z", to: "2026-11-14T10:05:00Z", step: TimeStep(seconds: 60))
        #expect(rows.map(\.timeSeconds) == [seconds("2026-11-14T09:05:00Z"), seconds("2026-11-14T10:00:00Z")])
        #expect(rows[0].counts.failure == 1 && rows[1].counts.success == 1)
    }

    @Test(
        "late arrivals through the HTTP API are kept per hour and series, each event once; files ingested and prompt events are not",
        arguments: Backend.all)
    func lateArrivalsPerHourAndSeries(_ backend: Backend) async throws {
        let store = try await backend.store()
        let received = RFC3339.parseMillis("2026-11-14T12:00:00Z")!
        func api(_ events: [PurchaseEvent]) -> PreparedEvents {
            var prepared = PreparedEvents(events)
            prepared.tracksLateArrivals = true
            return prepared
        }
        let late = [
            event("l1", at: "2026-11-14T09:10:00Z", version: "5.0.0"), event("l2", at: "2026-11-14T09:50:00Z", version: "5.0.0"),
            event("l3", at: "2026-11-14T10:59:59Z", version: "4.11.0"),
        ]
        // 59 minutes late is prompt; a file of the same old events ingested by an operator is not tracked.
        let prompt = event("p1", at: "2026-11-14T11:00:01Z", version: "5.0.0")
        _ = try await store.record([api(late + [prompt])], receivedAtMillis: received)
        _ = try await store.record([api(late)], receivedAtMillis: received + 60_000)
        _ = try await store.record([PreparedEvents([event("f1", at: "2026-11-14T09:20:00Z", version: "5.0.0")])], receivedAtMillis: received)
        let versions = await Dictionary(uniqueKeysWithValues: try store.series([.appVersion]).map { ($0.id, $0.values[0] ?? "") })
        let counts = try await store.lateArrivals(fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"))
        let byHour = Dictionary(grouping: counts) { "\(RFC3339.format(seconds: $0.hour)) \(versions[$0.series] ?? "?")" }.mapValues {
            $0.reduce(0) { $0 + $1.events }
        }
        #expect(byHour == ["2026-11-14T09:00:00Z 5.0.0": 2, "2026-11-14T10:00:00Z 4.11.0": 1], "\(byHour)")
        await #expect(try store.lateArrivals(fromSeconds: seconds("2026-11-14T10:00:00Z"), toSeconds: seconds("2026-11-14T11:00:00Z")).count == 1)
    }

    @Test("minute, hour and day buckets agree across midnight, at every step and unaligned edge", arguments: Backend.all)
    func rollupsAcrossMidnight(_ backend: Backend) async throws {
        let store = try await backend.store()
        let start = seconds("2026-11-14T22:00:00Z")
        var events: [PurchaseEvent] = []
        for index in 0..<400 {
            let time = RFC3339.format(seconds: start + Int64(index * 97 % (4 * 3600)))
            events.append(
                event(
                    "e\(index)", at: time, product: ["coins_100", "coins_500"][index % 2],
                    result: [.start, .success, .failure, .alreadyGranted, .cancel][index % 5],
                    status: index % 5 == 3 ? 409 : index % 10 == 2 ? 503 : nil))
        }
        // In several commits, so that later ones add to buckets earlier ones wrote.
        for part in stride(from: 0, to: events.count, by: 50) {
            _ = try await store.record(Array(events[part..<part + 50]), receivedAtMillis: receivedAt)
        }
        let from = "2026-11-14T00:00:00Z"
        let to = "2026-11-16T00:00:00Z"
        func sums(_ step: Int64) async throws -> [String: OutcomeCounts] {
            try await total(store, from: from, to: to, by: [.productID], step: TimeStep(seconds: step))
                .reduce(into: [:]) { $0[$1.key[0]!, default: OutcomeCounts()] += $1.counts }
        }
        let byMinute = try await sums(60)
        let byFiveMinutes = try await sums(300)
        let byHour = try await sums(3600)
        let byDay = try await sums(86_400)
        #expect(byMinute == byHour && byMinute == byDay && byMinute == byFiveMinutes)
        #expect(
            byMinute["coins_100"]?.total == 200 && byMinute["coins_100"]?.conflicts == 40 && byMinute["coins_100"]?.serverErrors == 40
                && byMinute["coins_500"]?.serverErrors == 0)
        let days = try await total(store, from: from, to: to, step: TimeStep(seconds: 86_400))
        let beforeMidnight = events.filter { $0.timestampMillis < RFC3339.parseMillis("2026-11-15T00:00:00Z")! }.count
        #expect(days.map(\.timeSeconds) == [seconds("2026-11-14T00:00:00Z"), seconds("2026-11-15T00:00:00Z")])
        #expect(days.map(\.counts.total) == [Int64(beforeMidnight), Int64(400 - beforeMidnight)])
        // An unaligned range reads its edges from finer buckets.
        for (edgeFrom, edgeTo) in [("2026-11-14T23:07:00Z", "2026-11-15T01:13:00Z"), ("2026-11-14T22:59:00Z", "2026-11-15T00:01:00Z")] {
            let expected = events.filter {
                $0.timestampMillis >= RFC3339.parseMillis(edgeFrom)! && $0.timestampMillis < RFC3339.parseMillis(edgeTo)!
            }.count
            await #expect(try total(store, from: edgeFrom, to: edgeTo).first?.counts.total == Int64(expected), "\(edgeFrom)–\(edgeTo)")
        }
    }

    @Test("values past the cardinality cap count as __other__, per day", arguments: Backend.all)
    func cardinalityOverflow(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = 3
        configuration.hourRetentionSeconds = 86_400
        let store = try await backend.store(configuration)
        let events = (0..<10).map {
            event("e\($0)", at: "2026-11-14T09:30:00Z", plan: "plan-\($0 % 5)", result: .failure, error: "error \($0 % 5)")
        }
        let outcome = try await store.record(events, receivedAtMillis: receivedAt)
        #expect(outcome.overflowed == ["planID": 4, "errorDescription": 4])
        let rows = try await total(store, by: [.planID])
        #expect(rows.map(\.key) == [["__other__"], ["plan-0"], ["plan-1"], ["plan-2"]] && rows.map(\.counts.total) == [4, 2, 2, 2])
        let errors = try await store.errorCounts(
            CountQuery(
                fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"), groupBy: [.errorDescription]))
        #expect(errors.map(\.key) == [["__other__"], ["error 0"], ["error 1"], ["error 2"]] && errors.map(\.events) == [4, 2, 2, 2])
        // Admitted values stay admitted; the next day has room again.
        let later = try await store.record(
            [event("x", at: "2026-11-14T10:00:00Z", plan: "plan-0"), event("y", at: "2026-11-15T10:00:00Z", plan: "plan-4")],
            receivedAtMillis: receivedAt)
        #expect(later.overflowed.isEmpty)
        await #expect(try total(store, by: [.planID]).first { $0.key == ["plan-4"] }?.counts.total == 1)
        // What was turned away is kept as long as the hour buckets of its day (a day here).
        let day14 = seconds("2026-11-14T00:00:00Z") / 86_400
        await #expect(try store.overflow(fromDay: .min, toDay: .max).map(\.day) == [day14, day14])
        _ = try await store.record([event("z", at: "2026-11-15T23:59:00Z")], receivedAtMillis: receivedAt)
        _ = try await store.prune(nowMillis: receivedAt)
        await #expect(try store.overflow(fromDay: .min, toDay: .max).count == 2, "a day whose last hour is still kept")
        _ = try await store.record([event("z2", at: "2026-11-16T00:00:00Z")], receivedAtMillis: receivedAt)
        _ = try await store.prune(nowMillis: receivedAt)
        await #expect(try store.overflow(fromDay: .min, toDay: .max).isEmpty)
    }

    @Test("series past the series cap count in their action's __other__ series, keeping each action's total", arguments: Backend.all)
    func seriesOverflow(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.seriesCap = 3
        let store = try await backend.store(configuration)
        let purchases = (0..<10).map { event("p\($0)", at: "2026-11-14T09:30:00Z", plan: "plan-\($0)", result: $0 < 4 ? .failure : .success) }
        let restores = (0..<2).map { event("r\($0)", at: "2026-11-14T09:31:00Z", plan: "plan-\($0)", action: .restore) }
        await #expect(try store.record(purchases + restores, receivedAtMillis: receivedAt).overflowed == ["series": 9])
        let byAction = try await total(store, by: [.actionType])
        #expect(byAction.map(\.key) == [["purchase"], ["restore"]] && byAction.map(\.counts.total) == [10, 2])
        #expect(byAction[0].counts.failure == 4)
        let byPlan = try await total(store, by: [.actionType, .planID])
        #expect(
            byPlan.map(\.key) == [
                ["purchase", "__other__"], ["purchase", "plan-0"], ["purchase", "plan-1"], ["purchase", "plan-2"],
                ["restore", "__other__"],
            ])
        #expect(byPlan.map(\.counts.total) == [7, 1, 1, 1, 2])
        await #expect(try store.record([event("n", at: "2026-11-15T09:30:00Z", plan: "plan-9")], receivedAtMillis: receivedAt).overflowed.isEmpty)
    }

    @Test("the series listed after more events are recorded hold the new series and values", arguments: Backend.all)
    func seriesListedAgainHoldTheNewOnes(_ backend: Backend) async throws {
        let store = try await backend.store()
        func listed(_ dimensions: [EventDimension]) async throws -> Set<[String?]> { await Set(try store.series(dimensions).map(\.values)) }
        _ = try await store.record([event("a", at: "2026-11-14T09:30:00Z")], receivedAtMillis: receivedAt)
        await #expect(try listed([.productID, .planID]) == [["coins_100", "coins-small"]])
        // A new product with a known plan, a known product without a plan, and an error description.
        _ = try await store.record(
            [
                event("b", at: "2026-11-14T09:31:00Z", product: "coins_500"), event("c", at: "2026-11-14T09:32:00Z", plan: nil),
                event("d", at: "2026-11-14T09:33:00Z", result: .failure, version: "4.12.0", error: "timeout"),
            ], receivedAtMillis: receivedAt)
        await #expect(try listed([.productID, .planID]) == [["coins_100", "coins-small"], ["coins_500", "coins-small"], ["coins_100", nil]])
        await #expect(try listed([.appVersion]) == [["4.11.0"], ["4.12.0"]])
        await #expect(try store.series([.planID]).count == 4, "one per series: the new version's is one more")
    }

    @Test("grouping and filters, absent values included; 409 and 5xx counted beside results", arguments: Backend.all)
    func groupsAndFilters(_ backend: Backend) async throws {
        let store = try await backend.store()
        _ = try await store.record(
            [
                event("1", at: "2026-11-14T09:30:00Z", product: "coins_100", result: .success, version: "4.11.0"),
                event("2", at: "2026-11-14T09:30:00Z", product: "coins_100", result: .failure, status: 503, version: "4.12.0"),
                event("3", at: "2026-11-14T09:30:00Z", product: "coins_500", result: .alreadyGranted, status: 409, version: nil),
                event("4", at: "2026-11-14T09:30:00Z", product: "coins_500", action: .retry, result: .failure, status: 409, version: "4.12.0"),
            ], receivedAtMillis: receivedAt)
        let byVersion = try await total(store, by: [.appVersion])
        #expect(byVersion.map(\.key) == [[nil], ["4.11.0"], ["4.12.0"]])
        #expect(byVersion[2].counts.failure == 2 && byVersion[2].counts.serverErrors == 1 && byVersion[2].counts.conflicts == 1)
        #expect(byVersion[0].counts.conflicts == 1 && byVersion[0].counts.successRate == 1)
        let filtered = try await total(store, by: [.resultType], filters: [.actionType: ["purchase"], .appVersion: ["4.12.0", nil]])
        #expect(filtered.map(\.key) == [["alreadyGranted"], ["failure"]] && filtered.map(\.counts.total) == [1, 1])
        await #expect(try total(store, filters: [.productID: ["none"]]).isEmpty)
        let onlyFailures = try await total(store, by: [.productID], filters: [.resultType: ["failure"]])
        #expect(
            onlyFailures.map(\.key) == [["coins_100"], ["coins_500"]] && onlyFailures.allSatisfy { $0.counts.failure == 1 && $0.counts.total == 1 })
        // A required value leaves out the events without one, alone or with other queries and filters.
        let range = (seconds("2026-11-14T09:00:00Z"), seconds("2026-11-14T10:00:00Z"))
        let versioned = CountQuery(
            fromSeconds: range.0, toSeconds: range.1, step: TimeStep(seconds: 60), groupBy: [.actionType, .appVersion], requiredValues: [.appVersion])
        var purchases = versioned
        (purchases.groupBy, purchases.filters) = ([.productID], [.actionType: ["purchase"]])
        let every = CountQuery(fromSeconds: range.0, toSeconds: range.1, step: TimeStep(seconds: 60), groupBy: [.actionType])
        let answers = try await store.series([every, versioned, purchases])
        #expect(answers[0].keys == [["purchase"], ["retry"]] && answers[0].dense(0)[30].total == 3)
        #expect(answers[1].keys == [["purchase", "4.11.0"], ["purchase", "4.12.0"], ["retry", "4.12.0"]])
        #expect(answers[1].columns.indices.map { answers[1].dense($0)[30].total } == [1, 1, 1])
        #expect(answers[2].keys == [["coins_100"]] && answers[2].dense(0)[30].total == 2, "coins_500's purchase has no version")
        await #expect(try store.counts(versioned).map(\.counts.total).reduce(0, +) == 3)
    }

    @Test("error descriptions by group, most first, filtered by result and by description", arguments: Backend.all)
    func errorCounts(_ backend: Backend) async throws {
        let store = try await backend.store()
        var events: [PurchaseEvent] = (0..<6).map {
            event("t\($0)", at: "2026-11-14T09:3\($0):00Z", product: "coins_100", result: .failure, error: "timeout")
        }
        events.append(event("c1", at: "2026-11-14T09:31:00Z", product: "coins_500", result: .cancel, error: "payment cancelled"))
        events.append(event("c2", at: "2026-11-14T10:31:00Z", product: "coins_500", result: .cancel, error: "payment cancelled"))
        events.append(event("r1", at: "2026-11-14T10:32:00Z", product: "coins_100", result: .failure, error: "receipt missing"))
        events.append(event("ok", at: "2026-11-14T10:33:00Z", product: "coins_100", result: .success))
        _ = try await store.record(events, receivedAtMillis: receivedAt)
        let range = (seconds("2026-11-14T00:00:00Z"), seconds("2026-11-15T00:00:00Z"))
        let byError = try await store.errorCounts(CountQuery(fromSeconds: range.0, toSeconds: range.1, groupBy: [.errorDescription]))
        #expect(byError.map(\.key) == [["timeout"], ["payment cancelled"], ["receipt missing"]] && byError.map(\.events) == [6, 2, 1])
        let hourly = try await store.errorCounts(
            CountQuery(
                fromSeconds: range.0, toSeconds: range.1, step: TimeStep(seconds: 3600), groupBy: [.productID, .errorDescription],
                filters: [.productID: ["coins_500", "coins_100"]]))
        #expect(
            hourly.map(\.timeSeconds) == [
                seconds("2026-11-14T09:00:00Z"), seconds("2026-11-14T09:00:00Z"),
                seconds("2026-11-14T10:00:00Z"), seconds("2026-11-14T10:00:00Z"),
            ])
        #expect(
            hourly.map(\.key) == [
                ["coins_100", "timeout"], ["coins_500", "payment cancelled"],
                ["coins_100", "receipt missing"], ["coins_500", "payment cancelled"],
            ])
        let onlyCancels = try await store.errorCounts(
            CountQuery(
                fromSeconds: range.0, toSeconds: range.1, groupBy: [.productID], filters: [.errorDescription: ["payment cancelled"]]))
        #expect(onlyCancels.map(\.key) == [["coins_500"]] && onlyCancels[0].events == 2)
        let byResult = try await store.errorCounts(CountQuery(fromSeconds: range.0, toSeconds: range.1, groupBy: [.resultType, .errorDescription]))
        #expect(byResult.map(\.key) == [["failure", "timeout"], ["cancel", "payment cancelled"], ["failure", "receipt missing"]])
    }

    @Test("pruning: eventIDs forgotten only past the dedup horizon, minute buckets past theirs, rollups kept", arguments: Backend.all)
    func pruning(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.minuteRetentionSeconds = 86_400
        let store = try await backend.store(configuration)
        let old = event("old", at: "2026-11-10T09:30:00Z")
        _ = try await store.record([old, event("b", at: "2026-11-14T09:30:00Z")], receivedAtMillis: receivedAt)
        let memory = try await store.prune(nowMillis: receivedAt + 7 * 86_400_000)
        #expect(memory.eventIDs == 2 && memory.seconds == 2)
        await #expect(try store.record([old], receivedAtMillis: receivedAt).duplicates == 1)
        await #expect(try total(store, from: "2026-11-10T09:00:00Z", to: "2026-11-10T10:00:00Z", step: TimeStep(seconds: 60)).isEmpty)
        await #expect(
            try total(store, from: "2026-11-10T09:00:00Z", to: "2026-11-10T10:00:00Z", step: TimeStep(seconds: 3600))
                .first?.counts.success == 1)
        await #expect(
            try total(store, from: "2026-11-14T09:00:00Z", to: "2026-11-14T10:00:00Z", step: TimeStep(seconds: 60))
                .first?.counts.success == 1)
        await #expect(try store.prune(nowMillis: receivedAt + 9 * 86_400_000) == DedupMemory(seconds: 0, eventIDs: 0))
        await #expect(try store.record([old], receivedAtMillis: receivedAt + 9 * 86_400_000).accepted == 1)
    }

    @Test("the latest price of each product and plan, by event time", arguments: Backend.all)
    func prices(_ backend: Backend) async throws {
        let store = try await backend.store()
        func priced(_ id: String, _ time: String, _ product: String, _ plan: String?, _ price: Double?, _ currency: String? = "USD") -> PurchaseEvent
        {
            var priced = event(id, at: time, product: product)
            (priced.planID, priced.price, priced.currency) = (plan, price, currency)
            return priced
        }
        _ = try await store.record(
            [
                priced("a", "2026-11-14T09:30:00Z", "pro", "monthly", 9.99), priced("b", "2026-11-14T09:00:00Z", "pro", "monthly", 8.99),
                priced("c", "2026-11-14T09:00:00Z", "coins", nil, 0.99), priced("d", "2026-11-14T10:00:00Z", "coins", nil, nil),
            ], receivedAtMillis: receivedAt)
        _ = try await store.record(
            [
                priced("e", "2026-11-14T08:00:00Z", "pro", "monthly", 7.99),
                priced("f", "2026-11-14T11:00:00Z", "coins", nil, 1.09, "EUR"),
            ], receivedAtMillis: receivedAt)
        let prices = try await store.prices().map { "\($0.productID) \($0.planID ?? "-") \($0.price) \($0.currency)" }
        #expect(prices == ["coins - 1.09 EUR", "pro monthly 9.99 USD"])
    }

    @Test("queries answered together equal queries answered alone; series are the rows made dense", arguments: Backend.all)
    func queriesTogether(_ backend: Backend) async throws {
        let store = try await backend.store()
        let events = mixedEvents(count: 600)
        _ = try await store.record(events, receivedAtMillis: receivedAt)
        let purchases = events.filter {
            $0.actionType == .purchase && $0.timestampMillis >= RFC3339.parseMillis("2026-11-14T07:30:00Z")!
                && $0.timestampMillis < RFC3339.parseMillis("2026-11-14T14:30:00Z")!
        }
        let groupings: [[EventDimension]] = [[.actionType], [.actionType, .productID], [.planID], [.appVersion, .resultType]]
        let queries = groupings.map {
            CountQuery(
                fromSeconds: seconds("2026-11-14T07:30:00Z"), toSeconds: seconds("2026-11-14T14:30:00Z"),
                step: TimeStep(seconds: 60), groupBy: $0, filters: [.actionType: ["purchase"]])
        }
        let together = try await store.counts(queries)
        for (query, rows) in zip(queries, together) {
            await #expect(rows == (try store.counts(query)), "\(query.groupBy)")
            #expect(rows.reduce(0) { $0 + $1.counts.total } == Int64(purchases.count))
        }
        for (query, dense) in await zip(queries, try store.series(Array(queries.prefix(3)))) {
            let fromRows = await CountSeries(rows: try store.counts(query), startSeconds: query.fromSeconds, stepSeconds: 60, stepCount: 420)
            #expect(dense.startSeconds == query.fromSeconds && dense.stepCount == 420)
            #expect(
                Dictionary(uniqueKeysWithValues: zip(dense.keys, dense.columns))
                    == Dictionary(uniqueKeysWithValues: zip(fromRows.keys, fromRows.columns)), "\(query.groupBy)")
            #expect(dense.keys == dense.keys.sorted { $0.lexicographicallyPrecedes($1) { ($0 ?? "") < ($1 ?? "") } })
        }
        await #expect(throws: StorageError.self) { try await store.series([queries[3]]) }
        var shorter = queries[0]
        shorter.toSeconds = seconds("2026-11-14T09:00:00Z")
        let mixed = try await store.counts([queries[0], shorter])
        await #expect(mixed[1] == (try store.counts(shorter)) && mixed[1].count < mixed[0].count)
        // Other ranges with the same step share a scan of their union when every bucket it reads is wholly
        // inside or outside each range (hour rollups between unaligned edges, or not), else read alone.
        let rangeSets: [(step: Int64, ranges: [(String, String)])] = [
            (60, [("07:30", "14:30"), ("06:17", "09:41"), ("13:59", "15:00")]),
            (3600, [("07:00", "14:00"), ("08:00", "13:00"), ("06:00", "15:00")]),
            (3600, [("07:30", "14:30"), ("07:45", "13:30")]),
            (300, [("06:05", "08:00"), ("12:00", "13:15")]),
        ]
        for (step, ranges) in rangeSets {
            let queries = ranges.enumerated().map { index, range in
                CountQuery(
                    fromSeconds: seconds("2026-11-14T\(range.0):00Z"), toSeconds: seconds("2026-11-14T\(range.1):00Z"),
                    step: TimeStep(seconds: step), groupBy: groupings[index % groupings.count])
            }
            for (query, rows) in await zip(queries, try store.counts(queries)) {
                await #expect(rows == (try store.counts(query)), "\(step) s from \(query.fromSeconds) to \(query.toSeconds)")
            }
        }
    }

    @Test("a store answers every query as the in-memory reference does", arguments: Backend.all)
    func answersLikeTheReference(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = 40
        configuration.seriesCap = 150
        let store = try await backend.store(configuration)
        let reference = InMemoryBucketStore(configuration: configuration)
        var generator = SplitMix(seed: 7)
        let events = mixedEvents(count: 3000, generator: &generator)
        // Sent in batches of varying size, some of several requests, with resent events and late ones.
        var position = 0
        while position < events.count {
            let size = Int(generator.next() % 300) + 1
            var batch = Array(events[position..<min(events.count, position + size)])
            if position > 0, generator.next() % 3 == 0 { batch += events[max(0, position - 40)..<position] }
            let halves = [Array(batch.prefix(batch.count / 2)), Array(batch.dropFirst(batch.count / 2))]
            let outcome = try await store.record(halves, receivedAtMillis: receivedAt)
            await #expect(outcome == (try reference.record(halves, receivedAtMillis: receivedAt)))
            position += size
        }
        let from = seconds("2026-11-13T20:00:00Z")
        let to = seconds("2026-11-16T04:00:00Z")
        // (Steps of 5 minutes and groupings by product alone are compared in the tests above.)
        let groupings: [[EventDimension]] = [[], [.actionType, .planID], [.appVersion, .resultType], [.offerID, .variant], [.app, .productID]]
        let filters: [[EventDimension: Set<String?>]] = [
            [:], [.appVersion: ["4.11.0", nil]], [.resultType: ["failure", "cancel"]], [.app: ["com.example.coins", nil]],
        ]
        let steps: [Int64?] = [nil, 60, 3600, 86_400]
        for step in steps.map({ $0.map { TimeStep(seconds: $0) } }) {
            for groupBy in groupings {
                for filter in filters {
                    let query = CountQuery(fromSeconds: from + 420, toSeconds: to - 180, step: step, groupBy: groupBy, filters: filter)
                    await #expect(try store.counts(query) == (try reference.counts(query)), "\(query)")
                    var errorQuery = query
                    errorQuery.groupBy = groupBy.filter { $0 != .resultType } + [.errorDescription]
                    await #expect(try store.errorCounts(errorQuery) == (try reference.errorCounts(errorQuery)), "\(errorQuery)")
                }
            }
        }
        await #expect(try store.prices() == (try reference.prices()))
    }
}

/// Events over a few days, of every action, result, product, plan, version and error.
func mixedEvents(count: Int) -> [PurchaseEvent] {
    var generator = SplitMix(seed: 1)
    return mixedEvents(count: count, generator: &generator)
}

/// Events over a few days from `generator`: of every action, result, product, plan, version, offer,
/// variant and app, some with prices and errors.
func mixedEvents(count: Int, generator: inout SplitMix) -> [PurchaseEvent] {
    let start = seconds("2026-11-14T08:00:00Z")
    let products = ["coins_100", "coins_500", "premium"]
    let versions: [String?] = ["4.10.2", "4.11.0", nil]
    let results: [ResultType] = [.start, .success, .success, .failure, .cancel, .alreadyGranted, .pending]
    return (0..<count).map { index in
        let pick = generator.next()
        var made = event(
            "e\(index)", at: RFC3339.format(seconds: start + Int64(index) * 37 - Int64(pick % 5000)), product: products[index % 3],
            plan: index % 4 == 0 ? nil : "plan-\(pick % 60)", action: [.purchase, .purchase, .restore, .retry][index % 4],
            result: results[Int((pick >> 8) % 7)], status: pick % 11 == 0 ? 409 : pick % 13 == 0 ? 503 : nil,
            version: versions[index % 3], error: pick % 7 == 3 ? "error \((pick >> 16) % 50)" : nil)
        made.offerID = pick % 9 == 0 ? "offer-\(pick % 4)" : nil
        made.variant = pick % 5 == 0 ? "B" : "A"
        made.app = pick % 3 == 0 ? nil : ["com.example.coins", "com.example.premium"][Int((pick >> 24) % 2)]
        if pick % 17 == 0 { (made.price, made.currency) = (Double(pick % 1000) / 100, "USD") }
        return made
    }
}

/// A small deterministic random number generator (SplitMix64).
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
