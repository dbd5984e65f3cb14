public import Hummingbird
import PurchaseSLICore
import PurchaseSLIStorage

/// Why a request to the ingestion API was refused as a whole; each case has its HTTP status, and the
/// body is `{"error": "…"}` (plus `rejected` for a batch with no valid event).
public struct IngestError: HTTPResponseError, Sendable {
    private enum Kind: Sendable {
        case missingKey, unknownKey
        case rateLimited(retryAfterSeconds: Int)
        case tooLarge(String)
        case unsupportedMediaType(String)
        case notImplemented(String)
        case badRequest(String, rejected: [RejectedRecord])
        case bodyTimeout(seconds: Int64)
        case storeUnavailable(String)
        case storeUnanswered(String)
        case shuttingDown
    }

    private let kind: Kind

    static let missingKey = IngestError(kind: .missingKey)
    static let unknownKey = IngestError(kind: .unknownKey)
    static let shuttingDown = IngestError(kind: .shuttingDown)

    static func rateLimited(retryAfterSeconds: Int) -> Self { Self(kind: .rateLimited(retryAfterSeconds: retryAfterSeconds)) }
    static func tooLarge(_ reason: String) -> Self { Self(kind: .tooLarge(reason)) }
    static func unsupportedMediaType(_ reason: String) -> Self { Self(kind: .unsupportedMediaType(reason)) }
    static func notImplemented(_ reason: String) -> Self { Self(kind: .notImplemented(reason)) }
    static func badRequest(_ reason: String, rejected: [RejectedRecord] = []) -> Self {
        Self(kind: .badRequest(reason, rejected: rejected))
    }
    static func storeUnavailable(_ reason: String) -> Self { Self(kind: .storeUnavailable(reason)) }

    /// The refusal of a request whose write failed with `error`: when the database did not answer, the
    /// write may have committed, and the client is told so.
    static func storeFailed(_ error: any Error) -> Self {
        (error as? StorageError)?.isUnavailable == true ? Self(kind: .storeUnanswered("\(error)")) : storeUnavailable("\(error)")
    }
    static func bodyTimeout(seconds: Int64) -> Self { Self(kind: .bodyTimeout(seconds: seconds)) }

    /// The HTTP status of the refusal.
    public var status: HTTPResponse.Status {
        switch kind {
        case .missingKey, .unknownKey: .unauthorized
        case .rateLimited: .tooManyRequests
        case .tooLarge: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .notImplemented: .notImplemented
        case .badRequest: .badRequest
        case .bodyTimeout: .requestTimeout
        case .storeUnavailable, .storeUnanswered, .shuttingDown: .serviceUnavailable
        }
    }

    /// The message for the client and the logs.
    public var message: String {
        switch kind {
        case .missingKey: "missing ingest key: send it in the X-Ingest-Key header (or Authorization: Bearer KEY)"
        case .unknownKey: "unknown ingest key"
        case .rateLimited(let seconds): "rate limit of this ingest key exceeded; retry after \(seconds) s"
        case .tooLarge(let reason), .unsupportedMediaType(let reason), .notImplemented(let reason), .badRequest(let reason, _): reason
        case .storeUnavailable(let reason): "the store cannot commit right now (\(reason)); nothing of this request was counted, retry later"
        case .storeUnanswered(let reason):
            "the store did not answer (\(reason)); this request may or may not have been counted: retry later with the same eventIDs, which count once"
        case .shuttingDown: "the server is shutting down; nothing of this request was counted, retry later"
        case .bodyTimeout(let seconds): "the request body did not arrive within \(seconds) s"
        }
    }

    private var retryAfterSeconds: Int? {
        switch kind {
        case .rateLimited(let seconds): seconds
        case .storeUnavailable, .storeUnanswered, .shuttingDown: 5
        default: nil
        }
    }

    /// The JSON error response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var body = "{\"error\":" + JSONText.quoted(message)
        if case .badRequest(_, let rejected) = kind, !rejected.isEmpty {
            body += ",\"rejected\":[" + rejected.map(\.json).joined(separator: ",") + "]"
        }
        body += "}"
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfterSeconds { headers[.retryAfter] = String(retryAfterSeconds) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
