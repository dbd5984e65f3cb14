import Foundation
import PurchaseSLICore
import PurchaseSLIStores
import Testing

@Suite("Google Play developer notifications through a Pub/Sub push")
struct GooglePlayDecodingTests {
    let decoder = GooglePlayNotificationDecoder(packageNames: ["com.example.app"])

    static func notification(_ type: String, kind: StoreEventKind, product: String? = "coins_100") -> StoreNotification {
        let eventMillis = StoreNotificationFixtures.chargedMillis
        return StoreNotification(
            store: .google, notificationID: "1234567890123", environment: "Production", appID: "com.example.app", type: type, kind: kind,
            signedMillis: eventMillis, transactionID: "opaque-token.AO-J1Oz",
            originalTransactionID: type == "VOIDED_PURCHASE" ? "GPA.3345-1234-5678-90123" : nil,
            productID: type == "VOIDED_PURCHASE" ? nil : product, purchaseMillis: kind == .charge ? eventMillis : nil,
            revocationMillis: kind == .refund ? eventMillis : nil)
    }

    @Test(
        "each notification decodes to its type and kind",
        arguments: [
            ("ONE_TIME_PRODUCT_PURCHASED", StoreEventKind.charge), ("ONE_TIME_PRODUCT_CANCELED", .other),
            ("SUBSCRIPTION_PURCHASED", .charge), ("SUBSCRIPTION_RENEWED", .charge), ("SUBSCRIPTION_RECOVERED", .charge),
            ("SUBSCRIPTION_CANCELED", .other), ("SUBSCRIPTION_REVOKED", .refund), ("SUBSCRIPTION_EXPIRED", .other),
            ("VOIDED_PURCHASE", .refund),
        ])
    func decodes(type: String, kind: StoreEventKind) throws {
        let sent = Self.notification(type, kind: kind)
        let body = try #require(StoreNotificationEncoder.googleBody(sent))
        #expect(try decoder.decode(body: body) == sent)
    }

    @Test("a test notification is accepted as other")
    func testNotification() throws {
        let data = Data(
            "{\"version\":\"1.0\",\"packageName\":\"com.example.app\",\"eventTimeMillis\":\"1795168960000\",\"testNotification\":{\"version\":\"1.0\"}}"
                .utf8)
        let body = Array("{\"message\":{\"data\":\"\(data.base64EncodedString())\",\"messageId\":\"42\"},\"subscription\":\"s\"}".utf8)
        let decoded = try decoder.decode(body: body)
        #expect(decoded.kind == .other)
        #expect(decoded.type == "TEST_NOTIFICATION")
    }

    @Test(
        "refused with the status and the field at fault",
        arguments: [
            ("{}", 400, "message"),
            ("{\"message\":{\"data\":\"e30=\"}}", 400, "messageId"),
            ("{\"message\":{\"data\":\"not base64!\",\"messageId\":\"1\"}}", 400, "base64"),
            (
                "{\"message\":{\"data\":\"" + Data("{\"packageName\":\"com.other.app\",\"eventTimeMillis\":\"1\"}".utf8).base64EncodedString()
                    + "\",\"messageId\":\"1\"}}", 403, "com.other.app"
            ),
            (
                "{\"message\":{\"data\":\"" + Data("{\"packageName\":\"com.example.app\"}".utf8).base64EncodedString()
                    + "\",\"messageId\":\"1\"}}", 400, "eventTimeMillis"
            ),
            (
                "{\"message\":{\"data\":\""
                    + Data(
                        "{\"packageName\":\"com.example.app\",\"eventTimeMillis\":\"1\",\"oneTimeProductNotification\":{\"notificationType\":1,\"sku\":\"x\"}}"
                            .utf8
                    ).base64EncodedString()
                    + "\",\"messageId\":\"1\"}}", 400, "purchaseToken"
            ),
            (
                "{\"message\":{\"data\":\""
                    + Data(
                        "{\"packageName\":\"com.example.app\",\"eventTimeMillis\":\"1\",\"oneTimeProductNotification\":{\"notificationType\":1,\"sku\":\"coins\\u0000_100\",\"purchaseToken\":\"t\"}}"
                            .utf8
                    ).base64EncodedString()
                    + "\",\"messageId\":\"1\"}}", 400, "sku or subscriptionId: must not contain control characters"
            ),
            (
                "{\"message\":{\"data\":\""
                    + Data("{\"packageName\":\"com.example.app\",\"eventTimeMillis\":\"9223372036854775807\",\"testNotification\":{}}".utf8)
                    .base64EncodedString()
                    + "\",\"messageId\":\"1\"}}", 400, "eventTimeMillis: expected milliseconds since 1970 up to the year 9999"
            ),
            (
                "{\"message\":{\"data\":\""
                    + Data("{\"packageName\":\"com.example.app\",\"eventTimeMillis\":\"-1\",\"testNotification\":{}}".utf8).base64EncodedString()
                    + "\",\"messageId\":\"1\\n2\"}}", 400, "messageId: must not contain control characters"
            ),
        ])
    func refused(body: String, status: Int, field: String) throws {
        let error = #expect(throws: StoreNotificationError.self) { try decoder.decode(body: Array(body.utf8)) }
        #expect(error?.httpStatus == status)
        #expect(error?.reason.contains(field) == true, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("com.example.app") == false, "a refusal names no configured package: \(error?.reason ?? "")")
    }
}
