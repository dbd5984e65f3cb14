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

    /// The App Store's `REFUND` of a simulated charge it refunded, signed a minute after the refund, or nil.
    static func refund(of charge: SimulatedCharge, bundleID: String) -> StoreNotification? {
        guard let refunded = charge.refundedMillis else { return nil }
        var notification = later(charge, bundleID: bundleID, type: "REFUND", kind: .refund, signedMillis: refunded + .millisPerMinute)
        notification.revocationMillis = refunded
        return notification
    }

    /// The App Store's `CONSUMPTION_REQUEST` for a refunded consumable: the customer asked an hour before
    /// the refund, and Apple asks the app what it delivered. Nil for a charge not refunded, or a subscription.
    static func consumptionRequest(of charge: SimulatedCharge, bundleID: String) -> StoreNotification? {
        guard let refunded = charge.refundedMillis, !charge.isSubscription else { return nil }
        return later(
            charge, bundleID: bundleID, type: "CONSUMPTION_REQUEST", kind: .other,
            signedMillis: max(charge.chargedMillis + .millisPerMinute, refunded - .millisPerHour))
    }

    /// A later notification of `type` about `charge`'s transaction, signed at `signedMillis`, its UUID
    /// derived from the type and the transaction id.
    private static func later(
        _ charge: SimulatedCharge, bundleID: String, type: String, kind: StoreEventKind, signedMillis: Int64
    ) -> StoreNotification {
        var notification = notification(of: charge, bundleID: bundleID)
        let hash = UInt64(bitPattern: EventIDHash.hash(type + " " + charge.transactionID))
        notification.notificationID = uuidText(hash, hash &* 0x9E37_79B9_7F4A_7C15)
        notification.type = type
        notification.subtype = nil
        notification.kind = kind
        notification.signedMillis = signedMillis
        return notification
    }

    /// The run's App Store notifications: each charge's, and for each charge refunded, the consumption
    /// request (of a consumable) and the refund.
    static func notifications(of charges: [SimulatedCharge], bundleID: String) -> [StoreNotification] {
        charges.map { notification(of: $0, bundleID: bundleID) } + charges.compactMap { consumptionRequest(of: $0, bundleID: bundleID) }
            + charges.compactMap { refund(of: $0, bundleID: bundleID) }
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
