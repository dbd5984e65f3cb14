public import PurchaseSLICore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a ``StoreNotification`` as its store would post it: App Store Server Notifications V2 signed
/// with an ``AppStoreSigningChain``, or a Pub/Sub push of a Play developer notification. What `simulate`
/// writes and tests send; the inverse of the verifier and the decoder.
public enum StoreNotificationEncoder {
    /// The App Store body `{"signedPayload": "<JWS>"}`, its transaction signed as `signedTransactionInfo`.
    public static func appleBody(_ notification: StoreNotification, chain: AppStoreSigningChain, algorithm: String = "ES256") throws -> [UInt8] {
        var signedTransaction: String?
        if notification.transactionID != nil {
            let transaction = AppStorePayloads.Transaction(
                transactionId: notification.transactionID, originalTransactionId: notification.originalTransactionID ?? notification.transactionID,
                productId: notification.productID, purchaseDate: notification.purchaseMillis,
                price: notification.price.map { Int64(($0 * 1000).rounded()) }, currency: notification.currency,
                appAccountToken: notification.appAccountToken, revocationDate: notification.revocationMillis,
                inAppOwnershipType: notification.isFamilyShared ? "FAMILY_SHARED" : nil, signedDate: notification.signedMillis)
            signedTransaction = try chain.sign(Array(JSONEncoder().encode(transaction)), algorithm: algorithm)
        }
        let payload = AppStorePayloads.Notification(
            notificationType: notification.type, subtype: notification.subtype, notificationUUID: notification.notificationID,
            signedDate: notification.signedMillis,
            data: AppStorePayloads.AppData(
                bundleId: notification.appID, environment: notification.environment, signedTransactionInfo: signedTransaction,
                signedRenewalInfo: nil))
        let signed = try chain.sign(Array(JSONEncoder().encode(payload)), algorithm: algorithm)
        return Array("{\"signedPayload\":\"\(signed)\"}".utf8)
    }

    /// The Pub/Sub push body of a Play developer notification; nil for a type Play has no code for here.
    public static func googleBody(_ notification: StoreNotification, subscription: String = "projects/app/subscriptions/play") -> [UInt8]? {
        let token = JSONText.quoted(notification.transactionID ?? "")
        let product = JSONText.quoted(notification.productID ?? "")
        let inner: String
        if notification.type == "VOIDED_PURCHASE" {
            inner =
                "\"voidedPurchaseNotification\":{\"purchaseToken\":\(token),\"orderId\":\(JSONText.quoted(notification.originalTransactionID ?? "")),\"productType\":1,\"refundType\":1}"
        } else if notification.type.hasPrefix("ONE_TIME_PRODUCT_") {
            let code = notification.type == "ONE_TIME_PRODUCT_PURCHASED" ? 1 : 2
            inner = "\"oneTimeProductNotification\":{\"version\":\"1.0\",\"notificationType\":\(code),\"purchaseToken\":\(token),\"sku\":\(product)}"
        } else if notification.type.hasPrefix("SUBSCRIPTION_"),
            let code = GooglePlayNotificationDecoder.subscriptionCode(of: notification.type)
        {
            inner =
                "\"subscriptionNotification\":{\"version\":\"1.0\",\"notificationType\":\(code),\"purchaseToken\":\(token),\"subscriptionId\":\(product)}"
        } else {
            return nil
        }
        let data =
            "{\"version\":\"1.0\",\"packageName\":\(JSONText.quoted(notification.appID)),\"eventTimeMillis\":\"\(notification.signedMillis)\",\(inner)}"
        let encoded = Data(data.utf8).base64EncodedString()
        return Array(
            ("{\"message\":{\"data\":\"\(encoded)\",\"messageId\":\(JSONText.quoted(notification.notificationID)),"
                + "\"publishTime\":\"\(RFC3339.format(millis: notification.signedMillis))\"},\"subscription\":\(JSONText.quoted(subscription))}").utf8
        )
    }
}
