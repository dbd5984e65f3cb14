import Foundation
import PurchaseSLICore
import PurchaseSLIStores
import Testing

@Suite("App Store Server Notifications V2: verified before they count")
struct AppStoreVerificationTests {
    static let chain = try! AppStoreSigningChain(validity: StoreNotificationFixtures.validity)

    private func verifier(
        trusting chain: AppStoreSigningChain = chain, bundles: Set<String> = ["com.example.app"]
    ) throws -> AppStoreNotificationVerifier {
        try AppStoreNotificationVerifier(rootCertificates: [chain.rootDER], bundleIDs: bundles)
    }

    @Test(
        "every notification type is accepted, its kind as reconciliation reads it",
        arguments: [
            ("ONE_TIME_CHARGE", StoreEventKind.charge), ("SUBSCRIBED", .charge), ("DID_RENEW", .charge), ("OFFER_REDEEMED", .charge),
            ("REFUND", .refund), ("REVOKE", .refund), ("DID_FAIL_TO_RENEW", .other), ("CONSUMPTION_REQUEST", .other),
            ("EXPIRED", .other), ("TEST", .other),
        ])
    func everyType(type: String, kind: StoreEventKind) async throws {
        var sent = StoreNotificationFixtures.charge(type: type)
        sent.kind = kind
        if kind == .refund { sent.revocationMillis = StoreNotificationFixtures.chargedMillis + 86_400_000 }
        let received = try await verifier().verify(body: StoreNotificationEncoder.appleBody(sent, chain: Self.chain))
        #expect(received == sent)
    }

    @Test("a transaction's inAppOwnershipType FAMILY_SHARED is a family member's share; without it, not")
    func familyShared() async throws {
        var sent = StoreNotificationFixtures.charge()
        sent.isFamilyShared = true
        #expect(try await verifier().verify(body: StoreNotificationEncoder.appleBody(sent, chain: Self.chain)).isFamilyShared)
        sent.isFamilyShared = false
        #expect(try await !verifier().verify(body: StoreNotificationEncoder.appleBody(sent, chain: Self.chain)).isFamilyShared)
    }

    @Test("the price in milliunits becomes currency units, and the account token small letters")
    func priceAndToken() async throws {
        var sent = StoreNotificationFixtures.charge()
        sent.price = 1234.5
        sent.appAccountToken = "8F14E45F-CEEA-467F-A4C8-1B2C3D4E5F60"
        let received = try await verifier().verify(body: StoreNotificationEncoder.appleBody(sent, chain: Self.chain))
        #expect(received.price == 1234.5)
        #expect(received.appAccountToken == "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60")
    }

    @Test("a root given as PEM is trusted like DER")
    func pemRoot() async throws {
        let verifier = try AppStoreNotificationVerifier(rootCertificates: [Array(Self.chain.rootPEM.utf8)], bundleIDs: ["com.example.app"])
        let received = try await verifier.verify(body: StoreNotificationEncoder.appleBody(StoreNotificationFixtures.charge(), chain: Self.chain))
        #expect(received.transactionID == "2000000123456789")
    }

