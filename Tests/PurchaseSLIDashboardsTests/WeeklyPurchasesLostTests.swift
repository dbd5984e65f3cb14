import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// The weekly review in money: a slow burn on one offer, too small to move the purchase rate off its
/// objective, is named with the purchases it lost and their worth; an offer as good as the others is not.
@Suite struct WeeklyPurchasesLostTests {
    /// `count` purchases of `product` (priced `price` USD) under `offer`, one every 2 minutes from
    /// 2026-11-16, the first `failures` of them failing.
    private func purchases(
        _ count: Int, failures: Int, offer: String, product: String, price: Double, prefix: String
    ) -> [PurchaseEvent] {
        let origin = RFC3339.parseMillis("2026-11-16T00:00:00Z")!
        return (0..<count).map { index in
            var event = PurchaseEvent(
                eventID: "\(prefix)-\(index)", timestampMillis: origin + Int64(index) * 120_000 + Int64(prefix.count) * 1000,
                productID: product, offerID: offer, actionType: .purchase, resultType: index < failures ? .failure : .success,
                errorDescription: index < failures ? "verification failed: 400 offer expired" : nil)
            event.price = price
            event.currency = "USD"
            return event
        }
    }

    @Test func aSlowBurnOnOneOfferIsNamedWithWhatItLost() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        // 4,000 purchases at 99.8 % on the intro offer, 1,000 at 96.8 % on winback-50 (29.99 USD): 99.2 % in
        // all, over the 99 % objective.
        _ = try await store.record(
            purchases(4000, failures: 8, offer: "intro", product: "premium_yearly", price: 29.99, prefix: "a")
                + purchases(1000, failures: 32, offer: "winback-50", product: "premium_yearly", price: 29.99, prefix: "bb"),
            receivedAtMillis: 0)
        let report = try await WeeklyReport(week: ISOWeek(parsing: "2026-W47")!, store: store, policy: .default, episodes: [])
        #expect(report.actions.first { $0.actionType == "purchase" }?.metObjective == true)
        let winback = try #require(report.purchasesLost.first { $0.slice == SeriesLabels.Slice(dimension: .offerID, value: "winback-50") })
        // 1,000 valid × 99 % − 968 successes = 22 lost beyond the objective, at 29.99 USD each.
        #expect(abs(winback.lost.purchases - 22) < 1e-6 && winback.lost.interval.lowerBound > 0)
        #expect(abs((winback.lost.worth["USD"] ?? 0) - 22 * 29.99) < 1e-6)
        #expect(!report.purchasesLost.contains { $0.slice.value == "intro" })
        #expect(!report.purchasesLost.contains { $0.slice.dimension == .productID }, "the product as a whole meets the objective")
        let markdown = report.markdown
        #expect(markdown.contains("| offerID=winback\\-50 | 1,000 | 96.8 % | ≈ 22 ("), "\(markdown)")
        #expect(markdown.contains("the most in offerID=winback\\-50: ≈ 22 ("))
        let page = report.document(navigation: [], generatedAtSeconds: 0).rendered
        #expect(page.contains("<h2>What failures cost</h2>") && page.contains("<td class=\"text\">offerID=winback-50</td>"))
        #expect(page.contains("659.78 USD"))
    }
}
