import JWTKit

/// The fields of App Store Server Notifications V2 and their signed parts that purchase-sli reads
/// (Apple's `responseBodyV2DecodedPayload`, `JWSTransactionDecodedPayload`, `JWSRenewalInfoDecodedPayload`).
enum AppStorePayloads {
    /// The request body Apple posts.
    struct Body: Decodable {
        var signedPayload: String
    }

    /// A signed payload's header: the algorithm, the certificate chain, and whether it names critical
    /// extensions (`crit`, RFC 7515 §4.1.11), which a verifier that does not know them must refuse.
    struct Header: Decodable {
        var alg: String?
        var x5c: [String]?
        var crit: Present?
    }

    /// A member that is there, whatever its value.
    struct Present: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// Any signed payload, read for its signing date before its signature is checked.
    struct SigningDate: Decodable {
        var signedDate: Int64

        /// The signing times a certificate chain can be checked at: 1970-01-01 to 9999-12-31T23:59:59Z, in
        /// milliseconds. A fraction of the last second is not: swift-certificates rounds it into the year
        /// 10000 and traps (found by the AppStoreJWS fuzz target).
        static let representable: ClosedRange<Int64> = 0...253_402_300_799_000
    }

    /// The notification.
    struct Notification: JWTPayload {
        var notificationType: String
        var subtype: String?
        var notificationUUID: String
        var signedDate: Int64
        var data: AppData?
        var summary: AppReference?
        var externalPurchaseToken: AppReference?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The app and transaction a notification is about.
    struct AppData: Codable {
        var bundleId: String?
        var environment: String?
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
    }

    /// Where a notification without `data` names its app.
    struct AppReference: Codable {
        var bundleId: String?
        var environment: String?
    }

    /// The signed transaction.
    struct Transaction: JWTPayload {
        var transactionId: String?
        var originalTransactionId: String?
        var productId: String?
        var purchaseDate: Int64?
        var price: Int64?
        var currency: String?
        var appAccountToken: String?
        var revocationDate: Int64?
        var inAppOwnershipType: String?
        var signedDate: Int64?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The signed renewal information: verified, not kept.
    struct RenewalInfo: JWTPayload {
        var signedDate: Int64?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
