import Foundation
import GRDB
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// The single writer's path as the server uses it: several prepared batches per commit, one after
/// another, with the WAL kept small.
@Suite struct WriterTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test func batchesCommittedTogetherCountEachEventIDOnceAndNameDuplicatesByPositionAcrossBatches() async throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        _ = try await store.record([event("old", at: "2026-11-14T09:00:00Z")], receivedAtMillis: receivedAt)
        let first = PreparedEvents([
            event("b", at: "2026-11-14T09:31:00Z"), event("a", at: "2026-11-14T09:30:00Z"),
            event("old", at: "2026-11-14T09:00:00Z"),
        ])
        let second = PreparedEvents([
            event("a", at: "2026-11-14T09:30:00Z"), event("c", at: "2026-11-14T09:32:00Z", result: .failure),
            event("c", at: "2026-11-14T09:32:00Z", result: .failure),
        ])
        let outcome = try await store.record([first, second], receivedAtMillis: receivedAt)
        // Positions count across the batches: the stored "old" at 2, the second "a" at 3, the second "c" at 5.
        #expect(outcome.accepted == 3 && outcome.duplicates == 3 && outcome.duplicateIndexes == [2, 3, 5])
        #expect(outcome.timeRange == RFC3339.parseMillis("2026-11-14T09:30:00Z")!...RFC3339.parseMillis("2026-11-14T09:32:00Z")!)
        let counts = try await store.counts(
            CountQuery(
                fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z")))[0].counts
        #expect(counts.success == 3 && counts.failure == 1)
    }

    /// The writer finds the series of values met before by their hash, and only where the values are equal
    /// too: series whose hashes collide stay apart.
    @Test func seriesValuesWhoseHashesCollideStayApart() {
        let coins = SeriesValues(event("a", at: "2026-11-14T09:30:00Z"))
        let premium = SeriesValues(event("b", at: "2026-11-14T09:30:00Z", product: "premium_monthly"))
        var ids: [HashedSeriesValues: Int64] = [:]
        ids[HashedSeriesValues(values: coins, hash: 7)] = 1
        ids[HashedSeriesValues(values: premium, hash: 7)] = 2
        #expect(ids.count == 2)
        #expect(ids[HashedSeriesValues(values: coins, hash: 7)] == 1 && ids[HashedSeriesValues(values: premium, hash: 7)] == 2)
    }

    @Test func theWALStopsGrowingAtTheCheckpointThreshold() async throws {
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let start = seconds("2026-11-14T00:00:00Z")
        var largest = 0
        var next = 0
        // 600 commits write about 17 MB of WAL frames; checkpoints after every ~4 MB let the WAL start over.
        for _ in 0..<600 {
            let events = (next..<next + 200).map { index in
                PurchaseEvent(
                    eventID: "e\(index)", timestampMillis: (start + Int64(index)) * 1000, productID: "coins_100",
                    actionType: .purchase, resultType: .success)
            }
            next += 200
            _ = try await store.record(events, receivedAtMillis: receivedAt)
            largest = max(largest, try walBytes(of: path))
        }
        #expect(largest > 1 << 20 && largest < 8 << 20, "largest WAL: \(largest) bytes")
        let total = try await store.counts(CountQuery(fromSeconds: start, toSeconds: start + 86_400 * 2))[0].counts.total
        #expect(total == Int64(next))
    }

    @Test func hoursAndDaysAgreeWithMinutesBeforeAndAfterPendingRowsAreRolledUp() async throws {
        let path = directory.file("db.sqlite")
        var configuration = StoreConfiguration.default
        configuration.deferral.pendingRows = 256
        let store = try SQLiteBucketStore(path: path, configuration: configuration)
        let start = seconds("2026-11-14T22:00:00Z")
        // One commit per minute for 300 minutes, across midnight: the 256th commit rolls up the pending rows.
        for commit in 0..<300 {
            let minute = (start + Int64(commit) * 60) * 1000
            _ = try await store.record(
                [
                    PurchaseEvent(
                        eventID: "s\(commit)", timestampMillis: minute, productID: "coins_100",
                        actionType: .purchase, resultType: .success),
                    PurchaseEvent(
                        eventID: "f\(commit)", timestampMillis: minute + 1000, productID: "coins_\(commit % 3)",
                        actionType: .purchase, resultType: .failure, errorDescription: "timeout \(commit % 2)"),
                ], receivedAtMillis: receivedAt)
            guard commit == 100 || commit == 299 else { continue }
            let (pending, hourBuckets) = try await DatabaseQueue(path: path).read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM rollup_pending")!,
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM bucket_hour")!
                )
            }
            if commit == 100 {
                #expect(pending == 101 && hourBuckets == 0)
            } else {
                #expect(pending == 44 && hourBuckets == 5)
            }
            let events = Int64(commit + 1)
            for step in [TimeStep(seconds: 60), TimeStep(seconds: 3600), TimeStep(seconds: 86_400), nil] {
                let query = CountQuery(
                    fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-16T00:00:00Z"), step: step,
                    groupBy: [.productID])
                let rows = try await store.counts(query)
                #expect(rows.reduce(0) { $0 + $1.counts.success } == events, "step \(String(describing: step))")
                #expect(rows.reduce(0) { $0 + $1.counts.failure } == events, "step \(String(describing: step))")
                let errors = try await store.errorCounts(
                    CountQuery(
                        fromSeconds: query.fromSeconds, toSeconds: query.toSeconds, step: step, groupBy: [.errorDescription]))
                #expect(errors.reduce(0) { $0 + $1.events } == events, "step \(String(describing: step))")
                #expect(errors.filter { $0.key == ["timeout 0"] }.reduce(0) { $0 + $1.events } == (events + 1) / 2)
            }
            let hourly = try await store.counts(
                CountQuery(
                    fromSeconds: start, toSeconds: start + 6 * 3600, step: TimeStep(seconds: 3600)))
            let minutely = try await store.counts(
                CountQuery(
                    fromSeconds: start, toSeconds: start + 6 * 3600, step: TimeStep(seconds: 60)))
            for row in hourly {
                let minutes = minutely.filter { $0.timeSeconds! / 3600 == row.timeSeconds! / 3600 }
                #expect(row.counts.total == minutes.reduce(0) { $0 + $1.counts.total })
            }
        }
    }

    @Test func pruningFoldsThePendingRollupsInBeforeItDropsOldBuckets() async throws {
        let path = directory.file("db.sqlite")
        var configuration = StoreConfiguration.default
        configuration.hourRetentionSeconds = 86_400
        let store = try SQLiteBucketStore(path: path, configuration: configuration)
        // An old day, then today: fewer than 256 minutes, so everything is still pending before the prune.
        let old = seconds("2026-11-01T10:00:00Z")
        let today = seconds("2026-11-14T10:00:00Z")
        for (index, time) in [old, old + 60, today, today + 60].enumerated() {
            _ = try await store.record(
                [
                    PurchaseEvent(
                        eventID: "e\(index)", timestampMillis: time * 1000, productID: "coins_100", actionType: .purchase,
                        resultType: .success)
                ], receivedAtMillis: receivedAt)
        }
        try await store.prune(nowMillis: receivedAt)
        let (pending, oldHours, oldDays) = try await DatabaseQueue(path: path).read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM rollup_pending")!,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM bucket_hour WHERE time < ?", arguments: [today - 86_400])!,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM bucket_day WHERE time < ?", arguments: [today - 86_400])!
            )
        }
        // The old hour is past its retention and gone for good; its day (kept forever) holds both events.
        #expect(pending == 0 && oldHours == 0 && oldDays == 1)
        let byDay = try await store.counts(
            CountQuery(
                fromSeconds: seconds("2026-11-01T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"),
                step: TimeStep(seconds: 86_400)))
        #expect(byDay.map(\.counts.success) == [2, 2])
    }

    /// A backlog flush: each commit adds a few events to each of many full minutes and seconds. Those
    /// additions wait in pending rows (minute buckets, eventIDs) until a fold; before, during and after
    /// the folds every resolution counts every event once, a re-sent batch is all duplicates, and a
    /// second store on the same file (an `ingest` beside `serve`) sees the first one's pending eventIDs
    /// and folds.
    @Test func aBacklogFlushDefersItsWritesAndCountsEveryEventOnce() async throws {
        let path = directory.file("db.sqlite")
        var configuration = StoreConfiguration.default
        configuration.deferral.pendingRows = 600
        configuration.deferral.pendingEventIDs = 1500
        let store = try SQLiteBucketStore(path: path, configuration: configuration)
        let other = try SQLiteBucketStore(path: path, configuration: configuration)
        let start = seconds("2026-11-14T09:00:00Z")
        // A live hour first: 50 minutes of 60 events each (one a second), so minutes and seconds are full.
        for minute in 0..<50 {
            _ = try await store.record(
                (0..<60).map { second in
                    PurchaseEvent(
                        eventID: "live-\(minute)-\(second)", timestampMillis: (start + Int64(minute * 60 + second)) * 1000,
                        productID: "coins_\(second)", actionType: .purchase, resultType: .success)
                }, receivedAtMillis: receivedAt)
        }
        // Then the backlog: 40 batches, each holding one event in each of the 50 minutes (2,000 events
        // over the whole hour, filling three seconds of each minute), alternately through the two stores.
        var batches: [[PurchaseEvent]] = []
        for batch in 0..<40 {
            batches.append(
                (0..<50).map { minute in
                    PurchaseEvent(
                        eventID: "backlog-\(batch)-\(minute)", timestampMillis: (start + Int64(minute * 60 + batch % 3)) * 1000 + 500,
                        productID: "coins_\(minute % 7)", actionType: .purchase, resultType: batch % 4 == 0 ? .failure : .success,
                        errorDescription: batch % 4 == 0 ? "timeout" : nil)
                })
        }
        var sawDeferredMinutes = false
        var sawPendingEventIDs = false
        for (index, batch) in batches.enumerated() {
            let outcome = try await (index % 2 == 0 ? store : other).record(batch, receivedAtMillis: receivedAt)
            #expect(outcome.accepted == 50 && outcome.duplicates == 0, "batch \(index)")
            // A re-sent earlier batch, through the other store: every event a duplicate, pending or folded.
            let resent = try await (index % 2 == 0 ? other : store).record(batches[index / 2], receivedAtMillis: receivedAt)
            #expect(resent.accepted == 0 && resent.duplicates == 50, "batch \(index / 2) re-sent after batch \(index)")
            let (deferredMinutes, pendingIDs) = try await DatabaseQueue(path: path).read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM rollup_pending WHERE in_minute = 0")!,
                    try Int.fetchOne(db, sql: "SELECT coalesce(sum(length(keys)), 0) / 16 FROM seen_pending")!
                )
            }
            sawDeferredMinutes = sawDeferredMinutes || deferredMinutes > 0
            sawPendingEventIDs = sawPendingEventIDs || pendingIDs > 0
            let events = Int64(50 * 60 + 50 * (index + 1))
            let failures = Int64(50 * ((index / 4) + 1))
            for step in [TimeStep(seconds: 60), TimeStep(seconds: 3600), TimeStep(seconds: 86_400)] {
                let rows = try await store.counts(CountQuery(fromSeconds: start, toSeconds: start + 86_400, step: step))
                #expect(rows.reduce(0) { $0 + $1.counts.total } == events, "step \(step) after batch \(index)")
                #expect(rows.reduce(0) { $0 + $1.counts.failure } == failures, "step \(step) after batch \(index)")
                let errors = try await other.errorCounts(
                    CountQuery(
                        fromSeconds: start, toSeconds: start + 86_400, step: step, groupBy: [.errorDescription]))
                #expect(errors.reduce(0) { $0 + $1.events } == failures, "step \(step) after batch \(index)")
            }
        }
        #expect(sawDeferredMinutes && sawPendingEventIDs)
        // Pruning folds whatever is still pending; the dedup memory then holds every eventID.
        let memory = try await store.prune(nowMillis: receivedAt)
        #expect(memory.eventIDs == 50 * 60 + 50 * 40)
        let (pendingRows, pendingKeys) = try await DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM rollup_pending")!, try Int.fetchOne(db, sql: "SELECT count(*) FROM seen_pending")!)
        }
        #expect(pendingRows == 0 && pendingKeys == 0)
        await #expect(try other.record(batches[39], receivedAtMillis: receivedAt).duplicates == 50)
    }

    private func walBytes(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
    }
}
