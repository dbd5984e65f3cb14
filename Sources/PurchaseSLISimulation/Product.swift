/// A store product sold by the simulated app, with its server plan and how people buy it.
struct Product: Sendable {
    /// An offer some purchases of the product use.
    struct Offer: Sendable {
        let offerID: String
        let probability: Double
    }

    let productID: String
    let planID: String
    let groupID: String?
    /// The server's answer on a successful grant.
    let grantDescription: String
    /// Share of purchases cancelled in the payment sheet.
    let cancelRate: Double
    /// Offers, tried in order; at most one applies.
    let offers: [Offer]
    /// The list price in US dollars, which purchase events carry.
    let price: Double

    static let coins100 = 0
    static let coins500 = 1
    static let coins1200 = 2
    static let premiumMonthly = 3
    static let premiumYearly = 4

    /// The catalog, indexed by the constants above.
    static let all: [Product] = [
        Product(
            productID: "coins_100", planID: "coins-small", groupID: nil, grantDescription: "granted 100 coins",
            cancelRate: 0.05, offers: [], price: 0.99),
        Product(
            productID: "coins_500", planID: "coins-medium", groupID: nil, grantDescription: "granted 500 coins",
            cancelRate: 0.06, offers: [], price: 4.99),
        Product(
            productID: "coins_1200", planID: "coins-large", groupID: nil, grantDescription: "granted 1200 coins",
            cancelRate: 0.07, offers: [Offer(offerID: "promo-spring", probability: 0.12)], price: 9.99),
        Product(
            productID: "premium_monthly", planID: "pro-monthly", groupID: "premium",
            grantDescription: "entitlement premium active (monthly)", cancelRate: 0.075,
            offers: [
                Offer(offerID: "intro-7d", probability: 0.22), Offer(offerID: "winback-50", probability: 0.12),
                Offer(offerID: "promo-spring", probability: 0.05),
            ], price: 9.99),
        Product(
            productID: "premium_yearly", planID: "pro-yearly", groupID: "premium",
            grantDescription: "entitlement premium active (yearly)", cancelRate: 0.08,
            offers: [Offer(offerID: "intro-7d", probability: 0.15), Offer(offerID: "winback-50", probability: 0.10)], price: 59.99),
    ]

    /// Which products purchases buy.
    static let purchaseMix = WeightedTable([0.30, 0.25, 0.12, 0.23, 0.10])
    /// Which products retries re-send (mostly consumables, whose grants matter most).
    static let retryMix = WeightedTable([0.35, 0.30, 0.15, 0.15, 0.05])
    /// Which products restores bring back (subscriptions only).
    static let restoreMix = WeightedTable([0, 0, 0, 0.7, 0.3])

    /// Draws the offer of one purchase, or nil.
    func drawOffer(_ random: inout SimulationRandom) -> String? {
        guard !offers.isEmpty else { return nil }
        var u = random.unit()
        for offer in offers {
            if u < offer.probability { return offer.offerID }
            u -= offer.probability
        }
        return nil
    }
}
