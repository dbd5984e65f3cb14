public import PurchaseSLICore

/// What each product's events weigh in a revenue-weighted objective (``SLOPolicy/ObjectiveWeight/revenue``):
/// its latest price in the reporting currency. Pure.
///
/// Weighted counts are in effective events: each product's counts times its price times one constant,
/// Σ price / Σ price² over the products priced, so that with traffic spread evenly over them the valid
/// total is the Kish effective sample size (Σ w)² / Σ w² of the events weighted. A weighted success rate
/// is then the share of revenue that succeeded, and the binomial tests the burn-rate rules make on it keep
/// their meaning: one failure of a plan 30 times the price of a coin pack counts 30 times as much, without
/// the tests reading 30 failures. The constant depends on the prices alone, not on the range read, so a
/// live evaluation weighs as a backtest does. Products without a price in the reporting currency (none
/// known, or a currency without a rate) count for nothing and are counted apart.
public struct RevenueWeights: Sendable {
    /// The currency the weights are in.
    public let currency: String
    /// The events' latest prices.
    private let prices: [ProductPrice]
    /// Units of ``currency`` per unit of each currency that can be converted (itself included).
    private let rates: [String: Double]
    /// Σ price / Σ price² over the latest price of each product and plan that can be priced.
    private var scale: Double

    /// Weights from `prices` (the events' latest prices), in `policy`'s reporting currency converted at
    /// its exchange rates, or, without one, the one currency every price is in; nil when the prices are
    /// in several currencies and the policy names no reporting currency, or none is known.
    public init?(prices: [ProductPrice], policy: SLOPolicy) {
        let currencies = Set(prices.map(\.currency))
        guard let currency = policy.reportingCurrency ?? (currencies.count == 1 ? currencies.first : nil) else { return nil }
        self.currency = currency
        self.prices = prices
        rates = policy.exchangeRates.merging([currency: 1]) { _, own in own }
        scale = 1
        let priced = Set(prices.map { LostPurchases.Product(productID: $0.productID, planID: $0.planID) }).compactMap(price).filter { $0 > 0 }
        let squares = priced.reduce(0) { $0 + $1 * $1 }
        guard squares > 0 else { return nil }
        scale = priced.reduce(0, +) / squares
    }

    /// The price of `product` in ``currency``, or nil.
    public func price(of product: LostPurchases.Product) -> Double? {
        LostPurchases.latestPrice(of: product, among: prices).flatMap { price in rates[price.currency].map { price.price * $0 } }
    }

    /// The weighted counts of `counts` (per product and plan), and the valid events of products that
    /// could not be priced (left out).
    public func weighted(_ counts: [LostPurchases.Product: OutcomeCounts]) -> (counts: OutcomeCounts, unpriced: Int64) {
        var total = WeightedCounts()
        var unpriced: Int64 = 0
        for (product, counts) in counts {
            guard let price = price(of: product), price > 0 else {
                unpriced += counts.valid
                continue
            }
            total.add(counts, weight: price * scale)
        }
        return (total.rounded, unpriced)
    }

    /// The weighted minute series of an action from its products' minutes with events (step i being the
    /// minute at `startSeconds + 60 i`). Each product's running totals are rounded, so that any window's
    /// weighted counts are within one event per product of the exact ones.
    public func weightedSeries(
        labels: SeriesLabels, startSeconds: Int64, minuteCount: Int, products: [LostPurchases.Product: StepCounts]
    ) -> MinuteSeries {
        var minutes = [OutcomeCounts](repeating: OutcomeCounts(), count: minuteCount)
        for (product, perMinute) in products {
            guard let price = price(of: product), price > 0 else { continue }
            var running = WeightedCounts()
            var previous = OutcomeCounts()
            for (step, counts) in zip(perMinute.steps, perMinute.counts) where step < minuteCount {
                running.add(counts, weight: price * scale)
                let now = running.rounded
                minutes[Int(step)] += now - previous
                previous = now
            }
        }
        return MinuteSeries(labels: labels, startSeconds: startSeconds, minutes: minutes)
    }
}

/// Outcome counts in fractions of an event, rounded to whole effective events at the end.
private struct WeightedCounts {
    var start = 0.0, success = 0.0, alreadyGranted = 0.0, failure = 0.0, cancel = 0.0, pending = 0.0

    mutating func add(_ counts: OutcomeCounts, weight: Double) {
        start += Double(counts.start) * weight
        success += Double(counts.success) * weight
        alreadyGranted += Double(counts.alreadyGranted) * weight
        failure += Double(counts.failure) * weight
        cancel += Double(counts.cancel) * weight
        pending += Double(counts.pending) * weight
    }

    var rounded: OutcomeCounts {
        var counts = OutcomeCounts()
        counts.start = Int64(start.rounded())
        counts.success = Int64(success.rounded())
        counts.alreadyGranted = Int64(alreadyGranted.rounded())
        counts.failure = Int64(failure.rounded())
        counts.cancel = Int64(cancel.rounded())
        counts.pending = Int64(pending.rounded())
        return counts
    }
}
