import PurchaseSLICore
import PurchaseSLISimulation

/// The App Store notification of a simulated charge, made the same way for the same charge.
enum SimulatedNotification {
    /// `ONE_TIME_CHARGE` for a consumable, `SUBSCRIBED` (`INITIAL_BUY`) for a subscription, signed 2–20 s
    /// after the charge; its UUID and delay derive from the transaction id.
    static func notification(of charge: SimulatedCharge, bundleID: String) -> StoreNotification {
        let hash = UInt64(bitPattern: EventIDHash.hash(charge.transactionID))
        let uuid = uuidText(hash, hash &* 0x9E37_79B9_7F4A_7C15)
        return StoreNotification(
            store: .apple, notificationID: uuid, environment: "Production", appID: bundleID,
            type: charge.isSubscription ? "SUBSCRIBED" : "ONE_TIME_CHARGE", subtype: charge.isSubscription ? "INITIAL_BUY" : nil,
            kind: .charge, signedMillis: charge.chargedMillis + 2000 + Int64(hash % 18_000), transactionID: charge.transactionID,
            originalTransactionID: charge.transactionID, productID: charge.productID, purchaseMillis: charge.chargedMillis,
            price: charge.price, currency: charge.currency, appAccountToken: charge.appAccountToken)
    }

    /// 128 bits as a lowercase version-4 UUID.
    private static func uuidText(_ high: UInt64, _ low: UInt64) -> String {
        let high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
        let digits = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }
}

extension String {
    /// The text with zeros before it up to `length` characters.
    fileprivate func leftPadded(_ length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
