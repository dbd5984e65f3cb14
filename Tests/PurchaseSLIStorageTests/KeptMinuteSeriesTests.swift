import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Synchronization
import Testing

/// A store that counts the buckets its scans pass on, to tell how much a read took from the store.
private struct CountingStore: BucketForwarding {
    let base: any BucketStore
    let buckets = BucketCount()

    final class BucketCount: Sendable {
        let count = Mutex(0)
    }

    func scanCounts(_ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesCounts]) throws -> Void) async throws {
        try await base.scanCounts(segments, selection: selection) { time, entries in
            buckets.count.withLock { $0 += 1 }
            try body(time, entries)
        }
    }
}

/// A store whose record of writes leaves out those to one minute, as a node of an older version writing to
/// a shared database would.
private struct ForgetfulStore: BucketForwarding {
    let base: any BucketStore
    let forgotten: Int64

    func bucketChanges(since mark: Int64?) async throws -> BucketChanges {
        var changes = try await base.bucketChanges(since: mark)
        changes.spans = changes.spans?.filter { !$0.contains(forgotten) }
        return changes
    }
}

@Suite struct KeptMinuteSeriesTests {
    private static let start = seconds("2026-11-14T00:00:00Z")

    /// Four hours of a live stream, minute by minute: each minute's events (of products the stream has
    /// not named before too, of two apps), now and then one late by up to 90 minutes, and every half hour
    /// a prune that drops the minutes past a 3-hour retention. At each minute the queries of an
    /// evaluation (each action's series from 200 minutes back, past the retention, now and then from 230;
    /// by product among a set that changes, or every product; by app version), read through a
    /// kept reader and afresh, of the store and of one app's view: the same series every time, while the
    /// kept reader takes less than a third of the buckets from the store (where the store records its
    /// writes; the late events make it read up to 90 minutes again).
    @Test(arguments: Backend.all)
    func keptSeriesAreThoseReadAfreshAtEveryMinute(backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.minuteRetentionSeconds = 3 * 3600
        let store = try await backend.store(configuration)
        var generator = SeededGenerator(seed: 66)
        let views: [(view: CountingStore, kept: KeptMinuteSeries)] = [
            (CountingStore(base: store), KeptMinuteSeries()), (CountingStore(base: AppScopedStore(store, app: "a")), KeptMinuteSeries()),
        ]
        var (products, allowed, eventIndex, freshScans, keptScans) = (3, Set<String?>(["p0", "p1"]), 0, 0, 0)
        for minute in 1...240 {
            let now = Self.start + Int64(minute) * 60
            var events: [PurchaseEvent] = []
            func add(at time: Int64) {
                eventIndex += 1
                if Int.random(in: 0..<8, using: &generator) == 0 { products += 1 }
                events.append(
                    PurchaseEvent(
                        eventID: "e\(eventIndex)", timestampMillis: time * 1000, productID: "p\(Int.random(in: 0..<products, using: &generator))",
                        actionType: Bool.random(using: &generator) ? .purchase : .restore,
                        resultType: [.success, .failure, .cancel].randomElement(using: &generator)!,
                        appVersion: "1.\(Int.random(in: 0..<3, using: &generator))", app: Bool.random(using: &generator) ? "a" : "b"))
            }
            for _ in 0..<3 { add(at: now - 60 + Int64.random(in: 0..<60, using: &generator)) }
            if Int.random(in: 0..<5, using: &generator) == 0 { add(at: now - Int64.random(in: 61..<(90 * 60), using: &generator)) }
            _ = try await store.record(events, receivedAtMillis: now * 1000)
            if minute % 30 == 0 { try await store.prune(nowMillis: now * 1000) }

            // The set of products let in: one added or removed at times, or none filtered.
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: allowed.insert("p\(Int.random(in: 0..<products, using: &generator))")
            case 1: if allowed.count > 1 { allowed.remove(allowed.randomElement(using: &generator)!) }
            default: break
            }
            let everyProduct = minute % 37 == 0
            let minuteStep = TimeStep(seconds: 60)
            let queries = [
                CountQuery(fromSeconds: now - (minute % 7 == 0 ? 230 : 200) * 60, toSeconds: now, step: minuteStep, groupBy: [.actionType]),
                CountQuery(
                    fromSeconds: now - 120 * 60, toSeconds: now, step: minuteStep, groupBy: [.actionType, .productID],
                    filters: everyProduct ? [:] : [.productID: allowed], requiredValues: [.productID]),
                CountQuery(
                    fromSeconds: now - 120 * 60, toSeconds: now, step: minuteStep, groupBy: [.actionType, .appVersion], requiredValues: [.appVersion]),
            ]
            for (view, kept) in views {
                let before = view.buckets.count.withLock { $0 }
                let fresh = try await view.series(queries)
                let afterFresh = view.buckets.count.withLock { $0 }
                let keptAnswer = try await kept.series(queries, from: view)
                (freshScans, keptScans) = (freshScans + afterFresh - before, keptScans + view.buckets.count.withLock { $0 } - afterFresh)
                let same = keptAnswer == fresh
                #expect(same, "minute \(minute): kept \(keptAnswer.map(\.keys)) afresh \(fresh.map(\.keys))")
                guard same else { return }
            }
        }
        #expect(keptScans * 3 < freshScans, "kept \(keptScans) of \(freshScans) buckets")
    }

    /// A write the store's record leaves out is not seen by the reads that take from what is kept, and is
    /// counted once everything is read again, every `readsBetweenFullReads` reads.
    @Test func aWriteTheRecordMissedIsCountedAtTheNextFullRead() async throws {
        let base = InMemoryBucketStore()
        let lateMinute = Self.start + 5 * 60
        let store = ForgetfulStore(base: base, forgotten: lateMinute)
        let kept = KeptMinuteSeries(readsBetweenFullReads: 3)
        func purchase(_ id: String, at time: Int64) async throws {
            let event = PurchaseEvent(
                eventID: id, timestampMillis: time * 1000, productID: "coins_100", actionType: .purchase, resultType: .success)
            _ = try await base.record([event], receivedAtMillis: (Self.start + 3600) * 1000)
        }
        for minute in 0..<10 { try await purchase("e\(minute)", at: Self.start + Int64(minute) * 60 + 10) }
        let query = CountQuery(
            fromSeconds: Self.start, toSeconds: Self.start + 20 * 60, step: TimeStep(seconds: 60), groupBy: [.actionType])
        _ = try await kept.series([query], from: store)
        try await purchase("late", at: lateMinute + 20)
        let fresh = try await store.series([query])
        var answers: [Bool] = []
        for _ in 0..<5 { answers.append(try await kept.series([query], from: store) == fresh) }
        #expect(answers == [false, false, false, true, true], "three reads take the kept minute, the fourth after them reads all")
    }
}
