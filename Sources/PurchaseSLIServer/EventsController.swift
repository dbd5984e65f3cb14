import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDecoding

/// The ingestion routes: `POST /v1/events` (the event format), `POST /v1/accounts/{accountID}/events`
/// (New Relic's Event API) and `POST /v1/logs` (OTLP/HTTP JSON logs). Each validates a batch through
/// the one decoding pipeline, commits its valid events, and answers only once they are durable.
struct EventsController {
    let configuration: ServerConfiguration
    let committer: GroupCommitter
    let metrics: ServerMetrics
    let logger: Logger
    /// The receiving clock (milliseconds).
    let nowMillis: @Sendable () -> Int64
    private let keys: AccessKeys
    private let limiter: RateLimiter
    private let retriedRecords = RetriedRecords()

    init(
        configuration: ServerConfiguration, committer: GroupCommitter, metrics: ServerMetrics, nowMillis: @escaping @Sendable () -> Int64,
        logger: Logger
    ) {
        self.configuration = configuration
        self.committer = committer
        self.metrics = metrics
        self.nowMillis = nowMillis
        self.logger = logger
        keys = configuration.ingestKeys
        limiter = RateLimiter(ratePerSecond: configuration.requestsPerSecondPerKey, burst: configuration.requestBurstPerKey)
    }

    func addRoutes(to router: Router<some RequestContext>) {
        router.post("/v1/events") { request, _ in try await ingest(request, .events) }
        router.post("/v1/accounts/:accountID/events") { request, _ in
            try await answeringErrors(.newRelic(eventType: configuration.newRelicEventType), request)
        }
        router.post("/v1/logs") { request, _ in try await answeringErrors(.otlp(eventName: configuration.otlpEventName), request) }
    }

    /// Events a client (the Swift SDK) dropped because its queue on disk was full, sent with its next batch.
    static let droppedEventsField = HTTPField.Name(DroppedEventsHeader.name)!

