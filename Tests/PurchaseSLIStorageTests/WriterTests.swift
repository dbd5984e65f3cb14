import Foundation
import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// The single writer's path as the server uses it: several prepared batches per commit, one after
/// another, with the WAL kept small.
@Suite struct WriterTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test func batchesCommittedTogetherCountEachEventIDOnceAndNameDuplicatesByPositionAcrossBatches() throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        _ = try store.record([event("old", at: "2026-11-14T09:00:00Z")], receivedAtMillis: receivedAt)
        let first = PreparedEvents([
            event("b", at: "2026-11-14T09:31:00Z"), event("a", at: "2026-11-14T09:30:00Z"),
            event("old", at: "2026-11-14T09:00:00Z"),
        ])
        let second = PreparedEvents([
            event("a", at: "2026-11-14T09:30:00Z"), event("c", at: "2026-11-14T09:32:00Z", result: .failure),
            event("c", at: "2026-11-14T09:32:00Z", result: .failure),
        ])
        let outcome = try store.record([first, second], receivedAtMillis: receivedAt)
        // Positions count across the batches: the stored "old" at 2, the second "a" at 3, the second "c" at 5.
        #expect(outcome.accepted == 3 && outcome.duplicates == 3 && outcome.duplicateIndexes == [2, 3, 5])
        #expect(outcome.timeRange == RFC3339.parseMillis("2026-11-14T09:30:00Z")!...RFC3339.parseMillis("2026-11-14T09:32:00Z")!)
        let counts = try store.counts(CountQuery(
            fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z")))[0].counts
        #expect(counts.success == 3 && counts.failure == 1)
    }

    @Test func theWALStopsGrowingAtTheCheckpointThreshold() throws {
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let start = seconds("2026-11-14T00:00:00Z")
        var largest = 0, next = 0
        // 600 commits write about 17 MB of WAL frames; checkpoints after every ~4 MB let the WAL start over.
        for _ in 0..<600 {
            let events = (next..<next + 200).map { index in
                PurchaseEvent(
                    eventID: "e\(index)", timestampMillis: (start + Int64(index)) * 1000, productID: "coins_100",
                    actionType: .purchase, resultType: .success)
            }
            next += 200
            _ = try store.record(events, receivedAtMillis: receivedAt)
            largest = max(largest, try walBytes(of: path))
        }
        #expect(largest > 1 << 20 && largest < 8 << 20, "largest WAL: \(largest) bytes")
        let total = try store.counts(CountQuery(fromSeconds: start, toSeconds: start + 86_400 * 2))[0].counts.total
        #expect(total == Int64(next))
    }

    private func walBytes(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
    }
}
