import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// `purchase-sli consumption`: the answers to the App Store's consumption requests, drafted from the
/// ledger, and sent to a local server that checks the token and body as Apple documents them.
@Suite struct ConsumptionCommandTests {
    let directory: TemporaryDirectory
    let db: String
    /// An hour ago, when the requests came (within their 12 hours), in milliseconds.
    let requested: Int64

    /// Three purchases asked back: one granted, one whose grant failed with a 503, one the app reported
    /// cancelled (by its account token); and a request of another app.
    init() async throws {
        directory = try TemporaryDirectory()
        db = directory.file("consumption.sqlite")
        let now = Int64(Date().timeIntervalSince1970) * 1000
        requested = now - 3_600_000
        let bought = now - 2 * 3_600_000
        let store = try SQLiteBucketStore(path: db)
        func event(_ id: String, _ result: ResultType, transaction: String? = nil, token: String? = nil, status: Int? = nil) -> PurchaseEvent {
            PurchaseEvent(
                eventID: id, timestampMillis: bought + 2000, productID: "coins_500", actionType: .purchase, resultType: result, statusCode: status,
                transactionID: transaction, appAccountToken: token)
        }
        _ = try await store.record(
            [
                event("e1", .success, transaction: "2000000000000001", status: 200),
                event("e2", .failure, transaction: "2000000000000002", status: 503),
                event("e3", .cancel, token: "6f1c0c1e-0000-4000-8000-000000000003"),
            ], receivedAtMillis: now)
        func request(_ transaction: String, app: String = "com.example.app", token: String? = nil) -> ReceivedNotification {
            ReceivedNotification(
                StoreNotification(
                    store: .apple, notificationID: "n\(transaction)\(app)", environment: "Production", appID: app, type: "CONSUMPTION_REQUEST",
                    kind: .other, signedMillis: requested, transactionID: transaction, productID: "coins_500", purchaseMillis: bought,
                    price: 4.99, currency: "USD", appAccountToken: token),
                receivedMillis: requested)
        }
        _ = try await store.record([
            request("2000000000000001"), request("2000000000000002"),
            request("2000000000000003", token: "6f1c0c1e-0000-4000-8000-000000000003"), request("2000000000000004", app: "com.example.other"),
        ])
    }

    private var range: [String] { ["--db", db, "--from", "now-3h", "--to", "now"] }

