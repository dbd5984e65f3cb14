import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering
import Testing

@Suite struct AlertCostTextTests {
    /// An estimate of purchases lost worth USD and JPY.
    private func lost() throws -> LostPurchases {
        var window = OutcomeCounts()
        window.start = 100
        window.success = 50
        window.failure = 50
        var baseline = OutcomeCounts()
        baseline.start = 1000
        baseline.success = 990
        baseline.failure = 10
        let coins = LostPurchases.Product(productID: "coins", planID: nil)
        let yen = LostPurchases.Product(productID: "coins_jp", planID: nil)
        return try #require(
            LostPurchases.estimate(
                window: [coins: window, yen: window], baseline: [coins: baseline, yen: baseline], baselineDays: 7, target: 0.99,
                prices: [
                    ProductPrice(productID: "coins", planID: nil, price: 1.99, currency: "USD", seenMillis: 0),
                    ProductPrice(productID: "coins_jp", planID: nil, price: 300, currency: "JPY", seenMillis: 0),
                ]))
    }

    /// Each part is said with its money per currency; the total adds each currency to itself only.
    @Test func partsAreSaidApartAndTheTotalIsPerCurrency() throws {
        let estimate = try lost()
        let cost = AlertCost(
            lost: ["purchase": estimate], ungranted: ChargeTally(count: 3, worth: ["USD": 14.97]), refunded: nil)
        let text = cost.text(isOver: false).rendered(.terminal)
        #expect(text.hasPrefix("cost so far: ≈ 98 purchases ("), "\(text)")
        #expect(text.contains("3 charges taken and not granted, 14.97 USD (in full)"), "\(text)")
        let usd = (estimate.worth["USD"] ?? 0) + 14.97
        let jpy = estimate.worth["JPY"] ?? 0
        #expect(
            text.contains(": ≈ \(NumberText.money(jpy, currency: "JPY")) + \(NumberText.money(usd, currency: "USD")) in all"), "\(text)")
        #expect(text.hasSuffix("(estimated against the same hours of the previous 7 days)"), "\(text)")
        #expect(cost.worth == ["USD": usd, "JPY": jpy])
    }

    /// Charges alone are not estimated: no interval, no basis, "cost:" once over.
    @Test func chargesAloneAreCountedWithoutAnEstimate() {
        let cost = AlertCost(ungranted: ChargeTally(count: 1, worth: ["EUR": 4.99]))
        #expect(cost.text(isOver: true).rendered(.terminal) == "cost: 1 charge taken and not granted, 4.99 EUR (in full)")
        #expect(AlertCost(refunded: ChargeTally(count: 2, worth: [:])).summary().rendered(.terminal) == "2 refunds (in full)")
    }

    /// Taking out charges the estimate also counted lowers purchases and money, never below zero.
    @Test func removingChargesCountedElsewhereNeverGoesBelowZero() throws {
        let estimate = try lost()
        let less = estimate.removing(10, worth: ["USD": 19.9])
        #expect(abs(less.purchases - (estimate.purchases - 10)) < 1e-9)
        #expect(abs((less.worth["USD"] ?? 0) - ((estimate.worth["USD"] ?? 0) - 19.9)) < 1e-9)
        #expect(estimate.removing(10_000, worth: ["USD": 1e9]).purchases == 0)
        #expect(estimate.removing(10_000, worth: ["USD": 1e9]).worth["USD"] == nil)
    }
}