    /// A refusal: the body and the root the verifier trusts, the status it must get and words its reason
    /// must hold.
    struct Refusal: CustomTestStringConvertible, Sendable {
        let name: String
        let body: @Sendable () throws -> (body: [UInt8], root: [UInt8])
        let status: Int
        let reason: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = {
        let charge = StoreNotificationFixtures.charge()
        /// Signed by `chain`, whose root is trusted.
        let signed = { @Sendable (chain: AppStoreSigningChain) in (try StoreNotificationEncoder.appleBody(charge, chain: chain), chain.rootDER) }
        /// The body of `make`, with the fixtures' chain trusted.
        let trusted = { @Sendable (make: () throws -> [UInt8]) in (try make(), chain.rootDER) }
        let chargeMillis = Double(StoreNotificationFixtures.chargedMillis) / 1000
        return [
            Refusal(
                name: "a chain of another root",
                body: {
                    try trusted {
                        try StoreNotificationEncoder.appleBody(charge, chain: AppStoreSigningChain(validity: StoreNotificationFixtures.validity))
                    }
                }, status: 401, reason: "trusted root"),
            Refusal(
                name: "a leaf without the App Store marker",
                body: {
                    try signed(AppStoreSigningChain(validity: StoreNotificationFixtures.validity, flaws: .init(leafWithoutMarker: true)))
                }, status: 401, reason: "1.2.840.113635.100.6.11.1"),
            Refusal(
                name: "an intermediate without Apple's WWDR marker",
                body: {
                    try signed(AppStoreSigningChain(validity: StoreNotificationFixtures.validity, flaws: .init(intermediateWithoutMarker: true)))
                }, status: 401, reason: "1.2.840.113635.100.6.2.1"),
            Refusal(
                name: "a leaf expired before the signing date",
                body: {
                    let expired = Date(timeIntervalSince1970: chargeMillis - 86_400 * 30)...Date(timeIntervalSince1970: chargeMillis - 86_400)
                    return try signed(AppStoreSigningChain(validity: StoreNotificationFixtures.validity, flaws: .init(leafValidity: expired)))
                }, status: 401, reason: "certificate chain refused"),
            Refusal(
                name: "a tampered payload",
                body: {
                    try trusted { try tampered(signed(chain).0) { $0.replacingOccurrences(of: "5d6c1e44", with: "5d6c1e45") } }
                }, status: 401, reason: "signedPayload: the signature"),
            // An attacker's payload: its date reaches the chain's validation before any signature is checked.
            Refusal(
                name: "a signedDate past year 9999",
                body: {
                    try trusted {
                        try tampered(signed(chain).0) {
                            $0.replacingOccurrences(of: "\"signedDate\":1795168962000", with: "\"signedDate\":253402300800000")
                        }
                    }
                }, status: 400, reason: "signedDate 253402300800000 is not a time from 1970 to 9999"),
            Refusal(
                name: "a signedDate in the last second of year 9999",
                body: {
                    try trusted {
                        try tampered(signed(chain).0) {
                            $0.replacingOccurrences(of: "\"signedDate\":1795168962000", with: "\"signedDate\":253402300799999")
                        }
                    }
                }, status: 400, reason: "signedDate 253402300799999 is not a time"),
            Refusal(
                name: "a signedDate of Int64.min",
                body: {
                    try trusted {
                        try tampered(signed(chain).0) {
                            $0.replacingOccurrences(of: "\"signedDate\":1795168962000", with: "\"signedDate\":\(Int64.min)")
                        }
                    }
                }, status: 400, reason: "signedDate \(Int64.min) is not a time"),
            Refusal(
                name: "a tampered signed transaction in a validly signed notification",
                body: {
                    try trusted { try tamperedTransaction(signed(chain).0) }
                }, status: 401, reason: "data.signedTransactionInfo: the signature"),
            Refusal(
                name: "a crit header",
                body: {
                    try trusted {
                        try withHeader(signed(chain).0) { $0.replacingOccurrences(of: "{\"alg\"", with: "{\"crit\":[\"exp\"],\"exp\":1,\"alg\"") }
                    }
                }, status: 401, reason: "critical extensions"),
            // The header's third certificate need not be the one validation uses (it finds the trusted
            // root itself): one valid only in 2090 once trapped on the chain's validity span.
            Refusal(
                name: "a third certificate valid only in 2090",
                body: {
                    let later = try AppStoreSigningChain(validity: Date(timeIntervalSince1970: 3.78e9)...Date(timeIntervalSince1970: 3.8e9))
                    let third = Data(later.rootDER).base64EncodedString()
                    let own = Data(chain.rootDER).base64EncodedString()
                    return try trusted { try withHeader(signed(chain).0) { $0.replacingOccurrences(of: own, with: third) } }
                }, status: 401, reason: "signedPayload: the signature"),
            Refusal(
                name: "alg none", body: { try trusted { try StoreNotificationEncoder.appleBody(charge, chain: chain, algorithm: "none") } },
                status: 401, reason: "ES256"),
            Refusal(
                name: "alg HS256", body: { try trusted { try StoreNotificationEncoder.appleBody(charge, chain: chain, algorithm: "HS256") } },
                status: 401, reason: "ES256"),
            Refusal(
                name: "alg ES384", body: { try trusted { try StoreNotificationEncoder.appleBody(charge, chain: chain, algorithm: "ES384") } },
                status: 401, reason: "ES256"),
            Refusal(
                name: "a bundle not configured",
                body: {
                    try trusted { try StoreNotificationEncoder.appleBody(StoreNotificationFixtures.charge(bundle: "com.other.app"), chain: chain) }
                }, status: 403, reason: "com.other.app"),
            // Validly signed, with fields no output may carry: checked after the signatures, named.
            Refusal(
                name: "a NUL in the signed transaction's productId",
                body: {
                    var hostile = charge
                    hostile.productID = "coins\u{0}_100"
                    return try trusted { try StoreNotificationEncoder.appleBody(hostile, chain: chain) }
                }, status: 400, reason: "data.signedTransactionInfo.productId: must not contain control characters"),
            Refusal(
                name: "a price near Int64.max milliunits",
                body: {
                    var hostile = charge
                    hostile.price = 9e15
                    return try trusted { try StoreNotificationEncoder.appleBody(hostile, chain: chain) }
                }, status: 400, reason: "data.signedTransactionInfo.price: expected a price of at most 1000000000"),
            Refusal(
                name: "a purchaseDate past year 9999",
                body: {
                    var hostile = charge
                    hostile.purchaseMillis = 253_402_300_800_000
                    return try trusted { try StoreNotificationEncoder.appleBody(hostile, chain: chain) }
                }, status: 400, reason: "data.signedTransactionInfo.purchaseDate: expected milliseconds since 1970 up to the year 9999"),
            Refusal(name: "a body that is not JSON", body: { try trusted { Array("signedPayload=abc".utf8) } }, status: 400, reason: "signedPayload"),
            Refusal(
                name: "a signedPayload that is not a JWS", body: { try trusted { Array("{\"signedPayload\":\"abc\"}".utf8) } },
                status: 400, reason: "compact"),
        ]
    }()

