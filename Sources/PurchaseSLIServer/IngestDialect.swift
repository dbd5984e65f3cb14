import HTTPTypes
import PurchaseSLICore
import PurchaseSLIDecoding

/// The protocol an ingestion route speaks: the format its bodies are in, the headers that carry the
/// ingest key, and the shape of its answers, so that a sender written for New Relic or OpenTelemetry
/// reads ours as it reads theirs.
enum IngestDialect: Sendable {
    /// `POST /v1/events`: the event format; answers 202 with counts and rejects.
    case events
    /// `POST /v1/accounts/{accountID}/events`: New Relic's Event API; answers 200 `{"success": true, "uuid": …}`.
    case newRelic(eventType: String)
    /// `POST /v1/logs`: OTLP/HTTP JSON logs; answers 200 with `partialSuccess` when records were rejected.
    case otlp(eventName: String)

    /// The format of the route's bodies.
    var format: EventFormat {
        switch self {
        case .events: .events
        case .newRelic(let eventType): .newRelic(eventType: eventType)
        case .otlp(let eventName): .otlpLogs(eventName: eventName)
        }
    }

    /// Whether a body is one document read whole (an OTLP request) rather than records of a line's size.
    var readsWholeDocuments: Bool {
        if case .otlp = self { return true }
        return false
    }

    /// The format's name, as metrics label it.
    var name: String { format.name }

    /// The headers that carry the ingest key, in the order they are read (`Authorization: Bearer` is
    /// read after them on the routes that take it).
    var keyFields: [HTTPField.Name] {
        switch self {
        case .events, .otlp: [Self.ingestKey]
        case .newRelic: [Self.apiKey, Self.insertKey]
        }
    }

    /// Whether `Authorization: Bearer KEY` carries the key too.
    var takesBearer: Bool {
        if case .newRelic = self { return false }
        return true
    }

    /// How the missing-key answer tells the sender where to put the key.
    var keyHint: String {
        switch self {
        case .events: "send it in the X-Ingest-Key header (or Authorization: Bearer KEY)"
        case .newRelic: "send it in the Api-Key or X-Insert-Key header"
        case .otlp: "send it in the X-Ingest-Key header (or Authorization: Bearer KEY), e.g. OTEL_EXPORTER_OTLP_HEADERS=x-ingest-key=KEY"
        }
    }

    /// Checks that the route reads a body of `contentType`; whether the body may be one event object
    /// spanning several lines (an `application/json` body of the event format).
    func readsSingleObject(contentType: String?) throws -> Bool {
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        switch (self, mediaType) {
        case (.events, "application/x-ndjson"), (.newRelic, "application/x-ndjson"), (.newRelic, "application/json"), (.otlp, "application/json"):
            return false
        case (.events, "application/json"):
            return true
        case (.otlp, "application/x-protobuf"):
            throw IngestError.unsupportedMediaType(
                "OTLP protobuf is not supported here; send OTLP/HTTP JSON (Content-Type: application/json), e.g. OTEL_EXPORTER_OTLP_PROTOCOL=http/json"
            )
        default:
            let expected =
                switch self {
                case .events: "application/x-ndjson or application/json"
                case .newRelic: "application/json"
                case .otlp: "application/json (OTLP/HTTP JSON)"
                }
            throw IngestError.unsupportedMediaType("Content-Type must be \(expected), got \(contentType.map { "\"\($0)\"" } ?? "none")")
        }
    }

    static let ingestKey = HTTPField.Name("X-Ingest-Key")!
    static let apiKey = HTTPField.Name("Api-Key")!
    static let insertKey = HTTPField.Name("X-Insert-Key")!
}
