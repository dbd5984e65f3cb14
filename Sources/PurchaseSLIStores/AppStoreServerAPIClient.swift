public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

    /// A client signing with the `.p8` private key `keyPEM`.
    /// - Throws: ``AppStoreServerAPIError/invalidKey(_:)`` when it is not a P-256 private key in PEM.
    public init(keyPEM: String, keyID: String, issuerID: String, bundleID: String, baseURL: URL) async throws(AppStoreServerAPIError) {
        guard let key = await AppleAPIKey(keyPEM: keyPEM, keyID: keyID, issuerID: issuerID) else {
            throw .invalidKey("not a P-256 private key in PEM (the .p8 file App Store Connect gives)")
        }
        self.key = key
        self.bundleID = bundleID
        self.baseURL = baseURL
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
    /// `ConsumptionRequest` JSON `body`; a call that takes over 30 seconds fails.
    /// - Throws: ``AppStoreServerAPIError/unreachable(_:)`` when no answer came.
    public func sendConsumption(transactionID: String, body: String) async throws -> Answer {
        guard let id = transactionID.addingPercentEncoding(withAllowedCharacters: .alphanumerics), !id.isEmpty else {
            throw AppStoreServerAPIError.unreachable("transaction id \"\(transactionID)\" cannot name a path")
        }
        var request = URLRequest(url: baseURL.appendingPathComponent("inApps/v2/transactions/consumption/\(id)"), timeoutInterval: 30)
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(try await token())", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(body.utf8)
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: String(decoding: data.prefix(400), as: UTF8.self))
        } catch {
            throw AppStoreServerAPIError.unreachable("\(request.url?.host ?? "the App Store Server API"): \(error.localizedDescription)")
        }
    }
}

/// Why the App Store Server API could not be called.
public enum AppStoreServerAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The private key is not one it can sign with.
    case invalidKey(String)
    /// No answer came.
    case unreachable(String)

    public var description: String {
        switch self {
        case .invalidKey(let reason): "App Store Server API key: \(reason)"
        case .unreachable(let reason): "App Store Server API unreachable: \(reason)"
        }
    }
}
