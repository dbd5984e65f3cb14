import Crypto
import PurchaseSLICore

/// Named attributes (a New Relic event's, an OTLP log record's) read as the fields of the event format:
/// each attribute whose name is a field's (productID, planID, resultType, …) is that field, whatever
/// else the record carries.
enum AttributeMapping {
    private static let fieldsByName = Dictionary(uniqueKeysWithValues: EventField.allCases.map { ($0.name, $0) })

    /// The raw event of `attributes`, of which a later one wins over an earlier one of the same name.
    ///
    /// - The time is `timestampMillis` when given, else a `timestamp` attribute (epoch seconds or
    ///   milliseconds, or RFC 3339 text), else `receivedMillis`, as New Relic and OpenTelemetry take it.
    /// - The eventID is the `eventID` attribute, else the content hash of `identity` (the whole record's
    ///   canonical text): ``contentEventID(of:)``.
    /// - Throws: a `timestamp` number that is no epoch time.
    static func rawEvent(
        _ attributes: [JSONValue.Member], timestampMillis: Int64?, receivedMillis: Int64, identity: () -> String
    ) throws(EventValidationError) -> RawEvent {
        var raw = RawEvent()
        for member in attributes {
            if let field = Self.fieldsByName[member.key] { raw[field] = member.value.fieldValue }
        }
        return try completed(raw, timestampMillis: timestampMillis, receivedMillis: receivedMillis, identity: identity)
    }

    /// `raw` with the time and eventID that records of these formats take when they name none (see
    /// ``rawEvent(_:timestampMillis:receivedMillis:identity:)``).
    static func completed(
        _ raw: RawEvent, timestampMillis: Int64?, receivedMillis: Int64, identity: () -> String
    ) throws(EventValidationError) -> RawEvent {
        var raw = raw
        if let timestampMillis {
            raw[.timestamp] = nil
            raw.timestampMillis = timestampMillis
        } else if case .number(let number)? = raw[.timestamp] {
            raw[.timestamp] = nil
            raw.timestampMillis = try Self.epochMillis(number)
        } else if raw[.timestamp] == nil, raw.timestampMillis == nil {
            raw.timestampMillis = receivedMillis
        }
        if raw[.eventID] == nil || raw[.eventID] == .null { raw.computedEventID = Self.contentEventID(of: identity()) }
        return raw
    }

    /// Epoch seconds (below 10^11, the year 5138) or milliseconds as milliseconds.
    static func epochMillis(_ number: Double) throws(EventValidationError) -> Int64 {
        guard number.isFinite, number >= 0, number < 1e14 else {
            throw EventValidationError(
                field: "timestamp", reason: "expected epoch seconds or milliseconds (or RFC 3339 text), got \(JSONText.number(number))")
        }
        return Int64((number < 1e11 ? number * .millisPerSecond : number).rounded())
    }

    /// The eventID of a record that names none: `purchase-sli:sha256:` (a prefix no sender's id may take)
    /// and the first 32 hexadecimal digits of the SHA-256 of its canonical text. A retried record counts
    /// once; two records alike in every attribute, time included, count once too, which is why senders
    /// should name an eventID.
    static func contentEventID(of identity: String) -> String {
        let digest = SHA256.hash(data: Array(identity.utf8))
        let hex = Array("0123456789abcdef".utf8)
        var text = Array((EventValidator.computedEventIDPrefix + "sha256:").utf8)
        for byte in digest.prefix(16) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The decoded record of a raw event validated, at a position.
    static func decoded(_ result: Result<ValidatedEvent, EventValidationError>, index: Int, line: Int?) -> DecodedRecord {
        switch result {
        case .success(let validated):
            .event(validated.event, warnings: validated.warnings.map { RecordReject($0, index: index, line: line, kept: true) })
        case .failure(let error):
            .rejected(RecordReject(error, index: index, line: line))
        }
    }
}
