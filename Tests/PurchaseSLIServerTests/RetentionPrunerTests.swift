import Foundation
import Logging
import PurchaseSLICore
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// `serve` applies retention itself, as `ingest` does: old minute buckets and expired eventIDs go, and
/// `/metrics` shows what the dedup memory holds.
@Suite struct RetentionPrunerTests {
    @Test func pruningDropsOldMinutesAndExpiredEventIDsAndShowsTheDedupMemory() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let now = RFC3339.parseMillis("2026-11-21T12:00:00Z")!
        let old = PurchaseEvent(
            eventID: "old", timestampMillis: now - 40 * 86_400_000, productID: "coins_100", actionType: .purchase, resultType: .success)
        let recent = PurchaseEvent(
            eventID: "new", timestampMillis: now - 60_000, productID: "coins_100", actionType: .purchase, resultType: .success)
        _ = try await store.record([old], receivedAtMillis: now - 40 * 86_400_000)
        _ = try await store.record([recent], receivedAtMillis: now)
        let metrics = ServerMetrics(store: store)
        var logger = Logger(label: "retention-test")
        logger.logLevel = .critical
        let pruner = RetentionPruner(store: store, intervalSeconds: 3600, metrics: metrics, logger: logger, nowMillis: { now })
        await pruner.pruneOnce()
        let minutes = { (from: Int64) async throws in
            try await store.counts(CountQuery(fromSeconds: from / 1000, toSeconds: from / 1000 + 60, step: TimeStep(seconds: 60)))
        }
        #expect(try await minutes(now - 40 * 86_400_000).isEmpty, "the 40-day-old minute is past the 35-day retention")
        #expect(try await minutes(now - 60_000).first?.counts.success == 1)
        // The old eventID is forgotten (its day is past the dedup horizon): sent again, it counts again.
        await #expect(try store.record([old], receivedAtMillis: now).accepted == 1)
        let exposition = await String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(exposition.contains("purchase_sli_dedup_seconds 1"), "\(exposition)")
        #expect(exposition.contains("purchase_sli_dedup_event_ids 1"))
        #expect(exposition.contains("purchase_sli_retention_applied_timestamp_seconds 1795"))
    }
}
