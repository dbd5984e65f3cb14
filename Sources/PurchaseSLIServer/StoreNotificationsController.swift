import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLIStores

/// `POST /v1/stores/apple/notifications` (App Store Server Notifications V2) and
/// `POST /v1/stores/google/notifications` (Play developer notifications through a Pub/Sub push).
///
/// A notification is answered 200 only once it is durably stored (the stores resend anything else);
/// one already stored is answered 200 again and counted once. Refusals: 400 malformed, 401 a signature,
/// chain or push token that does not verify, 403 an app that is not configured, 503 the store.
struct StoreNotificationsController {
    static let applePath = "/v1/stores/apple/notifications"
    static let googlePath = "/v1/stores/google/notifications"

    let configuration: ServerConfiguration
    let records: any StoreRecordStore
    let metrics: ServerMetrics
    /// The receiving clock (milliseconds since the epoch): what `now` and relative times are read against.
    let nowMillis: @Sendable () -> Int64
    let logger: Logger
    private let apple: Result<AppStoreNotificationVerifier, StoreNotificationError>
    private let google: GooglePlayNotificationDecoder
    private let limiter = RateLimiter(ratePerSecond: Self.requestsPerSecondPerAddress, burst: Self.burstPerAddress)

    /// Longest notification body read: an App Store notification (three JWS with their certificate
    /// chains) is about 20 KB, a Pub/Sub push under 5 KB.
    static let maximumBodyBytes = 256 << 10
    /// Requests a second one client address may make to the notification routes, on average: more than
    /// the stores send a busy app (their retries included), few enough that a flood costs little.
    static let requestsPerSecondPerAddress = 50.0
    /// Requests one address may make at once before the average applies.
    static let burstPerAddress = 500.0

    init(
        configuration: ServerConfiguration, records: any StoreRecordStore, metrics: ServerMetrics, nowMillis: @escaping @Sendable () -> Int64,
        logger: Logger
    ) {
        self.nowMillis = nowMillis
        self.configuration = configuration
        self.records = records
        self.metrics = metrics
        self.logger = logger
        apple = Result { () throws(StoreNotificationError) in
            try AppStoreNotificationVerifier(rootCertificates: configuration.appleRootCertificates, bundleIDs: configuration.appleBundleIDs)
        }
        google = GooglePlayNotificationDecoder(packageNames: configuration.googlePackageNames)
    }

    func addRoutes(to router: Router<some RequestContext>) {
        router.post(RouterPath(Self.applePath)) { request, context in
            try await receive(request, from: clientAddress(of: context), store: .apple) { () throws(StoreNotificationError) in
                guard !configuration.appleBundleIDs.isEmpty else {
                    throw .unknownApp("no App Store bundle is configured: start serve with --apple-bundle-id")
                }
            } decode: { body throws(StoreNotificationError) in
                try await apple.get().verify(body: body)
            }
        }
        router.post(RouterPath(Self.googlePath)) { request, context in
            try await receive(request, from: clientAddress(of: context), store: .google) { () throws(StoreNotificationError) in
                guard !configuration.googlePackageNames.isEmpty else {
                    throw .unknownApp("no Play package is configured: start serve with --google-package")
                }
                try authenticatePush(request)
            } decode: { body throws(StoreNotificationError) in
                try google.decode(body: body)
            }
        }
    }

    /// Checks the push's token: `?token=` in the URL Pub/Sub posts to, or `Authorization: Bearer`.
    private func authenticatePush(_ request: Request) throws(StoreNotificationError) {
        let bearer = request.headers[.authorization].flatMap { value -> String? in
            value.lowercased().hasPrefix("bearer ") ? String(value.dropFirst(7)) : nil
        }
        guard let presented = request.uri.queryParameters.get("token") ?? bearer else {
            throw .unauthorized("missing push token: add ?token=TOKEN to the push endpoint's URL (--google-push-tokens)")
        }
        guard configuration.googlePushTokens.match(presented) != nil else { throw .unauthorized("unknown push token") }
    }

    /// Checks what it can without the body (the address's rate, `check`, the declared length), reads the
    /// body, decodes it with `decode`, stores the notification, and answers.
    private func receive(
        _ request: Request, from address: String, store: Store, check: () throws(StoreNotificationError) -> Void,
        decode: ([UInt8]) async throws(StoreNotificationError) -> StoreNotification
    ) async throws -> Response {
        if let wait = limiter.take(for: address) {
            throw IngestError.rateLimited(retryAfterSeconds: wait, of: "this address on the store notification routes")
        }
        let limit = min(Self.maximumBodyBytes, configuration.maximumBodyBytes)
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw IngestError.tooLarge("body of \(length) bytes exceeds the limit of \(limit) bytes for a store notification")
        }
        let notification: StoreNotification
        do {
            try check()
            let body = try await collectBody(of: request, limit: limit, timeoutSeconds: configuration.bodyTimeoutSeconds)
            notification = try await decode(body)
        } catch let error as StoreNotificationError {
            metrics.recordNotification(store: store.rawValue, outcome: String(error.httpStatus))
            logger.warning(
                "store notification refused",
                metadata: [
                    "store": "\(store.rawValue)", "status": "\(error.httpStatus)", "reason": "\(error.reason)",
                ])
            return Response.json(HTTPResponse.Status(code: error.httpStatus), ErrorAnswer(error: error.reason))
        }
        let receivedAt = nowMillis()
        let outcome: NotificationOutcome
        do {
            outcome = try await records.record([notification], receivedAtMillis: receivedAt)
        } catch {
            logger.error("store notification not stored", metadata: ["store": "\(store.rawValue)", "error": "\(error)"])
            throw IngestError.storeFailed(error)
        }
        metrics.recordNotification(store: store.rawValue, outcome: outcome.duplicates > 0 ? "duplicate" : "accepted")
        return Response.json(.ok, NotificationAnswer(accepted: outcome.accepted, duplicates: outcome.duplicates, notificationType: notification.type))
    }

    /// `{"accepted", "duplicates", "notificationType"}`: what became of a store's notification.
    struct NotificationAnswer: Encodable {
        let accepted: Int
        let duplicates: Int
        let notificationType: String
    }
}
