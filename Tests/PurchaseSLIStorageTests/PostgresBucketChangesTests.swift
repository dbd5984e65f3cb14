#if PostgreSQL
import PurchaseSLICore
import PurchaseSLIPostgres
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// What PostgreSQL tells a reader that keeps what it read (``KeptMinuteSeries``): the minutes every node
/// wrote to since its mark, also a transaction that began before the mark and commits after a later one,
/// and "unknown" once the changes after a mark were pruned.
@Suite(.enabled(if: TestPostgres.isEnabled, "set PURCHASE_SLI_TEST_POSTGRES_URL (scripts/test-postgres.sh start DIR prints it)"))
struct PostgresBucketChangesTests {
    private static let minute = seconds("2026-11-14T08:00:00Z")

    @Test func everyNodesWritesAreReportedAlsoWhenTheyCommitLate() async throws {
        let url = try await TestPostgres.newDatabase()
        let (reader, otherNode) = (try await Self.store(url), try await Self.store(url))
        _ = try await reader.record([Self.event("a", minute: 0)], receivedAtMillis: receivedAt)
        let first = try await reader.bucketChanges(since: nil)
        #expect(first.mark != nil && first.spans == nil, "no mark asked: everything may have changed")

        // A transaction that begins now and commits after the next node's write and the next question.
        var second = BucketChanges.unknown
        let lateMinute = Self.minute + 30 * 60
        try await TestPostgres.inOpenTransaction(
            ["INSERT INTO bucket_change (from_time, to_time) VALUES (\(lateMinute), \(lateMinute + 60))"], in: url
        ) {
            _ = try await otherNode.record([Self.event("b", minute: 5)], receivedAtMillis: receivedAt)
            second = try await reader.bucketChanges(since: first.mark)
        }
        // A mark is the oldest transaction running anywhere on the server (the other tests' too), so a change
        // may be reported again; none is left out.
        let written = [Self.minute..<(Self.minute + 60), (Self.minute + 300)..<(Self.minute + 360), lateMinute..<(lateMinute + 60)]
        #expect(second.spans?.contains(written[1]) == true, "the other node's write: \(String(describing: second.spans))")
        #expect(second.spans?.contains(written[2]) == false, "not the one still open")
        let third = try await reader.bucketChanges(since: second.mark)
        #expect(third.spans?.contains(written[2]) == true, "the transaction that committed late: \(String(describing: third.spans))")
        let quiet = try await reader.bucketChanges(since: third.mark)
        #expect(quiet.spans?.allSatisfy(written.contains) == true, "nothing but what was written: \(String(describing: quiet.spans))")

        // A prune notes the minutes it drops (those past the 3-hour retention).
        _ = try await reader.record([Self.event("c", minute: 6 * 60)], receivedAtMillis: receivedAt)
        try await reader.prune(nowMillis: receivedAt)
        let dropped = try await reader.bucketChanges(since: quiet.mark)
        #expect(
            dropped.spans?.contains { $0.contains(Self.minute) && $0.contains(Self.minute + 300) } == true, "\(String(describing: dropped.spans))")
        #expect(dropped.spans?.contains { $0.contains(Self.minute + 6 * 3600) } == true, "the write after the mark")

        // Once a change after a mark is pruned (all but the latest 100,000 are), the mark gets "unknown".
        try await TestPostgres.run(
            ["INSERT INTO bucket_change (from_time, to_time) SELECT \(Self.minute), \(Self.minute + 60) FROM generate_series(1, 100001)"],
            in: url)
        try await reader.prune(nowMillis: receivedAt)
        let afterPrune = try await reader.bucketChanges(since: dropped.mark)
        #expect(afterPrune.mark != nil && afterPrune.spans == nil, "changes after the mark were pruned")
    }

    private static func store(_ url: String) async throws -> PostgresBucketStore {
        var configuration = StoreConfiguration.default
        configuration.minuteRetentionSeconds = 3 * 3600
        return try await PostgresBucketStore(url: PostgresURL(url), configuration: configuration, timeout: TestPostgres.callTimeout)
    }

    private static func event(_ id: String, minute offset: Int64) -> PurchaseEvent {
        PurchaseEvent(
            eventID: id, timestampMillis: (minute + offset * 60) * 1000, productID: "coins_100", actionType: .purchase, resultType: .success)
    }
}
#endif
