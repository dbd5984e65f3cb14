public import Foundation
public import PurchaseSLIOutbound

/// An App Store Server API key and where it calls: what signs the requests' JWTs (ES256 with the key's id
/// in `kid`, `typ` JWT; claims `iss` the issuer id, `iat`, `exp` 5 minutes later, `aud`
/// `appstoreconnect-v1` and `bid` the bundle id).
public struct AppStoreServerAPIClient: Sendable {
    /// The production and sandbox hosts (Apple's recommended domains since 2026-05).
    public static let productionURL = URL(string: "https://api.storekit.apple.com")!
    public static let sandboxURL = URL(string: "https://api.storekit-sandbox.apple.com")!

    /// The API's base URL.
    public let baseURL: URL
    /// The key's id and issuer id from App Store Connect, and the app's bundle id.
    public var keyID: String { key.keyID }
    public var issuerID: String { key.issuerID }
    public let bundleID: String
    private let key: AppleAPIKey
    private let call: StoreAPICall

    /// A client signing with the `.p8` private key `keyPEM`, calling over `transport`; a call that failed
    /// is tried again after `retryDelaySeconds` (doubling).
    /// - Throws: ``AppStoreServerAPIError/invalidKey(_:)`` when it is not a P-256 private key in PEM.
    public init(
        keyPEM: String, keyID: String, issuerID: String, bundleID: String, baseURL: URL, transport: any OutboundTransport,
        retryDelaySeconds: Double = 1
    ) async throws(AppStoreServerAPIError) {
        guard let key = await AppleAPIKey(keyPEM: keyPEM, keyID: keyID, issuerID: issuerID) else {
            throw .invalidKey("not a P-256 private key in PEM (the .p8 file App Store Connect gives)")
        }
        self.key = key
        self.bundleID = bundleID
        self.baseURL = baseURL
        call = StoreAPICall(
            peer: "the App Store Server API", baseURL: baseURL, transport: transport,
            retry: .storeAPI(firstDelay: .milliseconds(Int64(max(0, retryDelaySeconds) * .millisPerSecond))))
    }

    /// A token for requests made at `now`, valid 5 minutes.
    public func token(now: Date = Date()) async throws -> String {
        try await key.token(now: now, lifetime: 300, bundleID: bundleID)
    }

    /// What the App Store answered: its HTTP status and body (Apple answers 202 Accepted with none).
    public struct Answer: Sendable, Hashable {
        /// The HTTP status.
        public var status: Int
        /// The body, at most 400 characters of it.
        public var body: String
        /// Whether the App Store took it (a 2xx).
        public var isAccepted: Bool { (200..<300).contains(status) }
    }

    /// *Send Consumption Information*: `PUT /inApps/v2/transactions/consumption/{transactionId}` with the
    /// `ConsumptionRequest` JSON `body`; a call that takes over 30 seconds fails, and one that got no
    /// answer, a 401, 429 or a 5xx is tried again (``OutboundRetry/storeAPI(firstDelay:)``). The token goes
    /// to the API's origin only; a redirect is not followed.
    /// - Throws: ``AppStoreServerAPIError/unreachable(_:)`` when no answer came, or the answer was a redirect.
    public func sendConsumption(transactionID: String, body: String) async throws -> Answer {
        guard let id = transactionID.addingPercentEncoding(withAllowedCharacters: .alphanumerics), !id.isEmpty else {
            throw AppStoreServerAPIError.unreachable("transaction id \"\(transactionID)\" cannot name a path")
        }
        let answer = await call.send("PUT", baseURL.appendingPathComponent("inApps/v2/transactions/consumption/\(id)"), body: Data(body.utf8)) {
            try await token()
        }
        if let failure = answer.failure { throw AppStoreServerAPIError.unreachable(failure) }
        return Answer(status: answer.status, body: String(decoding: answer.body.prefix(400), as: UTF8.self))
    }
}

/// Why the App Store Server API could not be called.
public enum AppStoreServerAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The private key is not one it can sign with.
    case invalidKey(String)
    /// No usable answer came: none at all, or a redirect (never followed).
    case unreachable(String)

    public var description: String {
        switch self {
        case .invalidKey(let reason): "App Store Server API key: \(reason)"
        case .unreachable(let reason): reason
        }
    }
}
