public import PurchaseSLICore

/// A record that was not counted, or an optional field left out of one that was (`kept`): where it
/// stood in its input and why. The one reject type of every format, route and command.
public struct RecordReject: Sendable, Hashable {
    /// 0-based ordinal of the record among its input's records (NDJSON lines, array elements, OTLP log
    /// records).
    public var index: Int
    /// 1-based line on which the record starts, when the input has lines worth naming.
    public var line: Int?
    /// The field at fault (its name in the event format, or the attribute's), `json` for malformed JSON,
    /// `record` for an over-long record.
    public var field: String
    /// What was wrong and what was expected.
    public var reason: String
    /// Whether the event was counted without the field (a warning) rather than rejected.
    public var kept: Bool

    /// Creates a reject.
    public init(index: Int, line: Int?, field: String, reason: String, kept: Bool = false) {
        self.index = index
        self.line = line
        self.field = field
        self.reason = reason
        self.kept = kept
    }

    /// The reject of a validation error at a position.
    init(_ error: EventValidationError, index: Int, line: Int?, kept: Bool = false) {
        self.init(index: index, line: line, field: error.field, reason: error.reason, kept: kept)
    }

    /// The reject of a validation error at a framed record's position.
    init(_ error: EventValidationError, at position: RecordFramer.Position, kept: Bool = false) {
        self.init(error, index: position.index, line: position.line, kept: kept)
    }

    /// `{"index": i, "field": "…", "reason": "…"}`, as the ingestion routes answer it.
    public struct Answer: Encodable, Sendable {
        let index: Int
        let field: String
        let reason: String
    }

    /// One line of `ingest --rejects`: `{"file", "line", "index", "field", "reason"}`, and `"kept": true`
    /// for a warning.
    public struct Line: Encodable, Sendable {
        let file: String
        let line: Int?
        let index: Int
        let field: String
        let reason: String
        let kept: JSONOmittedIfAbsent<Bool>
    }

    /// The reject as the ingestion routes answer it.
    public var answer: Answer { Answer(index: index, field: field, reason: reason) }

    /// One NDJSON line of `ingest --rejects`, of a record of `file`.
    public func jsonLine(file: String) -> String {
        JSONTextEncoder.text(Line(file: file, line: line, index: index, field: field, reason: reason, kept: JSONOmittedIfAbsent(kept ? true : nil)))
    }
}

/// What the decoder made of one record.
public enum DecodedRecord {
    /// A valid event, with the optional fields left out of it.
    case event(PurchaseEvent, warnings: [RecordReject])
    /// A record that is not a valid event.
    case rejected(RecordReject)
    /// A record of another kind (another New Relic event type, a log record of another event name),
    /// not a purchase SLI.
    case ignored
}
