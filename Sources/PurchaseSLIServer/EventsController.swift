import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Logging
import PurchaseSLICore

/// `POST /v1/events`: validates a batch, commits its valid events, and answers only once they are durable.
struct EventsController {
    let configuration: ServerConfiguration
    let committer: GroupCommitter
    let metrics: ServerMetrics
    let logger: Logger
    private let keys: AccessKeys
    private let limiter: RateLimiter

    init(configuration: ServerConfiguration, committer: GroupCommitter, metrics: ServerMetrics, logger: Logger) {
        self.configuration = configuration
        self.committer = committer
        self.metrics = metrics
        self.logger = logger
        keys = configuration.ingestKeys
        limiter = RateLimiter(ratePerSecond: configuration.requestsPerSecondPerKey, burst: configuration.requestBurstPerKey)
    }

    func addRoutes(to router: Router<some RequestContext>) {
        router.post("/v1/events") { request, _ in try await ingest(request) }
    }

    private func ingest(_ request: Request) async throws -> Response {
        // Everything that can refuse the request without its body comes first.
        let key = try authenticate(request)
        if let wait = limiter.take(for: key, now: Date().timeIntervalSince1970) {
            throw IngestError.rateLimited(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
        }
        let format = try Self.format(of: request.headers[.contentType])
        let isGzip = try Self.isGzip(request.headers[values: .contentEncoding])
        try Self.checkTransferCodings(request.headers[values: .transferEncoding])
        if let length = request.headers[.contentLength].flatMap(Int.init), length > configuration.maximumBodyBytes {
            throw IngestError.tooLarge("body of \(length) bytes exceeds the limit of \(configuration.maximumBodyBytes) bytes")
        }
        let body = try await collectBody(
            of: request, limit: configuration.maximumBodyBytes, timeoutSeconds: configuration.bodyTimeoutSeconds)
        let now = wallClockMillis()
        let decoder = EventBodyDecoder(
            configuration: configuration,
            validator: EventValidator(nowMillis: now, maximumAgeMillis: configuration.latenessLimitMillis))
        let decoded = try body.withUnsafeBytes { bytes in
            Result { () throws(IngestError) in try decoder.decode(bytes, format: format, isGzip: isGzip) }
        }.get()
        guard !decoded.events.isEmpty else {
            metrics.record(accepted: 0, duplicates: 0, rejected: decoded.rejected)
            throw IngestError.badRequest(
                decoded.records == 0 ? "no events in the body" : "no valid event in the batch", rejected: decoded.rejected)
        }
        let outcome: GroupCommitter.Outcome
        do {
            outcome = try await committer.commit(decoded.events)
        } catch is GroupCommitter.ShuttingDown {
            throw IngestError.shuttingDown
        } catch {
            logger.error("commit failed", metadata: ["error": "\(error)", "events": "\(decoded.events.count)"])
            throw IngestError.storeFailed(error)
        }
        metrics.record(accepted: outcome.accepted, duplicates: outcome.duplicates, rejected: decoded.rejected)
        let json = "{\"accepted\":\(outcome.accepted),\"duplicates\":\(outcome.duplicates),\"rejected\":["
            + decoded.rejected.map(\.json).joined(separator: ",") + "],\"warnings\":["
            + decoded.warnings.map(\.json).joined(separator: ",") + "]}"
        return Response(
            status: .accepted, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }

    /// The presented key (X-Ingest-Key, or Authorization: Bearer), checked when keys are configured.
    private func authenticate(_ request: Request) throws -> String {
        guard keys.isEnabled else { return "" }
        let bearer = request.headers[.authorization].flatMap { value -> String? in
            value.lowercased().hasPrefix("bearer ") ? String(value.dropFirst(7)) : nil
        }
        guard let presented = request.headers[Self.ingestKeyField] ?? bearer else { throw IngestError.missingKey }
        guard let key = keys.match(presented) else { throw IngestError.unknownKey }
        return key
    }

    static let ingestKeyField = HTTPField.Name("X-Ingest-Key")!

    static func format(of contentType: String?) throws -> EventBodyDecoder.Format {
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        switch mediaType {
        case "application/x-ndjson": return .ndjson
        case "application/json": return .json
        default:
            throw IngestError.unsupportedMediaType(
                "Content-Type must be application/x-ndjson or application/json, got \(contentType.map { "\"\($0)\"" } ?? "none")")
        }
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
