import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// A grant audit read from a store: of the 7 days before its span it reads only the grants a repeat can
/// repeat, and finds every repeat the whole history holds.
@Suite struct GrantAuditReadTests {
    @Test("the grants before the span: every repeat found at the edges of the 7 days, none beyond")
    func repeatsAcrossTheSpansStart() throws {
        let store = InMemoryBucketStore()
        let from = RFC3339.parseMillis("2026-11-20T00:00:00Z")!
        let (hour, day): (Int64, Int64) = (3_600_000, 86_400_000)
        func grant(_ id: String, _ transaction: String, at millis: Int64) -> PurchaseEvent {
            var event = PurchaseEvent(
                eventID: id, timestampMillis: millis, productID: "coins_100", planID: nil, actionType: .purchase, resultType: .success,
                statusCode: 200, appVersion: "4.12.0")
            event.transactionID = transaction
            return event
        }
        _ = try store.record(
            [
                // Granted an hour before the span, again within 7 days of it: repeats.
                grant("a1", "2000000000000001", at: from - hour), grant("a2", "2000000000000001", at: from + 7 * day - 2 * hour),
                // Granted an hour before the span, again 7 days and an hour later: not a repeat.
                grant("b1", "2000000000000002", at: from - hour), grant("b2", "2000000000000002", at: from + 7 * day),
                // Granted in the span and again within 7 days, after the span's first 7 days: repeats.
                grant("c1", "2000000000000003", at: from + 6 * day), grant("c2", "2000000000000003", at: from + 8 * day),
                // Granted 6 days before the span, again at its first millisecond: repeats.
                grant("d1", "2000000000000004", at: from - 6 * day), grant("d2", "2000000000000004", at: from),
            ], receivedAtMillis: from + 9 * day)
        let audit = try store.grantAudit(
            fromMillis: from, toMillis: from + 9 * day, ledger: .empty, activity: .empty, rule: SLOPolicy.ReconciliationRule())
        #expect(audit.repeats.map { "\($0.grant.record.eventID) of \($0.first.eventID)" } == ["d2 of d1", "a2 of a1", "c2 of c1"])
        #expect(audit.grants.map(\.record.eventID) == ["d2", "c1", "a2", "b2", "c2"])
    }
}