    @Test("a dry run drafts each answer from the ledger and sends nothing")
    func draftsWithoutSending() async throws {
        let executable = try #require(builtExecutable)
        let (termination, output) = try await ChildProcess.run(executable, ["consumption"] + range + ["--format", "json"])
        #expect(termination == .exit(0), "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        func line(_ transaction: String) -> String { lines.first { $0.contains(#""transactionID":"\#(transaction)""#) } ?? "" }
        #expect(line("2000000000000001").contains(#""body":{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#))
        #expect(
            line("2000000000000002").contains(
                #""deliveryStatus":"UNDELIVERED_SERVER_OUTAGE","sampleContentProvided":false,"consumptionPercentage":0,"refundPreference":"GRANT_FULL""#
            ))
        #expect(line("2000000000000002").contains("the app last reported failure (HTTP 503)"))
        #expect(line("2000000000000003").contains(#""deliveryStatus":"UNDELIVERED_OTHER""#) && line("2000000000000003").contains("cancel"))
        #expect(lines.allSatisfy { $0.contains(#""outcome":"not sent (dry run)""#) })
    }

    @Test("--send signs each request as Apple documents and PUTs its body; another app's is left alone")
    func sendsSignedAnswers() async throws {
        let key = P256.Signing.PrivateKey()
        let keyFile = try directory.write("AuthKey_ABC123DEFG.p8", key.pemRepresentation)
        let verifier = await JWTKeyCollection().add(ecdsa: try ES256PublicKey(pem: key.publicKey.pemRepresentation))
        let received = ReceivedRequests()
        let router = Router()
        router.put("inApps/v2/transactions/consumption/:id") { request, context -> HTTPResponse.Status in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
            let bearer = request.headers[.authorization] ?? ""
            guard bearer.hasPrefix("Bearer "), request.headers[.contentType] == "application/json" else { return .unauthorized }
            let token = String(bearer.dropFirst(7))
            guard let claims = try? await verifier.verify(token, as: AppStoreServerClaims.self) else { return .unauthorized }
            let header = try JSONSerialization.jsonObject(with: Data(base64URL: String(token.split(separator: ".")[0]))) as? [String: Any]
            guard header?["alg"] as? String == "ES256", header?["kid"] as? String == "ABC123DEFG", header?["typ"] as? String == "JWT",
                claims.aud.value == ["appstoreconnect-v1"], claims.bid == "com.example.app",
                claims.iss.value == "57246542-96fe-1a63-e053-0824d011072a",
                claims.exp.value.timeIntervalSince(claims.iat.value) <= 3600
            else { return .unauthorized }
            let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
            guard json["customerConsented"] as? Bool == true, let status = json["deliveryStatus"] as? String,
                status == "DELIVERED" || json["consumptionPercentage"] as? Int == 0
            else { return .badRequest }
            await received.add(id: context.parameters.get("id") ?? "", deliveryStatus: status)
            return .accepted
        }
        var logger = Logger(label: "app-store")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        let executable = try #require(builtExecutable)
        try await testLive(app) { client in
            let port = try #require(client.port)
            let (termination, output) = try await ChildProcess.run(
                executable,
                ["consumption"] + range + [
                    "--send", "--customer-consented", "--key-file", keyFile, "--key-id", "ABC123DEFG", "--issuer-id",
                    "57246542-96fe-1a63-e053-0824d011072a", "--bundle-id", "com.example.app", "--api-url", "http://127.0.0.1:\(port)",
                ])
            #expect(termination == .exit(0), "\(output)")
            #expect(output.contains("sent: 202") && output.contains("not sent: another app's (com.example.other)"), "\(output)")
        }
        #expect(
            await received.all == [
                "2000000000000001 DELIVERED", "2000000000000002 UNDELIVERED_SERVER_OUTAGE", "2000000000000003 UNDELIVERED_OTHER",
            ])
    }

    @Test("--send follows no redirect: the bearer token never reaches the other origin, and the answer is a failure", arguments: redirectStatuses)
    func sendFollowsNoRedirect(status: Int) async throws {
        let keyFile = try directory.write("AuthKey_ABC123DEFG.p8", P256.Signing.PrivateKey().pemRepresentation)
        let executable = try #require(builtExecutable)
        try await withRedirect(status) { called, other, calledSent, otherSent in
            let (termination, output) = try await ChildProcess.run(
                executable,
                ["consumption"] + range + [
                    "--send", "--customer-consented", "--key-file", keyFile, "--key-id", "ABC123DEFG", "--issuer-id",
                    "57246542-96fe-1a63-e053-0824d011072a", "--bundle-id", "com.example.app", "--api-url", called.absoluteString,
                ])
            #expect(termination == .exit(1), "\(output)")
            #expect(
                output.contains(
                    "failed: the App Store Server API answered \(status) (redirect to \(other.absoluteString)/…): redirects are not followed"),
                "\(output)")
            #expect(output.contains("3 answers not taken by the App Store"), "\(output)")
            let calls = await calledSent.all
            #expect(calls.count == 3 && calls.allSatisfy { $0.headers["authorization"]?.hasPrefix("Bearer ") == true }, "one PUT each, not retried")
            let reached = await otherSent.all.map(\.line)
            #expect(reached.isEmpty, "the other origin got \(reached): a bearer token")
        }
    }

    @Test("--send without the customer's consent or a key is refused before anything is read")
    func sendNeedsConsentAndAKey() async throws {
        let executable = try #require(builtExecutable)
        let (noConsent, consentOutput) = try await ChildProcess.run(
            executable, ["consumption"] + range + ["--send", "--key-file", "k.p8", "--key-id", "K", "--issuer-id", "I", "--bundle-id", "b"])
        #expect(noConsent != .exit(0) && consentOutput.contains("--send needs --customer-consented"), "\(consentOutput)")
        let (noKey, keyOutput) = try await ChildProcess.run(
            executable, ["consumption"] + range + ["--send", "--customer-consented", "--key-id", "K"])
        #expect(noKey != .exit(0) && keyOutput.contains("--send needs --key-file"), "\(keyOutput)")
    }
}

/// The claims Apple's token carries, as the test server reads them.
private struct AppStoreServerClaims: JWTPayload {
    var iss: IssuerClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var aud: AudienceClaim
    var bid: String

    func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
}

/// What the test server took, in order.
private actor ReceivedRequests {
    var all: [String] = []
    func add(id: String, deliveryStatus: String) { all.append("\(id) \(deliveryStatus)") }
}

extension Data {
    /// Decodes base64url without padding.
    fileprivate init(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self = Data(base64Encoded: base64) ?? Data()
    }
}
