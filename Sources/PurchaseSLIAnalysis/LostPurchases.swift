import Foundation
public import PurchaseSLICore

/// What failures cost over a stretch of time: the attempts that failed and would have succeeded at the
/// usual success rate, with a 95 % interval, and their worth at each product's latest price. Pure: the
/// caller reads the counts of the stretch and of the same hours of the previous days.
///
/// Per product and plan, the expected successes are its attempts (`start` events; valid events where the
/// events have no starts) times the usual successes per attempt: its own over the baseline when that holds
/// ``minimumBaselineEvents`` attempts, else the action's (pooled over its products); else, when the
/// baseline holds too few, its valid events times the objective's target. The interval adds the binomial
/// noise of what would have happened (n × p × (1 − p)) to the uncertainty of the rate itself
/// (n² × p × (1 − p) / baseline attempts), per product, normally approximated.
public struct LostPurchases: Sendable, Hashable, Codable {
    /// Where the usual rate came from.
    public enum Basis: Sendable, Hashable, Codable {
        /// The same hours of this many previous days.
        case previousDays(Int)
        /// The objective's target, the baseline holding too few events.
        case objective(Double)
    }

    /// A product and plan, as counted.
    public struct Product: Sendable, Hashable, Codable {
        /// The product.
        public var productID: String?
        /// The plan.
        public var planID: String?

        /// Creates a key.
        public init(productID: String?, planID: String?) {
            self.productID = productID
            self.planID = planID
        }
    }

    /// Fewest baseline valid events a product's own rate needs; fewer, and the action's rate stands in.
    public static let minimumBaselineEvents: Int64 = 100

    /// Purchases lost, the point estimate (never below zero).
    public var purchases: Double
    /// Its 95 % interval (bounds never below zero).
    public var interval: ClosedRange<Double>
    /// Where the usual rate came from.
    public var basis: Basis
    /// Their worth per currency, at each product's (and plan's) latest price (currencies that come to no
    /// loss left out).
    public var worth: [String: Double]
    /// Lost purchases of products without a known price, not in ``worth``.
    public var unpriced: Double
    /// Whether the products were priced at all (purchases are; restores and retries are not).
    public var isPriced: Bool
    /// The variance of ``purchases``, which the interval is drawn from.
    private var variance: Double

    /// The estimate for counts of `window` against `baseline` (the same hours of `baselineDays` previous
    /// days, summed), the objective's `target` (a rate in [0, 1]) standing in for a thin baseline, priced
    /// at `prices` (nil: not priced at all); nil when the window holds no valid event or nothing says what
    /// rate to expect.
    public static func estimate(
        window: [Product: OutcomeCounts], baseline: [Product: OutcomeCounts], baselineDays: Int, target: Double?,
        prices: [ProductPrice]?
    ) -> LostPurchases? {
        let current = window.values.reduce(OutcomeCounts()) { $0 + $1 }
        guard current.valid > 0 else { return nil }
        let pooled = baseline.values.reduce(OutcomeCounts()) { $0 + $1 }
        // Attempts are the trials where the events count them (a failure verified again and granted is one
        // attempt, not a lost purchase); else, and against the objective, valid events.
        let byAttempts = pooled.attempts >= minimumBaselineEvents && current.attempts > 0
        func trials(_ counts: OutcomeCounts) -> Int64 { byAttempts ? counts.attempts : counts.valid }
        func rate(_ counts: OutcomeCounts) -> Double? { byAttempts ? counts.successRatePerAttempt : counts.successRate }
        let basis: Basis
        let actionRate: (rate: Double, events: Int64)
        if trials(pooled) >= minimumBaselineEvents, let pooledRate = rate(pooled) {
            (basis, actionRate) = (.previousDays(baselineDays), (pooledRate, trials(pooled)))
        } else if let target {
            return objectiveEstimate(window: window, target: target, prices: prices)
        } else {
            return nil
        }
        var purchases = 0.0
        var variance = 0.0
        var worth: [String: Double] = [:]
        var unpriced = 0.0
        for (product, counts) in Self.byProduct(window) where trials(counts) > 0 {
            let own = baseline[product].flatMap { own in trials(own) >= minimumBaselineEvents ? rate(own).map { ($0, trials(own)) } : nil }
            let (usual, events) = own ?? actionRate
            add(
                trials: Double(trials(counts)), rate: usual, rateEvents: events, good: counts.good,
                price: prices.map { latestPrice(of: product, among: $0) }, to: &purchases, &variance, &worth, &unpriced)
        }
        return LostPurchases(purchases: purchases, variance: variance, basis: basis, worth: worth, unpriced: unpriced, isPriced: prices != nil)
    }

    /// The estimate against the objective's `target`, per valid event.
    private static func objectiveEstimate(window: [Product: OutcomeCounts], target: Double, prices: [ProductPrice]?) -> LostPurchases {
        var purchases = 0.0
        var variance = 0.0
        var worth: [String: Double] = [:]
        var unpriced = 0.0
        for (product, counts) in byProduct(window) where counts.valid > 0 {
            add(
                trials: Double(counts.valid), rate: target, rateEvents: 0, good: counts.good,
                price: prices.map { latestPrice(of: product, among: $0) }, to: &purchases, &variance, &worth, &unpriced)
        }
        return LostPurchases(
            purchases: purchases, variance: variance, basis: .objective(target), worth: worth, unpriced: unpriced, isPriced: prices != nil)
    }

