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
        let csv = try await CountQuerying(store: try store()).events(query).csv.split(separator: "\n")
        #expect(csv.count == 3, "\(csv)")
        let time = RFC3339.format(seconds: start)
        #expect(csv[1].hasPrefix("\(time),coins_100,4,") && csv[2].hasPrefix("\(time),premium,2,"), "\(csv)")
    }

    @Test func groupedByErrorDescriptionItCountsTheEventsThatCarriedEach() async throws {
        let query = CountQuery(fromSeconds: start, toSeconds: start + 3600, groupBy: [.errorDescription])
        let csv = try await CountQuerying(store: try store()).events(query).csv
        #expect(csv == "time,errorDescription,count\n\(RFC3339.format(seconds: start)),verification failed: 503,2\n", "\(csv)")
    }
}
