import Foundation
import PurchaseSLICore

/// Notifications as the stores describe them, for the tests to encode, sign and send.
enum StoreNotificationFixtures {
    /// 2026-11-20T10:02:40Z.
    static let chargedMillis: Int64 = 1_795_168_960_000

    /// An App Store charge of a 9.99 USD consumable with its account token.
    static func charge(
        type: String = "ONE_TIME_CHARGE", id: String = "2000000123456789", uuid: String = "5d6c1e44-0f5b-4a55-9f57-6a7e3f1b2c01",
        bundle: String = "com.example.app"
    ) -> StoreNotification {
        StoreNotification(
            store: .apple, notificationID: uuid, environment: "Production", appID: bundle, type: type,
            kind: .charge, signedMillis: chargedMillis + 2000, transactionID: id, originalTransactionID: id, productID: "coins_100",
            purchaseMillis: chargedMillis, price: 9.99, currency: "USD", appAccountToken: "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60")
    }

    /// The chain's validity around the fixtures' dates.
    static let validity = Date(timeIntervalSince1970: 1.78e9)...Date(timeIntervalSince1970: 1.81e9)
}
