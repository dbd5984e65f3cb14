import PurchaseSLICore

/// OTLP/HTTP JSON logs (`ExportLogsServiceRequest`: `resourceLogs` → `scopeLogs` → `logRecords`): the
/// log records whose event name (`eventName`, or the `event.name` attribute) marks a purchase SLI are
/// mapped by attribute name and validated, the others ignored. Index `i` of a reject is the i-th log
/// record of the input, counting every document's.
///
/// Besides the record's attributes, the resource's `service.version` is the appVersion, `os.name` the
/// platform and `os.version` the osVersion (a record's own attribute wins); `timeUnixNano` (else
/// `observedTimeUnixNano`) is the timestamp.
struct OTLPLogRecords: RecordSource {
    let eventName: String
    let validator: EventValidator
    private var splitter: JSONDocumentSplitter
    private var nextIndex = 0
    /// Resource attributes (OpenTelemetry's semantic conventions) read as fields of the event format.
    private static let resourceFields = ["service.version": "appVersion", "os.name": "platform", "os.version": "osVersion"]

    init(eventName: String, validator: EventValidator, maximumDocumentBytes: Int) {
        self.eventName = eventName
        self.validator = validator
        splitter = JSONDocumentSplitter(maximumDocumentBytes: maximumDocumentBytes)
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: (DecodedRecord) throws -> Void) throws {
        var splitter = self.splitter
        defer { self.splitter = splitter }
        try splitter.feed(chunk) { try take($0, emit) }
    }

    mutating func finish(emit: (DecodedRecord) throws -> Void) throws {
        var splitter = self.splitter
        defer { self.splitter = splitter }
        try splitter.finish { try take($0, emit) }
    }

    private mutating func take(_ piece: JSONDocumentSplitter.Piece, _ emit: (DecodedRecord) throws -> Void) throws {
        func reject(_ field: String, _ reason: String, line: Int) throws {
            try emit(.rejected(RecordReject(index: nextIndex, line: line, field: field, reason: reason)))
            nextIndex += 1
        }
        switch piece {
        case .tooLong(let line):
            try reject(
                "record", "an OTLP document longer than the limit of \(splitter.maximumDocumentBytes) bytes; none of its log records was read",
                line: line)
        case .stray(let line):
            try reject("json", "expected an OTLP JSON document '{'; the rest of the line was not read", line: line)
        case .unterminated(let line):
            try reject("json", "the input ended inside an OTLP document; none of its log records was read", line: line)
        case let .document(bytes, line):
            let export: OTLPExport
            do {
                export = try OTLPExport.read(bytes)
            } catch {
                try reject("json", error.description + "; none of the document's log records was read", line: line)
                return
            }
            try take(export, bytes: bytes, line: line, emit)
        }
    }

    private mutating func take(
        _ export: OTLPExport, bytes: UnsafeRawBufferPointer, line: Int, _ emit: (DecodedRecord) throws -> Void
    ) throws {
        switch export.resourceLogs {
        case nil: return  // an empty request: nothing to read
        case .failure?:
            try emit(.rejected(RecordReject(index: nextIndex, line: line, field: "resourceLogs", reason: "expected an array")))
            nextIndex += 1
        case .success(let resourceLogs)?:
            for resourceLog in resourceLogs {
                let resource = Self.attributes(OTLPExport.Attributes(resourceLog.resource?["attributes"]))
                let resourceMembers = resource.members.compactMap { member in
                    Self.resourceFields[member.key].map { JSONValue.Member(key: $0, value: member.value) }
                }
                for record in resourceLog.records {
                    try emit(decode(record, bytes: bytes, resourceMembers: resourceMembers, resource: resourceLog.resource, line: line))
                    nextIndex += 1
                }
            }
        }
    }

