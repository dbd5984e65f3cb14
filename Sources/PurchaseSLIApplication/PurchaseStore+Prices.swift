public import PurchaseSLICore
public import PurchaseSLIStorage

extension BucketStore where Self: StoreRecordStore {
    /// How far back a store charge prices a product no event priced: 7 days.
    public static var chargePriceLookbackMillis: Int64 { 7 * .millisPerDay }

    /// The prices costs and revenue weights go by: each product's and plan's latest price as the events
    /// gave it, and for a product no event priced, the amount of its latest store charge over the
    /// ``chargePriceLookbackMillis`` before `millis` (Apple's notifications carry it; Play's do not). With
    /// `products`, the notifications are read only when one of them has no price from the events.
    public func knownPrices(before millis: Int64, for products: Set<String?>? = nil) async throws -> [ProductPrice] {
        let fromEvents = try await prices()
        let priced = Set(fromEvents.map(\.productID))
        if let products, products.allSatisfy({ $0.map(priced.contains) ?? true }) { return fromEvents }
        var charged: [String: ProductPrice] = [:]
        for received in try await notifications(kinds: [.charge], fromMillis: millis - Self.chargePriceLookbackMillis, toMillis: millis) {
            let notification = received.notification
            guard let product = notification.productID, !priced.contains(product), let price = notification.price, price > 0,
                let currency = notification.currency, notification.eventMillis > charged[product]?.seenMillis ?? .min
            else { continue }
            charged[product] = ProductPrice(productID: product, planID: nil, price: price, currency: currency, seenMillis: notification.eventMillis)
        }
        return fromEvents + charged.values.sorted { $0.productID < $1.productID }
    }
}
