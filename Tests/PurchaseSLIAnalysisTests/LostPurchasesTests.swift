import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

private typealias Product = LostPurchases.Product

private func counts(success: Int64, failure: Int64) -> OutcomeCounts {
    var counts = OutcomeCounts()
    counts.success = success
    counts.failure = failure
    return counts
}

private func price(_ product: String, _ amount: Double, _ currency: String, plan: String? = nil) -> ProductPrice {
    ProductPrice(productID: product, planID: plan, price: amount, currency: currency, seenMillis: 0)
}

@Suite struct LostPurchasesTests {
    /// An outage whose lost purchases are known by construction: every attempt (a start, then a success or
    /// a failure) draws what would have happened at its product's usual rate, and the outage fails 60 % of
    /// them whatever they would have done; the truth is the successes it took. The 95 % interval covers it
    /// in at least 95 % of the seeds.
    @Test func theIntervalCoversTheTruthInAtLeast95PercentOfSeededOutages() throws {
        let products = [(Product(productID: "coins_100", planID: nil), 0.99, 60), (Product(productID: "premium", planID: "pro"), 0.95, 25)]
        var covered = 0
        let runs = 400
        for seed in 0..<UInt64(runs) {
            var random = SplitMix(seed: seed)
            var window: [Product: OutcomeCounts] = [:]
            var baseline: [Product: OutcomeCounts] = [:]
            var truth = 0
            for (product, rate, perHour) in products {
                // 7 previous days of the same 2 hours, then the 2 hours of the outage.
                for _ in 0..<(7 * 2 * perHour) {
                    baseline[product, default: OutcomeCounts()].add(.start, statusCode: nil)
                    baseline[product, default: OutcomeCounts()].add(random.unit() < rate ? .success : .failure, statusCode: nil)
                }
                for _ in 0..<(2 * perHour) {
                    let wouldSucceed = random.unit() < rate
                    let failedByOutage = random.unit() < 0.6
                    if wouldSucceed && failedByOutage { truth += 1 }
                    window[product, default: OutcomeCounts()].add(.start, statusCode: nil)
                    window[product, default: OutcomeCounts()].add(wouldSucceed && !failedByOutage ? .success : .failure, statusCode: nil)
                }
            }
            let estimate = try #require(
                LostPurchases.estimate(window: window, baseline: baseline, baselineDays: 7, target: 0.99, prices: []))
            #expect(estimate.basis == .previousDays(7))
            if estimate.interval.contains(Double(truth)) { covered += 1 }
        }
        #expect(Double(covered) / Double(runs) >= 0.95, "covered \(covered) of \(runs)")
    }

    @Test func eachProductIsJudgedByItsOwnUsualRateAndPricedInItsCurrency() throws {
        let coins = Product(productID: "coins_100", planID: nil)
        let yen = Product(productID: "gems_jp", planID: nil)
        let unpriced = Product(productID: "bundle", planID: nil)
        let baseline = [
            coins: counts(success: 990, failure: 10), yen: counts(success: 900, failure: 100), unpriced: counts(success: 1000, failure: 0),
        ]
        // coins lose 50 of 100 expected at 99 %; gems at its usual 90 % lose nothing; the bundle loses 10.
        let window = [coins: counts(success: 49, failure: 51), yen: counts(success: 90, failure: 10), unpriced: counts(success: 10, failure: 10)]
        let estimate = try #require(
            LostPurchases.estimate(
                window: window, baseline: baseline, baselineDays: 7, target: 0.99,
                prices: [price("coins_100", 0.99, "USD"), price("gems_jp", 160, "JPY")]))
        #expect(abs(estimate.purchases - 60) < 1e-9)
        #expect(abs(estimate.worth["USD", default: 0] - 50 * 0.99) < 1e-9)
        #expect(estimate.worth["JPY"] == nil)
        #expect(abs(estimate.unpriced - 10) < 1e-9)
        #expect(estimate.interval.lowerBound < 60 && estimate.interval.upperBound > 60)
    }

    @Test func aThinBaselineFallsBackToTheObjectiveAndNothingToGoByGivesNoEstimate() throws {
        let product = Product(productID: "coins_100", planID: nil)
        let window = [product: counts(success: 50, failure: 50)]
        let thin = [product: counts(success: 20, failure: 0)]
        let estimate = try #require(LostPurchases.estimate(window: window, baseline: thin, baselineDays: 7, target: 0.99, prices: []))
        #expect(estimate.basis == .objective(0.99))
        #expect(abs(estimate.purchases - 49) < 1e-9)
        #expect(LostPurchases.estimate(window: window, baseline: thin, baselineDays: 7, target: nil, prices: []) == nil)
        #expect(LostPurchases.estimate(window: [:], baseline: thin, baselineDays: 7, target: 0.99, prices: []) == nil)
    }

    @Test func aPlansOwnPriceComesFirstThenItsProducts() {
        let prices = [
            price("premium", 9.99, "USD", plan: "pro-monthly"), price("premium", 99.99, "USD", plan: "pro-yearly"),
            ProductPrice(productID: "premium", planID: "pro-monthly", price: 7.99, currency: "USD", seenMillis: 5),
        ]
        #expect(LostPurchases.latestPrice(of: Product(productID: "premium", planID: "pro-monthly"), among: prices)?.price == 7.99)
        #expect(LostPurchases.latestPrice(of: Product(productID: "premium", planID: nil), among: prices)?.price == 7.99)
        #expect(LostPurchases.latestPrice(of: Product(productID: "coins", planID: nil), among: prices) == nil)
    }
}