    private func decode(
        _ record: OTLPExport.Record, bytes: UnsafeRawBufferPointer, resourceMembers: [JSONValue.Member], resource: JSONValue?, line: Int
    ) -> DecodedRecord {
        func reject(_ field: String, _ reason: String) -> DecodedRecord {
            .rejected(RecordReject(index: nextIndex, line: line, field: field, reason: reason))
        }
        let attributes = Self.attributes(record.attributes)
        let name: JSONValue? =
            record.eventName.flatMap { $0 == .string("") ? nil : $0 }
            ?? attributes.members.last { $0.key == "event.name" }?.value
        // A record of another kind is not ours to judge, whatever its attributes hold.
        guard name == .string(eventName) else { return .ignored }
        if let problem = attributes.problem { return reject(problem.key, problem.reason) }
        let timestampMillis: Int64?
        switch (Self.unixNanos(record.timeUnixNano), Self.unixNanos(record.observedTimeUnixNano)) {
        case (.failure(let problem), _): return reject("timeUnixNano", problem.reason)
        case (.success(let nanos?), _), (.success(nil), .success(let nanos?)): timestampMillis = nanos / 1_000_000
        case (.success(nil), _): timestampMillis = nil
        }
        let raw: RawEvent
        do {
            raw = try AttributeMapping.rawEvent(
                resourceMembers + attributes.members, timestampMillis: timestampMillis, receivedMillis: validator.nowMillis,
                identity: {
                    // Only for a record that names no id: the record's and the resource's whole content.
                    let recordBytes = UnsafeRawBufferPointer(rebasing: bytes[record.bytes])
                    return ((try? JSONValue.parse(recordBytes).canonicalText) ?? "") + (resource?.canonicalText ?? "")
                })
        } catch {
            return .rejected(RecordReject(error, index: nextIndex, line: line))
        }
        return AttributeMapping.decoded(validator.validate(raw), index: nextIndex, line: line)
    }

    /// A time in nanoseconds since the epoch (a decimal string, as protobuf's JSON writes 64-bit integers,
    /// or a number); nil when absent or 0, which OTLP uses for "unknown".
    private static func unixNanos(_ value: JSONValue?) -> Result<Int64?, DecodeProblem> {
        switch value {
        case nil, .null?: return .success(nil)
        case .string(let text)?:
            guard let nanos = UInt64(text), nanos <= UInt64(Int64.max) else {
                return .failure(DecodeProblem("expected nanoseconds since the epoch as a decimal string, got \(JSONText.quoted(text))"))
            }
            return .success(nanos == 0 ? nil : Int64(nanos))
        case .number(let number)?:
            guard number >= 0, number < 9.2e18, number.rounded() == number else {
                return .failure(DecodeProblem("expected nanoseconds since the epoch, got \(JSONText.number(number))"))
            }
            return .success(number == 0 ? nil : Int64(number))
        case let other?:
            return .failure(DecodeProblem("expected nanoseconds since the epoch, got \(other.fieldValue.typeName)"))
        }
    }

    /// A list of OTLP `KeyValue`s as members with plain JSON values, or the first problem.
    private static func attributes(_ read: OTLPExport.Attributes) -> (members: [JSONValue.Member], problem: (key: String, reason: String)?) {
        if let other = read.notAList {
            return ([], other == .null ? nil : ("attributes", "expected an array of {\"key\", \"value\"}"))
        }
        var members: [JSONValue.Member] = []
        for item in read.items {
            guard case .string(let key)? = item.key else { return (members, ("attributes", "an attribute without a string key")) }
            switch anyValue(item.value) {
            case .success(let value): members.append(JSONValue.Member(key: key, value: value))
            case .failure(let problem): return (members, (key, problem.reason))
            }
        }
        return (members, nil)
    }

    /// An OTLP `AnyValue` (`{"stringValue": …}`, `{"intValue": "…"}`, …) as a plain JSON value.
    private static func anyValue(_ value: JSONValue?) -> Result<JSONValue, DecodeProblem> {
        guard case .object(let members)? = value, let member = members.first else { return .success(.null) }
        switch (member.key, member.value) {
        case ("stringValue", .string), ("boolValue", .bool), ("doubleValue", .number), ("intValue", .number), ("bytesValue", .string):
            return .success(member.value)
        case ("intValue", .string(let text)):
            // Protobuf's JSON writes 64-bit integers as decimal strings; one that is not passes on as the
            // string it is, for the field's own check to judge (a warning for an optional field).
            return .success(Int64(text).map { .number(Double($0)) } ?? .string(text))
        case ("doubleValue", .string(let text)) where ["NaN", "Infinity", "-Infinity"].contains(text):
            return .success(.number(.nan))
        case ("arrayValue", _): return .success(.array([]))
        case ("kvlistValue", _): return .success(.object([]))
        default:
            return .failure(
                DecodeProblem(
                    "expected an OTLP AnyValue such as {\"stringValue\": \"…\"}, got \(member.key) with \(member.value.fieldValue.typeName)"))
        }
    }
}

/// What was wrong with one part of an OTLP record.
struct DecodeProblem: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