    /// `window`'s products in the order of their ids and plans: the sums of an estimate are made in one
    /// order, so that the same counts give the same figure to the last digit (a stored record equals its
    /// rebuild).
    private static func byProduct(_ window: [Product: OutcomeCounts]) -> [(key: Product, value: OutcomeCounts)] {
        window.sorted { ($0.key.productID ?? "", $0.key.planID ?? "") < ($1.key.productID ?? "", $1.key.planID ?? "") }
    }

    /// Adds one product's expected successes less its actual ones, their variance (what would have
    /// happened, and the usual rate's own uncertainty when measured over `rateEvents`) and their worth at
    /// `price` (nil: not priced; `.some(nil)`: no price known).
    private static func add(
        trials: Double, rate: Double, rateEvents: Int64, good: Int64, price: ProductPrice??,
        to purchases: inout Double, _ variance: inout Double, _ worth: inout [String: Double], _ unpriced: inout Double
    ) {
        let lost = trials * rate - Double(good)
        purchases += lost
        // The rate's spread from rule-of-three-like smoothing, so that a usual rate of 100 % still has one.
        let spread = rateEvents > 0 ? (rate * Double(rateEvents) + 1) / (Double(rateEvents) + 2) : rate
        let noise = spread * (1 - spread)
        variance += trials * noise + (rateEvents > 0 ? trials * trials * noise / Double(rateEvents) : 0)
        // A product that did better than usual offsets one that did worse, in money as in purchases.
        switch price {
        case .some(.some(let price)): worth[price.currency, default: 0] += lost * price.price
        case .some(.none): unpriced += lost
        case .none: break
        }
    }

    /// An estimate of `purchases` with `variance`, its 95 % interval normally approximated (half an event
    /// wider each side, for the counts' discreteness), nothing below zero.
    init(purchases: Double, variance: Double, basis: Basis, worth: [String: Double], unpriced: Double, isPriced: Bool) {
        self.isPriced = isPriced
        let margin = 1.96 * variance.squareRoot() + 0.5
        self.purchases = max(0, purchases)
        self.variance = variance
        interval = max(0, purchases - margin)...max(0, purchases + margin)
        self.basis = basis
        self.worth = worth.filter { $0.value > 0 }
        self.unpriced = max(0, unpriced)
    }

    /// The estimate less `count` of its lost purchases worth `worth` that are counted elsewhere (charges
    /// taken and not granted, whose failures it also counts), the interval kept as wide.
    public func removing(_ count: Int, worth removed: [String: Double]) -> LostPurchases {
        var worth = self.worth
        for (currency, amount) in removed { worth[currency, default: 0] -= amount }
        return LostPurchases(
            purchases: purchases - Double(count), variance: variance, basis: basis, worth: worth.mapValues { max(0, $0) }, unpriced: unpriced,
            isPriced: isPriced)
    }

    /// The latest price of the product and plan, else the latest of the product under any plan.
    public static func latestPrice(of product: Product, among prices: [ProductPrice]) -> ProductPrice? {
        let ofProduct = prices.filter { $0.productID == product.productID }
        return (ofProduct.filter { $0.planID == product.planID }.max { $0.seenMillis < $1.seenMillis })
            ?? ofProduct.max { $0.seenMillis < $1.seenMillis }
    }
}

extension LostPurchases {
    /// "≈ 57 purchases (41–73) that would have succeeded, ≈ 56.43 USD + 9,120.00 JPY"; restores and retries
    /// (of `action`) are counted as such.
    public func summary(of action: String) -> AlertText {
        let lost = Int64(purchases.rounded())
        let noun = action == ActionType.retry.rawValue ? (lost == 1 ? "retry" : "retries") : lost == 1 ? action : action + "s"
        // An action the events validated is the product's own word, not a value to set apart.
        let nounText: AlertText = ActionType.isValidToken(action) ? "\(words: noun)" : "\(noun)"
        var text: AlertText =
            "≈ \(count: lost) " + nounText + " "
            + "(\(count: Int64(interval.lowerBound.rounded()))–\(count: Int64(interval.upperBound.rounded()))) that would have succeeded"
        if let amounts = AlertText.amounts(worth) { text = text + ", ≈ " + amounts }
        if unpriced >= 0.5 {
            text = text + " (\(count: Int64(unpriced.rounded())) of them of products without a known price)"
        } else if worth.isEmpty, lost > 0, isPriced {
            text = text + " (worth nothing net: the products that did better than usual are worth as much or more)"
        } else if worth.isEmpty, lost > 0, action == ActionType.retry.rawValue {
            text = text + " (not priced: a retry sends again what was charged before, and may be one of many of one charge)"
        } else if worth.isEmpty, lost > 0, action == ActionType.restore.rawValue {
            text = text + " (not priced: a restore grants what was bought before)"
        }
        return text
    }
}
