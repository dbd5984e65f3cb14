import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// The count query that `purchase-sli query` and `GET /v1/query` both answer through.
@Suite struct CountQueryingTests {
    private let start: Int64 = 1_795_000_000

    private func store() async throws -> InMemoryBucketStore {
        let store = InMemoryBucketStore()
        let events = (0..<6).map { (index: Int) -> PurchaseEvent in
            let failing = index % 3 == 0
            return PurchaseEvent(
                eventID: "e\(index)", timestampMillis: (start + Int64(index) * 60) * 1000, productID: index < 4 ? "coins_100" : "premium",
                actionType: .purchase, resultType: failing ? .failure : .success, errorDescription: failing ? "verification failed: 503" : nil)
        }
        _ = try await store.record(events, receivedAtMillis: start * 1000)
        return store
    }

    @Test func outcomeCountsPerProduct() async throws {
        let query = CountQuery(fromSeconds: start, toSeconds: start + 3600, groupBy: [.productID])
        guard case .outcomes(let rows) = try await CountQuerying(store: try store()).events(query) else {
            Issue.record("a query about outcomes answered with error descriptions")
            return
        }
        #expect(rows.map(\.key) == [["coins_100"], ["premium"]], "\(rows)")
        #expect(rows.map(\.counts.total) == [4, 2] && rows.map(\.counts.success) == [2, 2], "\(rows)")
        #expect(rows.allSatisfy { $0.timeSeconds == nil }, "no step: one row per group over the range")
    }

    @Test func groupedByErrorDescriptionItCountsTheEventsThatCarriedEach() async throws {
        let query = CountQuery(fromSeconds: start, toSeconds: start + 3600, groupBy: [.errorDescription])
        guard case .errors(let rows) = try await CountQuerying(store: try store()).events(query) else {
            Issue.record("a query by error description answered with outcome counts")
            return
        }
        #expect(rows == [ErrorCountRow(timeSeconds: nil, key: ["verification failed: 503"], events: 2)], "\(rows)")
    }
}
