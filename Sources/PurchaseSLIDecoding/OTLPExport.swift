import PurchaseSLICore

/// One OTLP export (`ExportLogsServiceRequest`) read in one pass, without a tree of the whole document:
/// its resource logs with their resource and, flattened over the scope logs, their log records. Only the
/// small values the mapping reads (a resource, an attribute's `AnyValue`, a time) become ``JSONValue``s;
/// everything else is checked as JSON and skipped. The same verdicts as reading the document whole.
struct OTLPExport {
    /// A resource log: its resource (nil when absent) and its log records in order.
    struct ResourceLog {
        var resource: JSONValue?
        var records: [Record] = []
    }

    /// What the mapping reads of a log record, and where its bytes are (for the content hash).
    struct Record {
        var eventName: JSONValue?
        /// The attributes as read (see ``OTLPLogRecords``): the plain members up to the first problem.
        var attributes: Attributes = Attributes()
        var timeUnixNano: JSONValue?
        var observedTimeUnixNano: JSONValue?
        var bytes: Range<Int>
    }

    /// A list of OTLP `KeyValue`s read as members with `AnyValue` values still to convert, or what was
    /// there instead of a list.
    struct Attributes {
        /// Each attribute's key (a string, or what was there instead) and its `AnyValue`.
        var items: [(key: JSONValue?, value: JSONValue?)] = []
        /// The value that was not a list, when the member was there but not an array.
        var notAList: JSONValue?

        /// Nothing: no attributes.
        init() {}

        /// The list `notAList` stands in for.
        init(notAList: JSONValue) {
            self.notAList = notAList
        }

        /// The attributes of a value read whole (a resource's): nil for none.
        init(_ value: JSONValue?) {
            switch value {
            case nil: break
            case .array(let list)?: items = list.map { ($0["key"], $0["value"]) }
            case let other?: notAList = other
            }
        }
    }

    /// nil when the document has no `resourceLogs`; `.failure` when it is not an array.
    var resourceLogs: Result<[ResourceLog], NotAnArray>?

    /// `resourceLogs` was there but not an array.
    struct NotAnArray: Error {}

    /// Reads one export document.
    /// - Throws: ``JSONSyntaxError`` for a document that is not JSON (then nothing of it counts).
    static func read(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> OTLPExport {
        var parser = JSONValueParser(bytes)
        var export = OTLPExport()
        parser.skipWhitespace()
        if parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") {
            try parser.members(depth: 1) { (key, parser) throws(JSONSyntaxError) in
                guard key == "resourceLogs" else { return try parser.skipValue(depth: 1) }
                var logs: [ResourceLog] = []
                let isArray = try parser.elements(depth: 2) { (parser) throws(JSONSyntaxError) in logs.append(try parser.resourceLog()) }
                export.resourceLogs = isArray ? .success(logs) : .failure(NotAnArray())
            }
        } else {
            try parser.skipValue(depth: 0)
        }
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected content after the JSON value") }
        return export
    }
}

extension JSONValueParser {
    /// A resource log: its resource, and the log records of its scope logs.
    fileprivate mutating func resourceLog() throws(JSONSyntaxError) -> OTLPExport.ResourceLog {
        var log = OTLPExport.ResourceLog()
        try members(depth: 3) { (key, parser) throws(JSONSyntaxError) in
            switch key {
            case "resource": log.resource = try parser.value(depth: 3)
            case "scopeLogs":
                try parser.elements(depth: 4) { (parser) throws(JSONSyntaxError) in
                    try parser.members(depth: 5) { (key, parser) throws(JSONSyntaxError) in
                        guard key == "logRecords" else { return try parser.skipValue(depth: 5) }
                        try parser.elements(depth: 6) { (parser) throws(JSONSyntaxError) in log.records.append(try parser.logRecord()) }
                    }
                }
            default: try parser.skipValue(depth: 3)
            }
        }
        return log
    }

    /// A log record's event name, attributes and times (a record that is not an object has none).
    private mutating func logRecord() throws(JSONSyntaxError) -> OTLPExport.Record {
        skipWhitespace()
        var record = OTLPExport.Record(bytes: index..<index)
        try members(depth: 7) { (key, parser) throws(JSONSyntaxError) in
            switch key {
            case "eventName": record.eventName = try parser.value(depth: 7)
            case "timeUnixNano": record.timeUnixNano = try parser.value(depth: 7)
            case "observedTimeUnixNano": record.observedTimeUnixNano = try parser.value(depth: 7)
            case "attributes": record.attributes = try parser.attributes(depth: 8)
            default: try parser.skipValue(depth: 7)
            }
        }
        record.bytes = record.bytes.lowerBound..<index
        return record
    }

    /// A list of `KeyValue`s: each item's `key` and `value` (an item that is not an object has neither).
    private mutating func attributes(depth: Int) throws(JSONSyntaxError) -> OTLPExport.Attributes {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
            return OTLPExport.Attributes(notAList: try value(depth: depth - 1))
        }
        var attributes = OTLPExport.Attributes()
        try elements(depth: depth) { (parser) throws(JSONSyntaxError) in
            var item: (key: JSONValue?, value: JSONValue?) = (nil, nil)
            try parser.members(depth: depth + 1) { (key, parser) throws(JSONSyntaxError) in
                switch key {
                case "key": item.key = try parser.value(depth: depth + 1)
                case "value": item.value = try parser.value(depth: depth + 1)
                default: try parser.skipValue(depth: depth + 1)
                }
            }
            attributes.items.append(item)
        }
        return attributes
    }
}
