import Foundation
import Hummingbird
import PurchaseSLIApplication
import PurchaseSLICore

/// Who may read: with read keys configured, every request but the health checks (`/healthz`, `/readyz`)
/// and ingestion (`POST /v1/events` and the New Relic and OTLP routes, which check ingest keys) must present one, as
/// `Authorization: Bearer KEY` or, from a browser, HTTP Basic with the key as the password (any user
/// name); an admin key reads too. A request without one gets 401 and a Basic challenge, so a browser asks for it. Each key (or,
/// without read keys, each client address) may make ``ServerConfiguration/readRequestsPerSecond`` reads a
/// second on average, so a few expensive queries cannot starve the service.
struct ReadAccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let keys: AccessKeys
    let adminKeys: AccessKeys
    let limiter: RateLimiter
    let concurrency = ConcurrencyLimiter(limit: Self.maximumConcurrentReads)
    let totalConcurrency = ConcurrencyLimiter(limit: Self.maximumConcurrentReadsInTotal)

    /// Reads one key or address may have in progress at once; more are 429s.
    static var maximumConcurrentReads: Int { 4 }
    /// Reads all clients together may have in progress at once (many addresses are easy to come by): each
    /// holds a reader of the store and memory for its answer, so that a crowd of them queues here instead.
    static var maximumConcurrentReadsInTotal: Int { 16 }

    init(configuration: ServerConfiguration) {
        keys = configuration.readKeys
        adminKeys = configuration.adminKeys
        limiter = RateLimiter(ratePerSecond: configuration.readRequestsPerSecond, burst: configuration.readBurst)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.isOpen(request) else { return try await next(request, context) }
        let reader: String
        if keys.isEnabled {
            guard let presented = Self.presentedKey(request) else { throw ReadAccessError.missingKey }
            guard let key = keys.match(presented) ?? adminKeys.match(presented) else { throw ReadAccessError.unknownKey }
            reader = "key:" + key
        } else {
            reader = "address:" + clientAddress(of: context)
        }
        if let wait = limiter.take(for: reader) {
            throw ReadAccessError.rateLimited(retryAfterSeconds: wait)
        }
        guard let hold = concurrency.take(for: reader) else { throw ReadAccessError.tooManyAtOnce(Self.maximumConcurrentReads) }
        guard let totalHold = totalConcurrency.take(for: "") else { throw ReadAccessError.tooManyAtOnce(nil) }
        var response = try await next(request, context)
        // Held until the answer is written: a streamed answer does its work after the handler returns.
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            defer { withExtendedLifetime((hold, totalHold)) {} }
            try await body.write(writer)
        }
        return response
    }

    /// The health checks and ingestion (events in every format, and the stores' notifications, which authenticate
    /// themselves), which need no read key.
    static func isOpen(_ request: Request) -> Bool {
        let path = request.uri.path
        return path == "/healthz" || path == "/readyz" || EventsController.isIngestionPath(path)
            || path == StoreNotificationsController.applePath || path == StoreNotificationsController.googlePath
    }

    /// The key of `Authorization: Bearer KEY` or the password of `Authorization: Basic base64(user:KEY)`.
    static func presentedKey(_ request: Request) -> String? {
        guard let value = request.headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        switch parts[0].lowercased() {
        case "bearer":
            return String(parts[1]).trimmingCharacters(in: .whitespaces)
        case "basic":
            guard let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
                let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
            else { return nil }
            return String(text[text.index(after: colon)...])
        default:
            return nil
        }
    }
}

/// Why a read was refused: 401 with a Basic challenge, or 429 with `Retry-After`; the body is
/// `{"error": "…"}`.
struct ReadAccessError: HTTPResponseError {
    /// `tooManyAtOnce`: the client's limit, or nil for the limit of all clients together.
    private enum Kind {
        case missingKey, unknownKey
        case rateLimited(Int)
        case tooManyAtOnce(Int?)
    }
    private let kind: Kind

    static let missingKey = ReadAccessError(kind: .missingKey)
    static let unknownKey = ReadAccessError(kind: .unknownKey)
    static func rateLimited(retryAfterSeconds: Int) -> Self { Self(kind: .rateLimited(retryAfterSeconds)) }
    static func tooManyAtOnce(_ limit: Int?) -> Self { Self(kind: .tooManyAtOnce(limit)) }

    var status: HTTPResponse.Status {
        switch kind {
        case .missingKey, .unknownKey: .unauthorized
        case .rateLimited, .tooManyAtOnce: .tooManyRequests
        }
    }

    var message: String {
        switch kind {
        case .missingKey: "this server needs a read key: send Authorization: Bearer KEY, or the key as the password of HTTP Basic"
        case .unknownKey: "unknown read key"
        case .rateLimited(let seconds): "read rate limit exceeded; retry after \(seconds) s"
        case .tooManyAtOnce(let limit?): "\(limit) reads of this client are in progress already; retry when one has been answered"
        case .tooManyAtOnce(nil): "the server is answering as many reads as it takes at once; retry in a second"
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [:]
        switch kind {
        case .missingKey, .unknownKey: headers[.wwwAuthenticate] = "Basic realm=\"purchase-sli\", charset=\"UTF-8\""
        case .rateLimited(let seconds): headers[.retryAfter] = String(seconds)
        case .tooManyAtOnce: headers[.retryAfter] = "1"
        }
        return Response.json(status, ErrorAnswer(error: message), headers: headers)
    }
}
