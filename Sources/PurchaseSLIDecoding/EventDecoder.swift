public import PurchaseSLICore
import PurchaseSLIGzip

/// The one decoding pipeline of every way events arrive (the HTTP routes, `ingest`): decompression,
/// framing, the format's mapping to the event format, validation and limits, fed in chunks of any size.
///
/// Each record is handed out once, as an event, a reject or an ignored record, in input order; memory
/// stays bounded by one record (for OTLP, one document) whatever the input's size.
public struct EventDecoder {
    /// Whether the input is gzip-compressed.
    public enum Compression: Sendable {
        /// Plain.
        case none
        /// gzip (one or more members).
        case gzip
        /// gzip when the input begins with gzip's magic number.
        case detect
    }

    /// What bounds one input.
    public struct Limits: Sendable {
        /// Longest record (NDJSON line, array element, event object, OTLP document), in bytes.
        public var maximumRecordBytes: Int
        /// Most records; nil for no limit.
        public var maximumRecords: Int?
        /// Most bytes a gzip input may inflate to; nil for no limit.
        public var maximumDecompressedBytes: Int?

        /// Creates limits.
        public init(maximumRecordBytes: Int, maximumRecords: Int? = nil, maximumDecompressedBytes: Int? = nil) {
            self.maximumRecordBytes = maximumRecordBytes
            self.maximumRecords = maximumRecords
            self.maximumDecompressedBytes = maximumDecompressedBytes
        }
    }

    /// Records read so far: events, rejects and ignored records.
    public private(set) var recordsRead = 0
    /// Records of another kind read so far (see ``DecodedRecord/ignored``).
    public private(set) var ignoredRecords = 0
    private var source: any RecordSource
    private let limits: Limits
    private var compression: Compression
    private var inflater: GzipInflater?

    /// Creates a decoder.
    /// - Parameters:
    ///   - singleObject: the input may be one event object spanning several lines (an `application/json`
    ///     body), rather than NDJSON or an array; for the event format only.
    public init(
        format: EventFormat, validator: EventValidator, limits: Limits, compression: Compression, singleObject: Bool = false
    ) {
        switch format {
        case .events:
            source = EventRecords(validator: validator, maximumRecordBytes: limits.maximumRecordBytes, singleObject: singleObject)
        case .newRelic(let eventType):
            source = NewRelicRecords(eventType: eventType, validator: validator, maximumRecordBytes: limits.maximumRecordBytes)
        case .otlpLogs(let eventName):
            source = OTLPLogRecords(eventName: eventName, validator: validator, maximumDocumentBytes: limits.maximumRecordBytes)
        }
        self.limits = limits
        self.compression = compression
    }

    /// Feeds the next chunk of input.
    /// - Throws: ``DecodingFailure``, or what `emit` throws.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: (DecodedRecord) throws -> Void) throws {
        guard !chunk.isEmpty else { return }
        if compression == .detect {
            compression = GzipInflater.hasGzipMagic(chunk) ? .gzip : .none
        }
        if compression == .gzip, inflater == nil {
            let limit = limits.maximumDecompressedBytes
            inflater = try Self.gzipFailure { try GzipInflater(chunkSize: 64 << 10, maximumOutputBytes: limit) }
        }
        var counter = RecordCounter(read: recordsRead, ignored: ignoredRecords, limit: limits.maximumRecords)
        var source = self.source
        defer { (self.source, recordsRead, ignoredRecords) = (source, counter.read, counter.ignored) }
        func counted(_ record: DecodedRecord) throws {
            try counter.count(record)
            try emit(record)
        }
        if let inflater {
            try Self.gzipFailure { try inflater.inflate(chunk) { try source.feed($0, emit: counted) } }
        } else {
            try source.feed(chunk, emit: counted)
        }
    }

    /// Signals the end of input.
    /// - Throws: ``DecodingFailure`` (a truncated gzip stream), or what `emit` throws.
    public mutating func finish(emit: (DecodedRecord) throws -> Void) throws {
        if let inflater { try Self.gzipFailure { try inflater.finish() } }
        var counter = RecordCounter(read: recordsRead, ignored: ignoredRecords, limit: limits.maximumRecords)
        var source = self.source
        defer { (self.source, recordsRead, ignoredRecords) = (source, counter.read, counter.ignored) }
        func counted(_ record: DecodedRecord) throws {
            try counter.count(record)
            try emit(record)
        }
        try source.finish(emit: counted)
    }

    /// Decodes a whole input (a request body) into its events and rejects.
    public static func decode(
        _ input: UnsafeRawBufferPointer, format: EventFormat, validator: EventValidator, limits: Limits,
        compression: Compression, singleObject: Bool = false
    ) throws(DecodingFailure) -> DecodedBatch {
        var decoder = EventDecoder(
            format: format, validator: validator, limits: limits, compression: compression, singleObject: singleObject)
        var batch = DecodedBatch()
        let add: (DecodedRecord) -> Void = { record in
            switch record {
            case let .event(event, warnings):
                batch.events.append(event)
                batch.warnings += warnings
            case .rejected(let reject): batch.rejected.append(reject)
            case .ignored: break
            }
        }
        do {
            try decoder.feed(input, emit: add)
            try decoder.finish(emit: add)
        } catch let failure as DecodingFailure {
            throw failure
        } catch {
            preconditionFailure("only the decoder throws here: \(error)")
        }
        batch.records = decoder.recordsRead
        batch.ignored = decoder.ignoredRecords
        return batch
    }

    /// Runs zlib work, turning its errors into ``DecodingFailure``s (and leaving others as they are).
    private static func gzipFailure<Value>(_ work: () throws -> Value) throws -> Value {
        do {
            return try work()
        } catch let error as GzipError {
            if let limit = error.exceededLimit { throw DecodingFailure.decompressedTooLarge(limit: limit) }
            throw DecodingFailure.gzip(error.message)
        }
    }
}

/// A whole input decoded: its events and the problems of its records.
public struct DecodedBatch: Sendable {
    /// The valid events, in input order.
    public var events: [PurchaseEvent] = []
    /// The records not counted.
    public var rejected: [RecordReject] = []
    /// Optional fields left out of counted events.
    public var warnings: [RecordReject] = []
    /// Records read: events, rejects and ignored records.
    public var records = 0
    /// Records of another kind, not purchase SLIs.
    public var ignored = 0
}

/// Counts records as they are handed out, refusing one past the limit.
private struct RecordCounter {
    var read: Int
    var ignored: Int
    let limit: Int?

    mutating func count(_ record: DecodedRecord) throws {
        read += 1
        if let limit, read > limit { throw DecodingFailure.tooManyRecords(limit: limit) }
        if case .ignored = record { ignored += 1 }
    }
}
