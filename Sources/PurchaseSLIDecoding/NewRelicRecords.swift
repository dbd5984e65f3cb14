import PurchaseSLICore

/// New Relic Event API payloads: a JSON array of flat objects (or NDJSON of them), each with an
/// `eventType`; those of the purchase SLI event type are mapped by attribute name and validated, the
/// others ignored.
struct NewRelicRecords: RecordSource {
    let eventType: String
    let validator: EventValidator
    private var framer: RecordFramer
    private static let mapping = AttributeMapping(aliases: ["uuid": .eventID])

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
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            return reject("json", error.description)
        }
        guard case .object(let members) = value else { return reject("json", "expected a JSON object (a New Relic event)") }
        switch value["eventType"] {
        case .string(eventType)?: break
        case .string?: return .ignored
        case nil: return reject("eventType", "required field is missing: New Relic's event type (\(eventType) for purchase SLIs)")
        case let other?: return reject("eventType", "expected a string, got \(other.fieldValue.typeName)")
        }
        let raw: RawEvent
        do {
            raw = try mapping.rawEvent(
                members.filter { $0.key != "eventType" }, timestampMillis: nil, receivedMillis: validator.nowMillis,
                identity: { value.canonicalText })
        } catch {
            return .rejected(RecordReject(error, at: position))
        }
        return AttributeMapping.decoded(validator.validate(raw), index: position.index, line: position.line)
    }
}
