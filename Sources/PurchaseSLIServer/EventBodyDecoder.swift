import PurchaseSLICore
import PurchaseSLIGzip

/// Turns a request body into validated events and per-record rejects, enforcing the body limits.
struct EventBodyDecoder {
    /// How the body frames its events.
    enum Format {
        /// One event per line (`application/x-ndjson`).
        case ndjson
        /// A JSON array of events or a single event object (`application/json`).
        case json
    }

    struct Decoded {
        var events: [PurchaseEvent] = []
        var rejected: [RejectedRecord] = []
        /// Optional fields left out of accepted events, one per field (the event counted without it).
        var warnings: [RejectedRecord] = []
        /// Records read, valid or not.
        var records = 0
    }

    let configuration: ServerConfiguration
    let validator: EventValidator

    /// Decodes `body` (gzip-compressed when `isGzip`).
    /// - Throws: ``IngestError`` 413 when the decompressed size, ratio or event count is over its limit,
    ///   400 when the gzip stream is corrupt or truncated.
    func decode(_ body: UnsafeRawBufferPointer, format: Format, isGzip: Bool) throws(IngestError) -> Decoded {
        guard isGzip else { return try decodePlain(body, format: format) }
        let limit = min(configuration.maximumDecompressedBytes, configuration.maximumCompressionRatio * max(body.count, 1))
        var inflated: [UInt8] = []
        inflated.reserveCapacity(min(limit, body.count * 8))  // NDJSON events compress about 6:1
        do {
            let inflater = try GzipInflater(chunkSize: 64 << 10, maximumOutputBytes: limit)
            try inflater.inflate(body) { inflated.append(contentsOf: $0) }
            try inflater.finish()
        } catch let error as GzipError where error == .outputLimitExceeded(limit) {
            throw IngestError.tooLarge(
                "decompressed body exceeds \(limit) bytes (limits: \(configuration.maximumDecompressedBytes) bytes and "
                    + "\(configuration.maximumCompressionRatio)× the compressed size)")
        } catch {
            throw IngestError.badRequest("body is not valid gzip: \(error)")
        }
        let result = inflated.withUnsafeBytes { bytes in
            Result { () throws(IngestError) -> Decoded in try decodePlain(bytes, format: format) }
        }
        return try result.get()
    }

    private func decodePlain(_ body: UnsafeRawBufferPointer, format: Format) throws(IngestError) -> Decoded {
        var decoded = Decoded()
        let limit = configuration.maximumEventsPerRequest
        func take(_ record: RecordFramer.Record) throws(IngestError) {
            decoded.records += 1
            guard decoded.records <= limit else {
                throw .tooLarge("more than \(limit) events in one request; split the batch")
            }
            switch record {
            case let .bytes(bytes, position):
                do {
                    var warnings: [EventValidationError] = []
                    decoded.events.append(try validator.event(fromRecord: bytes, warnings: &warnings))
                    decoded.warnings += warnings.map { RejectedRecord(index: position.index, field: $0.field, reason: $0.reason) }
                } catch {
                    decoded.rejected.append(RejectedRecord(index: position.index, field: error.field, reason: error.reason))
                }
            case let .rejected(error, position):
                decoded.rejected.append(RejectedRecord(index: position.index, field: error.field, reason: error.reason))
            }
        }
        if format == .json, let first = body.firstIndex(where: { !Self.isWhitespace($0) }), body[first] == UInt8(ascii: "{") {
            // A single event object, which may span several lines.
            guard body.count <= configuration.maximumLineBytes else {
                throw .tooLarge("the event object is longer than \(configuration.maximumLineBytes) bytes")
            }
            try take(.bytes(body, RecordFramer.Position(line: 1, index: 0)))
            return decoded
        }
        var framer = RecordFramer(maximumRecordBytes: configuration.maximumLineBytes)
        var failure: IngestError?
        let emit: (RecordFramer.Record) -> Void = { record in
            guard failure == nil else { return }
            do throws(IngestError) { try take(record) } catch { failure = error }
        }
        framer.feed(body, emit: emit)
        framer.finish(emit: emit)
        if let failure { throw failure }
        return decoded
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
