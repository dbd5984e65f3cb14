public import PurchaseSLICore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes Google Play real-time developer notifications as a Pub/Sub push delivers them:
/// `{"message": {"data": base64(JSON), "messageId", "publishTime"}, "subscription"}`.
///
/// Pub/Sub authenticates the push with the endpoint's token (checked by the caller); the message itself
/// is not signed. The `messageId` is the deduplication key, as Pub/Sub delivers at least once.
public struct GooglePlayNotificationDecoder: Sendable {
    /// The package names whose notifications are accepted.
    public let packageNames: Set<String>

    /// Accepts notifications of `packageNames`.
    public init(packageNames: Set<String>) {
        self.packageNames = packageNames
    }

    private struct Push: Decodable {
        struct Message: Decodable {
            var data: String?
            var messageId: String?
            var message_id: String?
        }

        var message: Message?
    }

    private struct DeveloperNotification: Decodable {
        struct OneTimeProduct: Decodable {
            var notificationType: Int?
            var purchaseToken: String?
            var sku: String?
        }

        struct Subscription: Decodable {
            var notificationType: Int?
            var purchaseToken: String?
            var subscriptionId: String?
        }

        struct VoidedPurchase: Decodable {
            var purchaseToken: String?
            var orderId: String?
        }

        var packageName: String?
        var eventTimeMillis: FlexibleInteger?
        var oneTimeProductNotification: OneTimeProduct?
        var subscriptionNotification: Subscription?
        var voidedPurchaseNotification: VoidedPurchase?
        var testNotification: TestNotification?

        struct TestNotification: Decodable {}
    }

    /// Play sends `eventTimeMillis` as a string of digits; a number is taken too.
    private struct FlexibleInteger: Decodable {
        var value: Int64

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                value = number
            } else if let parsed = Int64(try container.decode(String.self)) {
                value = parsed
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected milliseconds since 1970 as digits")
            }
        }
    }

    /// Decodes one push request body.
    /// - Throws: ``StoreNotificationError``: malformed (400) or for a package not configured (403).
    public func decode(body: [UInt8]) throws(StoreNotificationError) -> StoreNotification {
        let push: Push
        do {
            push = try JSONDecoder().decode(Push.self, from: Data(body))
        } catch {
            throw .malformed("expected a Pub/Sub push: {\"message\": {\"data\": \"<base64>\", \"messageId\": \"…\"}, \"subscription\": \"…\"}")
        }
        guard let message = push.message else { throw .malformed("missing field message") }
        guard let messageID = message.messageId ?? message.message_id, !messageID.isEmpty else {
            throw .malformed("missing field message.messageId")
        }
        guard let data = message.data, let json = Data(base64Encoded: data) else {
            throw .malformed("message.data: expected the notification's JSON in base64")
        }
        let notification: DeveloperNotification
        do {
            notification = try JSONDecoder().decode(DeveloperNotification.self, from: json)
        } catch {
            throw .malformed("message.data: not a Play developer notification (\(error))")
        }
        guard let packageName = notification.packageName else { throw .malformed("message.data: missing field packageName") }
        guard packageNames.contains(packageName) else {
            // The configured packages stay out of the answer: whoever sent this may not know them.
            throw .unknownApp("packageName \(packageName) is not one of the configured packages (--google-package)")
        }
        guard let eventMillis = notification.eventTimeMillis?.value else {
            throw .malformed("message.data: missing field eventTimeMillis")
        }
        var decoded = StoreNotification(
            store: .google, notificationID: messageID, environment: "Production", appID: packageName, type: "TEST_NOTIFICATION",
            kind: .other, signedMillis: eventMillis)
        if let oneTime = notification.oneTimeProductNotification {
            let code = oneTime.notificationType ?? 0
            decoded.type = code == 1 ? "ONE_TIME_PRODUCT_PURCHASED" : code == 2 ? "ONE_TIME_PRODUCT_CANCELED" : "ONE_TIME_PRODUCT_\(code)"
            decoded.kind = code == 1 ? .charge : .other
            decoded.transactionID = oneTime.purchaseToken
            decoded.productID = oneTime.sku
            decoded.purchaseMillis = decoded.kind == .charge ? eventMillis : nil
        } else if let subscription = notification.subscriptionNotification {
            let code = subscription.notificationType ?? 0
            decoded.type = Self.subscriptionTypes[code].map { "SUBSCRIPTION_\($0)" } ?? "SUBSCRIPTION_NOTIFICATION_\(code)"
            decoded.kind = [1, 2, 4].contains(code) ? .charge : code == 12 ? .refund : .other
            decoded.transactionID = subscription.purchaseToken
            decoded.productID = subscription.subscriptionId
            decoded.purchaseMillis = decoded.kind == .charge ? eventMillis : nil
            decoded.revocationMillis = decoded.kind == .refund ? eventMillis : nil
        } else if let voided = notification.voidedPurchaseNotification {
            decoded.type = "VOIDED_PURCHASE"
            decoded.kind = .refund
            decoded.transactionID = voided.purchaseToken
            decoded.originalTransactionID = voided.orderId
            decoded.revocationMillis = eventMillis
        } else if notification.testNotification == nil {
            throw .malformed(
                "message.data: none of oneTimeProductNotification, subscriptionNotification, voidedPurchaseNotification, testNotification")
        }
        if decoded.kind != .other, decoded.transactionID?.isEmpty ?? true {
            throw .malformed("message.data: the \(decoded.type) notification has no purchaseToken")
        }
        if let problem = decoded.problem {
            throw .malformed("message.data: \(Self.payloadNames[problem.field] ?? problem.field): \(problem.reason)")
        }
        return decoded
    }

    /// The code of a subscription notification type (`SUBSCRIPTION_RENEWED` is 2), or nil.
    public static func subscriptionCode(of type: String) -> Int? {
        subscriptionTypes.first { "SUBSCRIPTION_\($0.value)" == type }?.key
    }

    /// The push's names of the notification's fields, for errors.
    private static let payloadNames = [
        "notificationID": "messageId", "appID": "packageName", "signedMillis": "eventTimeMillis", "transactionID": "purchaseToken",
        "originalTransactionID": "orderId", "productID": "sku or subscriptionId",
    ]

    /// Play's subscription notification types by code.
    private static let subscriptionTypes: [Int: String] = [
        1: "RECOVERED", 2: "RENEWED", 3: "CANCELED", 4: "PURCHASED", 5: "ON_HOLD", 6: "IN_GRACE_PERIOD", 7: "RESTARTED",
        8: "PRICE_CHANGE_CONFIRMED", 9: "DEFERRED", 10: "PAUSED", 11: "PAUSE_SCHEDULE_CHANGED", 12: "REVOKED", 13: "EXPIRED",
        19: "PRICE_CHANGE_UPDATED", 20: "PENDING_PURCHASE_CANCELED",
    ]
}
