public import Hummingbird
import PurchaseSLICore
import PurchaseSLIDecoding
import PurchaseSLIStorage

/// Why a request to the ingestion API was refused as a whole; each case has its HTTP status, and the
/// body is `{"error": "…"}` (plus `rejected` for a batch with no valid event), or on the New Relic and
/// OTLP routes the shape those protocols answer errors in.
public struct IngestError: HTTPResponseError, Sendable {
    private enum Kind: Sendable {
        case missingKey(hint: String)
        case unknownKey
        case rateLimited(retryAfterSeconds: Int, of: String)
        case tooLarge(String)
        case unsupportedMediaType(String)
        case notImplemented(String)
        case forbidden(String)
        case notFound(String)
        case conflict(String)
        case unprocessable(String)
        case badRequest(String, rejected: [RecordReject])
        case bodyTimeout(seconds: Int64)
        case storeUnavailable(String)
        case storeUnanswered(String)
        case shuttingDown
    }

    private let kind: Kind

    static func missingKey(hint: String) -> Self { Self(kind: .missingKey(hint: hint)) }
    static let unknownKey = IngestError(kind: .unknownKey)
    static let shuttingDown = IngestError(kind: .shuttingDown)

    /// A client past its rate: `of` names it in the message (`this ingest key`).
    static func rateLimited(retryAfterSeconds: Int, of client: String = "this ingest key") -> Self {
        Self(kind: .rateLimited(retryAfterSeconds: retryAfterSeconds, of: client))
    }
    static func tooLarge(_ reason: String) -> Self { Self(kind: .tooLarge(reason)) }
    static func unsupportedMediaType(_ reason: String) -> Self { Self(kind: .unsupportedMediaType(reason)) }
    static func notImplemented(_ reason: String) -> Self { Self(kind: .notImplemented(reason)) }
    static func forbidden(_ reason: String) -> Self { Self(kind: .forbidden(reason)) }
    static func notFound(_ reason: String) -> Self { Self(kind: .notFound(reason)) }
    static func conflict(_ reason: String) -> Self { Self(kind: .conflict(reason)) }
    static func unprocessable(_ reason: String) -> Self { Self(kind: .unprocessable(reason)) }
    static func badRequest(_ reason: String, rejected: [RecordReject] = []) -> Self {
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
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .unprocessable: .unprocessableContent
        case .badRequest: .badRequest
        case .bodyTimeout: .requestTimeout
        case .storeUnavailable, .storeUnanswered, .shuttingDown: .serviceUnavailable
        }
    }

    /// The message for the client and the logs.
    public var message: String {
        switch kind {
        case .missingKey(let hint): "missing ingest key: \(hint)"
        case .unknownKey: "unknown ingest key"
        case .rateLimited(let seconds, let client): "rate limit of \(client) exceeded; retry after \(seconds) s"
        case .tooLarge(let reason), .unsupportedMediaType(let reason), .notImplemented(let reason), .badRequest(let reason, _),
            .forbidden(let reason), .notFound(let reason), .conflict(let reason), .unprocessable(let reason):
            reason
        case .storeUnavailable(let reason): "the store cannot commit right now (\(reason)); nothing of this request was counted, retry later"
        case .storeUnanswered(let reason):
            "the store did not answer (\(reason)); this request may or may not have been counted: retry later with the same eventIDs, which count once"
        case .shuttingDown: "the server is shutting down; nothing of this request was counted, retry later"
        case .bodyTimeout(let seconds): "the request body did not arrive within \(seconds) s"
        }
    }

    private var retryAfterSeconds: Int? {
        switch kind {
        case .rateLimited(let seconds, _): seconds
        case .storeUnavailable, .storeUnanswered, .shuttingDown: 5
        default: nil
        }
    }

    /// The JSON error response of `POST /v1/events` and the other routes.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response(in: .events)
    }

    /// The error response in a route's dialect: `{"error": …}`, New Relic's `{"success": false,
    /// "error": …}`, or OTLP's `google.rpc.Status` (`{"code": …, "message": …}`).
    func response(in dialect: IngestDialect) -> Response {
        let rejected: [RecordReject] = if case .badRequest(_, let rejected) = kind { rejected } else { [] }
        let listed = JSONOmittedIfAbsent(rejected.isEmpty ? nil : rejected.map(\.answer))
        var headers: HTTPFields = [:]
        if let retryAfterSeconds { headers[.retryAfter] = String(retryAfterSeconds) }
        return switch dialect {
        case .events: Response.json(status, IngestAnswer.Failure(error: message, rejected: listed), headers: headers)
        case .newRelic: Response.json(status, IngestAnswer.NewRelicFailure(error: message, rejected: listed), headers: headers)
        case .otlp:
            Response.json(
                status, IngestAnswer.RPCStatus(code: rpcCode, message: rejected.isEmpty ? message : message + ": " + Self.summary(of: rejected)),
                headers: headers)
        }
    }

    /// The gRPC status code OTLP pairs with the HTTP status (INVALID_ARGUMENT, UNAUTHENTICATED, …).
    private var rpcCode: Int {
        switch status {
        case .unauthorized: 16
        case .tooManyRequests: 8
        case .serviceUnavailable: 14
        case .requestTimeout: 4
        default: 3
        }
    }

    /// The first rejects as one line (`record 3: productID: required field is missing; …`), for answers
    /// that carry text rather than a list.
    static func summary(of rejected: [RecordReject]) -> String {
        let shown = rejected.prefix(5).map { "record \($0.index): \($0.field): \($0.reason)" }
        return shown.joined(separator: "; ") + (rejected.count > shown.count ? "; and \(rejected.count - shown.count) more" : "")
    }
}
