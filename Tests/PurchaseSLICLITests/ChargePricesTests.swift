import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// A product whose events carry no price is priced at its latest App Store charge of the week before; a
/// product the events price keeps the events' price; older charges and Play's (which carry no price) say
/// nothing.
@Suite struct ChargePricesTests {
    private func charge(_ index: Int, product: String, price: Double?, atMillis: Int64) -> StoreNotification {
        StoreNotification(
            store: .apple, notificationID: "00000000-0000-4000-8000-\(String(format: "%012d", index))", environment: "Production",
            appID: "com.example.app", type: "ONE_TIME_CHARGE", kind: .charge, signedMillis: atMillis, transactionID: "2000000\(index)",
            originalTransactionID: "2000000\(index)", productID: product, purchaseMillis: atMillis, price: price, currency: price == nil ? nil : "USD"
        )
    }

    @Test func aProductNoEventPricedTakesItsLatestChargesAmount() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let now = RFC3339.parseMillis("2026-11-20T00:00:00Z")!
        var priced = PurchaseEvent(
            eventID: "e1", timestampMillis: now - 3_600_000, productID: "coins_100", actionType: .purchase, resultType: .success)
        priced.price = 0.99
        priced.currency = "USD"
        let unpriced = PurchaseEvent(
            eventID: "e2", timestampMillis: now - 3_600_000, productID: "coins_500", actionType: .purchase, resultType: .success)
        _ = try await store.record([priced, unpriced], receivedAtMillis: now)
        _ = try await store.record(
            [
                charge(1, product: "coins_500", price: 4.49, atMillis: now - 3 * 86_400_000),
                charge(2, product: "coins_500", price: 4.99, atMillis: now - 86_400_000),
                charge(3, product: "coins_100", price: 1.29, atMillis: now - 86_400_000),
                charge(4, product: "coins_old", price: 9.99, atMillis: now - 8 * 86_400_000),
                charge(5, product: "coins_free", price: nil, atMillis: now - 86_400_000),
            ], receivedAtMillis: now)
        let prices = try await store.knownPrices(before: now)
        #expect(prices.map { "\($0.productID) \($0.price) \($0.currency)" }.sorted() == ["coins_100 0.99 USD", "coins_500 4.99 USD"])
    }
}
