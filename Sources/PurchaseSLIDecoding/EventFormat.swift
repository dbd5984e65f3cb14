/// How a stream of events is written: purchase-sli's own event format, or a format that existing
/// instrumentation already speaks, whose records are mapped to the event format by attribute name.
public enum EventFormat: Sendable, Hashable {
    /// The event format: NDJSON, or a JSON array of event objects.
    case events
    /// New Relic's Event API payload: a JSON array of flat objects, of which those whose `eventType` is
    /// `eventType` are purchase SLIs (the others are ignored and counted).
    case newRelic(eventType: String)
    /// OTLP/HTTP JSON logs: one or more `ExportLogsServiceRequest` documents, of whose log records those
    /// whose event name is `eventName` are purchase SLIs (the others are ignored and counted).
    case otlpLogs(eventName: String)

    /// The New Relic event type that carries purchase SLIs unless configured otherwise.
    public static let defaultNewRelicEventType = "PurchaseSLI"
    /// The OpenTelemetry event name that marks a purchase SLI unless configured otherwise.
    public static let defaultOTLPEventName = "purchase_sli"

    /// The format's name in `ingest --format` and in metrics labels: `events`, `newrelic`, `otlp`.
    public var name: String {
        switch self {
        case .events: "events"
        case .newRelic: "newrelic"
        case .otlpLogs: "otlp"
        }
    }
}
