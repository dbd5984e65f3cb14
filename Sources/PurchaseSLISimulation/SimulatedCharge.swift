/// One charge the App Store made in a simulated run: what its server notification reports.
public struct SimulatedCharge: Sendable, Hashable {
    /// The store transaction id the app's events name.
    public let transactionID: String
    /// The product charged.
    public let productID: String
    /// Whether the product is a subscription (`SUBSCRIBED`) rather than consumable (`ONE_TIME_CHARGE`).
    public let isSubscription: Bool
    /// The price, in `currency` units.
    public let price: Double
    /// ISO 4217.
    public let currency: String
    /// When the store charged, in milliseconds since the epoch.
    public let chargedMillis: Int64
    /// The purchase's account token, as the app passed it.
    public let appAccountToken: String?
    /// When the App Store refunded it, or nil: half the charges nothing grants (the payment detour's, the
    /// app crash's) are refunded 2 to 8 hours after the charge, when the user asks for their money back.
    public var refundedMillis: Int64?
}
