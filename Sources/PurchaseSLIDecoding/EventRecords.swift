import PurchaseSLICore

/// The event format's records, each validated: NDJSON lines or JSON array elements (``RecordFramer``),
/// or, for an `application/json` body, one event object that may span several lines.
struct EventRecords: RecordSource {
    let validator: EventValidator
    let maximumRecordBytes: Int
    /// Whether the input may be one event object rather than NDJSON or an array.
    let singleObject: Bool
    private var framer: RecordFramer
    /// With `singleObject`: nil until the first non-blank byte, then whether that byte opened an object.
    private var isOneObject: Bool?
    private var object: [UInt8] = []

    init(validator: EventValidator, maximumRecordBytes: Int, singleObject: Bool) {
        self.validator = validator
        self.maximumRecordBytes = maximumRecordBytes
        self.singleObject = singleObject
        framer = RecordFramer(maximumRecordBytes: maximumRecordBytes)
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: (DecodedRecord) throws -> Void) throws {
        if singleObject, isOneObject == nil, let first = chunk.firstIndex(where: { !JSONWhitespace.contains($0) }) {
            isOneObject = chunk[first] == UInt8(ascii: "{")
        }
        if isOneObject == true {
            guard object.count + chunk.count <= maximumRecordBytes else {
                throw DecodingFailure.recordTooLarge("the event object is longer than \(maximumRecordBytes) bytes")
            }
            object.append(contentsOf: chunk)
            return
        }
        let validator = validator
        try framer.feed(chunk) { try emit(Self.decode($0, validator)) }
    }

    mutating func finish(emit: (DecodedRecord) throws -> Void) throws {
        let validator = validator
        if isOneObject == true {
            try object.withUnsafeBytes { try emit(Self.decode(.bytes($0, RecordFramer.Position(line: 1, index: 0)), validator)) }
            return
        }
        try framer.finish { try emit(Self.decode($0, validator)) }
    }

    private static func decode(_ record: RecordFramer.Record, _ validator: EventValidator) -> DecodedRecord {
        switch record {
        case let .bytes(bytes, position):
            var warnings: [EventValidationError] = []
            do {
                let event = try validator.event(fromRecord: bytes, warnings: &warnings)
                return .event(event, warnings: warnings.map { RecordReject($0, at: position, kept: true) })
            } catch {
                return .rejected(RecordReject(error, at: position))
            }
        case let .rejected(error, position):
            return .rejected(RecordReject(error, at: position))
        }
    }
}

/// JSON's four whitespace bytes.
enum JSONWhitespace {
    /// Whether `byte` is a space, tab, line feed or carriage return.
    static func contains(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
