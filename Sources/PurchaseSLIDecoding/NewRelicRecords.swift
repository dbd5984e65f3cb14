import PurchaseSLICore

/// New Relic Event API payloads: a JSON array of flat objects (or NDJSON of them), each with an
/// `eventType`; those of the purchase SLI event type are mapped by attribute name and validated, the
/// others ignored.
struct NewRelicRecords: RecordSource {
    let eventType: String
    let validator: EventValidator
    private var framer: RecordFramer

    init(eventType: String, validator: EventValidator, maximumRecordBytes: Int) {
        self.eventType = eventType
        self.validator = validator
        framer = RecordFramer(maximumRecordBytes: maximumRecordBytes)
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: (DecodedRecord) throws -> Void) throws {
        let (eventType, validator) = (eventType, validator)
        try framer.feed(chunk) { try emit(Self.decode($0, eventType: eventType, validator: validator)) }
    }

    mutating func finish(emit: (DecodedRecord) throws -> Void) throws {
        let (eventType, validator) = (eventType, validator)
        try framer.finish { try emit(Self.decode($0, eventType: eventType, validator: validator)) }
    }

    private static func decode(_ record: RecordFramer.Record, eventType: String, validator: EventValidator) -> DecodedRecord {
        let (bytes, position): (UnsafeRawBufferPointer, RecordFramer.Position)
        switch record {
        case let .bytes(recordBytes, recordPosition): (bytes, position) = (recordBytes, recordPosition)
        case let .rejected(error, position): return .rejected(RecordReject(error, at: position))
        }
        func reject(_ field: String, _ reason: String) -> DecodedRecord {
            .rejected(RecordReject(index: position.index, line: position.line, field: field, reason: reason))
        }
        // The event format's own parser, which also reads eventType and uuid: the same cost per record.
        let parsed: (event: RawEvent, extras: [JSONFieldValue?])
        do {
            parsed = try EventJSONParser.parse(bytes, extraKeys: ["eventType", "uuid"])
        } catch {
            return reject("json", error.description)
        }
        switch parsed.extras[0] {
        case .string(eventType)?: break
        case .string?: return .ignored
        case nil: return reject("eventType", "required field is missing: New Relic's event type (\(eventType) for purchase SLIs)")
        case let other?: return reject("eventType", "expected a string, got \(other.typeName)")
        }
        var raw = parsed.event
        if raw[.eventID] == nil, let uuid = parsed.extras[1] { raw[.eventID] = uuid }
        do {
            raw = try AttributeMapping.completed(raw, timestampMillis: nil, receivedMillis: validator.nowMillis) {
                // Only for a record that names no id: its whole content, whatever the order of its keys.
                (try? JSONValue.parse(bytes).canonicalText) ?? String(decoding: bytes, as: UTF8.self)
            }
        } catch {
            return .rejected(RecordReject(error, at: position))
        }
        return AttributeMapping.decoded(validator.validate(raw), index: position.index, line: position.line)
    }
}