    @Test("refused with the right status and a reason that names the fault", arguments: refusals)
    func refused(_ refusal: Refusal) async throws {
        let (body, root) = try refusal.body()
        let verifier = try AppStoreNotificationVerifier(rootCertificates: [root], bundleIDs: ["com.example.app"])
        let error = await #expect(throws: StoreNotificationError.self) { try await verifier.verify(body: body) }
        #expect(error?.httpStatus == refusal.status)
        #expect(error?.reason.contains(refusal.reason) == true, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("com.example.app") == false, "a refusal names no configured bundle: \(error?.reason ?? "")")
    }

    /// The body with its signed payload's JSON changed by `change` and re-encoded, the signature kept.
    static func tampered(_ body: [UInt8], _ change: (String) -> String) throws -> [UInt8] {
        let token = try signedPayload(of: body)
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = base64URL(Array(change(String(decoding: try #require(decodeBase64URL(parts[1])), as: UTF8.self)).utf8))
        return Array("{\"signedPayload\":\"\(parts.joined(separator: "."))\"}".utf8)
    }

    /// The body with the price in its nested signed transaction changed (that JWS's signature kept),
    /// and the notification itself signed again with the valid chain: only the nested check can refuse it.
    static func tamperedTransaction(_ body: [UInt8]) throws -> [UInt8] {
        let outer = String(decoding: try #require(decodeBase64URL(signedPayload(of: body).split(separator: ".").map(String.init)[1])), as: UTF8.self)
        let start = try #require(outer.range(of: "\"signedTransactionInfo\":\"")?.upperBound)
        let end = try #require(outer[start...].firstIndex(of: "\""))
        var parts = outer[start..<end].split(separator: ".").map(String.init)
        let payload = String(decoding: try #require(decodeBase64URL(parts[1])), as: UTF8.self).replacingOccurrences(of: "9990", with: "1")
        parts[1] = base64URL(Array(payload.utf8))
        let changed = outer.replacingCharacters(in: start..<end, with: parts.joined(separator: "."))
        return Array("{\"signedPayload\":\"\(try chain.sign(Array(changed.utf8)))\"}".utf8)
    }

    /// The body with its JWS header changed (the signature kept, so it no longer verifies).
    static func withHeader(_ body: [UInt8], _ change: (String) -> String) throws -> [UInt8] {
        var parts = try signedPayload(of: body).split(separator: ".").map(String.init)
        parts[0] = base64URL(Array(change(String(decoding: try #require(decodeBase64URL(parts[0])), as: UTF8.self)).utf8))
        return Array("{\"signedPayload\":\"\(parts.joined(separator: "."))\"}".utf8)
    }

    static func signedPayload(of body: [UInt8]) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        return try #require(object["signedPayload"] as? String)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodeBase64URL(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
