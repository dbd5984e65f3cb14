/// The latest price events carried for a product and plan, as the store showed it to the user.
public struct ProductPrice: Sendable, Hashable {
    /// The store product.
    public var productID: String
    /// The server plan, nil for events without one.
    public var planID: String?
    /// The price in `currency` units.
    public var price: Double
    /// ISO 4217 code.
    public var currency: String
    /// The event time it was last seen at, milliseconds since the epoch.
    public var seenMillis: Int64

    /// Creates a price.
    public init(productID: String, planID: String?, price: Double, currency: String, seenMillis: Int64) {
        self.productID = productID
        self.planID = planID
        self.price = price
        self.currency = currency
        self.seenMillis = seenMillis
    }
}