    /// Whether `path` is one of the ingestion routes, which check ingest keys rather than read keys.
    static func isIngestionPath(_ path: String) -> Bool {
        if path == "/v1/events" || path == "/v1/logs" { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 5 && parts[1] == "v1" && parts[2] == "accounts" && !parts[3].isEmpty && parts[4] == "events"
    }

    /// Ingests, answering a refusal in the dialect's own shape rather than ours.
    private func answeringErrors(_ dialect: IngestDialect, _ request: Request) async throws -> Response {
        do {
            return try await ingest(request, dialect)
        } catch let error as IngestError {
            return error.response(in: dialect)
        }
    }

    private func ingest(_ request: Request, _ dialect: IngestDialect) async throws -> Response {
        // Everything that can refuse the request without its body comes first.
        let key = try authenticate(request, dialect)
        if let wait = limiter.take(for: key) {
            throw IngestError.rateLimited(retryAfterSeconds: wait)
        }
        let dropped: Int
        do {
            dropped = try DroppedEventsHeader.count(request.headers[Self.droppedEventsField])
        } catch {
            throw IngestError.badRequest("\(error.field): \(error.reason)")
        }
        let singleObject = try dialect.readsSingleObject(contentType: request.headers[.contentType])
        let isGzip = try Self.isGzip(request.headers[values: .contentEncoding])
        try Self.checkTransferCodings(request.headers[values: .transferEncoding])
        if let length = request.headers[.contentLength].flatMap(Int.init), length > configuration.maximumBodyBytes {
            throw IngestError.tooLarge("body of \(length) bytes exceeds the limit of \(configuration.maximumBodyBytes) bytes")
        }
        let body = try await collectBody(
            of: request, limit: configuration.maximumBodyBytes, timeoutSeconds: configuration.bodyTimeoutSeconds)
        let receivedMillis = nowMillis()
        var decoded = try decode(body, dialect, isGzip: isGzip, singleObject: singleObject, receivedMillis: receivedMillis)
        retriedRecords.settle(&decoded.events, receivedMillis: receivedMillis)
        metrics.recordIgnored(decoded.ignored, format: dialect.name)
        guard !decoded.events.isEmpty else {
            metrics.record(accepted: 0, duplicates: 0, rejected: decoded.rejected)
            if decoded.rejected.isEmpty, dialect.format != .events {
                // Only records of other kinds (or an empty export): nothing to count, nothing wrong.
                return answer(dialect, decoded, accepted: 0, duplicates: 0)
            }
            throw IngestError.badRequest(
                decoded.records == 0 ? "no events in the body" : "no valid event in the batch", rejected: decoded.rejected)
        }
        let outcome: GroupCommitter.Outcome
        do {
            outcome = try await committer.commit(decoded.events, clientDroppedEvents: dropped)
        } catch is GroupCommitter.ShuttingDown {
            throw IngestError.shuttingDown
        } catch {
            logger.error("commit failed", metadata: ["error": "\(error)", "events": "\(decoded.events.count)"])
            throw IngestError.storeFailed(error)
        }
        metrics.record(accepted: outcome.accepted, duplicates: outcome.duplicates, rejected: decoded.rejected)
        // Stored with the batch when it counted something new (a resend, all duplicates, does not count
        // the drops again); a client forgets the number only after this answer.
        if dropped > 0, outcome.accepted > 0 { metrics.recordClientDropped(dropped) }
        return answer(dialect, decoded, accepted: outcome.accepted, duplicates: outcome.duplicates)
    }

    private func decode(
        _ body: [UInt8], _ dialect: IngestDialect, isGzip: Bool, singleObject: Bool, receivedMillis: Int64
    ) throws -> DecodedBatch {
        // An OTLP request is one document, read whole: its limit is the body's, not a line's.
        let recordBytes = dialect.readsWholeDocuments ? configuration.maximumDecompressedBytes : configuration.maximumLineBytes
        let limits = EventDecoder.Limits(
            maximumRecordBytes: recordBytes, maximumRecords: configuration.maximumEventsPerRequest,
            maximumDecompressedBytes: min(
                configuration.maximumDecompressedBytes, configuration.maximumCompressionRatio * max(body.count, 1)))
        let validator = EventValidator(nowMillis: receivedMillis, maximumAgeMillis: configuration.latenessLimitMillis)
        let result = body.withUnsafeBytes { bytes in
            Result { () throws(DecodingFailure) in
                try EventDecoder.decode(
                    bytes, format: dialect.format, validator: validator, limits: limits, compression: isGzip ? .gzip : .none,
                    singleObject: singleObject)
            }
        }
        switch result {
        case .success(let decoded): return decoded
        case .failure(.decompressedTooLarge(let limit)):
            throw IngestError.tooLarge(
                "decompressed body exceeds \(limit) bytes (limits: \(configuration.maximumDecompressedBytes) bytes and "
                    + "\(configuration.maximumCompressionRatio)× the compressed size)")
        case .failure(.gzip(let message)): throw IngestError.badRequest("body is not valid gzip: \(message)")
        case .failure(.tooManyRecords(let limit)): throw IngestError.tooLarge("more than \(limit) events in one request; split the batch")
        case .failure(.recordTooLarge(let message)): throw IngestError.tooLarge(message)
        }
    }

    /// The success answer in the dialect's shape.
    private func answer(_ dialect: IngestDialect, _ decoded: DecodedBatch, accepted: Int, duplicates: Int) -> Response {
        let rejected = decoded.rejected.map(\.answer)
        return switch dialect {
        case .events:
            Response.json(
                .accepted,
                IngestAnswer.Accepted(accepted: accepted, duplicates: duplicates, rejected: rejected, warnings: decoded.warnings.map(\.answer)))
        case .newRelic:
            Response.json(
                .ok,
                IngestAnswer.NewRelicAccepted(
                    uuid: UUID().uuidString.lowercased(), accepted: accepted, duplicates: duplicates, ignored: decoded.ignored, rejected: rejected))
        case .otlp:
            Response.json(
                .ok,
                IngestAnswer.OTLPAccepted(
                    partialSuccess: JSONOmittedIfAbsent(
                        decoded.rejected.isEmpty
                            ? nil
                            : IngestAnswer.OTLPAccepted.PartialSuccess(
                                rejectedLogRecords: "\(decoded.rejected.count)", errorMessage: IngestError.summary(of: decoded.rejected)))))
        }
    }

    /// The presented key, checked when keys are configured.
    private func authenticate(_ request: Request, _ dialect: IngestDialect) throws -> String {
        guard keys.isEnabled else { return "" }
        let bearer = request.headers[.authorization].flatMap { value -> String? in
            dialect.takesBearer && value.lowercased().hasPrefix("bearer ") ? String(value.dropFirst(7)) : nil
        }
        guard let presented = dialect.keyFields.lazy.compactMap({ request.headers[$0] }).first ?? bearer else {
            throw IngestError.missingKey(hint: dialect.keyHint)
        }
        guard let key = keys.match(presented) else { throw IngestError.unknownKey }
        return key
    }

    /// Refuses a transfer coding other than `chunked` (`Transfer-Encoding: gzip, chunked`): the HTTP
    /// layer removes only the chunking, so a compressed body would be read as if it were plain.
    static func checkTransferCodings(_ transferEncodings: [String]) throws {
        let codings = transferEncodings.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        if let unsupported = codings.first(where: { $0 != "chunked" }) {
            throw IngestError.notImplemented(
                "Transfer-Encoding \(unsupported) is not supported; send the body chunked or with Content-Length, "
                    + "and compress it with Content-Encoding: gzip")
        }
    }

    static func isGzip(_ contentEncodings: [String]) throws -> Bool {
        let codings = contentEncodings.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { $0 != "identity" && !$0.isEmpty }
        switch codings {
        case []: return false
        case ["gzip"], ["x-gzip"]: return true
        default:
            throw IngestError.unsupportedMediaType(
                codings.count > 1
                    ? "stacked Content-Encoding (\(codings.joined(separator: ", "))) is not supported; send gzip once"
                    : "Content-Encoding \(codings[0]) is not supported; send gzip or nothing")
        }
    }
}
