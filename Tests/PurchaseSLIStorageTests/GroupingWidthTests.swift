import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// A query's grouping holds each series' group in a byte, two or four (by how many groups it has): at
/// each width's edge every group still counts its own events, and the series a filter leaves out count in
/// none, also when two filtered queries share one scan.
@Suite struct GroupingWidthTests {
    @Test(arguments: [1, 255, 256, 65_536])
    func everyGroupCountsItsOwnEventsAtEachWidth(groups: Int) async throws {
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = 2 * groups + 10
        configuration.totalCardinalityCap = configuration.cardinalityCap
        configuration.seriesCap = configuration.cardinalityCap
        configuration.totalSeriesCap = configuration.cardinalityCap
        let store = InMemoryBucketStore(configuration: configuration)
        // Each purchased product once, the last one twice more; as many restored products, filtered out below.
        let purchases = (0..<groups).map { event("p\($0)", at: "2026-11-14T08:00:00Z", product: "p\($0)") }
        let extra = (0..<2).map { event("again\($0)", at: "2026-11-14T08:30:00Z", product: "p\(groups - 1)") }
        let restores = (0..<groups).map { event("r\($0)", at: "2026-11-14T08:10:00Z", product: "r\($0)", action: .restore, result: .failure) }
        _ = try await store.record(purchases + extra + restores, receivedAtMillis: receivedAt)

        let (from, to) = (seconds("2026-11-14T08:00:00Z"), seconds("2026-11-14T09:00:00Z"))
        let bought = CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.productID], filters: [.actionType: ["purchase"]])
        let restored = CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.productID], filters: [.actionType: ["restore"]])
        let rows = try await store.counts([bought, restored])

        let expectedBought = Dictionary(uniqueKeysWithValues: (0..<groups).map { (["p\($0)"], Int64($0 == groups - 1 ? 3 : 1)) })
        #expect(Dictionary(uniqueKeysWithValues: rows[0].map { ($0.key, $0.counts.success) }) == expectedBought)
        #expect(rows[0].allSatisfy { $0.counts.failure == 0 })
        let expectedRestored = Dictionary(uniqueKeysWithValues: (0..<groups).map { (["r\($0)"], Int64(1)) })
        #expect(Dictionary(uniqueKeysWithValues: rows[1].map { ($0.key, $0.counts.failure) }) == expectedRestored)
        #expect(rows[1].allSatisfy { $0.counts.success == 0 })
    }
}
