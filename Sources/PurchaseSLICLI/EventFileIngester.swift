import Foundation
import PurchaseSLICore
import PurchaseSLIGzip

/// A rejected record, or an optional field left out of an accepted one (`kept`): where it was and why.
struct Reject {
    var file: String
    var line: Int
    var index: Int
    var field: String
    var reason: String
    /// Whether the event was counted without the field (a warning) rather than rejected.
    var kept = false

    /// The reject as one NDJSON line for `--rejects` (`"kept": true` for a warning).
    var jsonLine: String {
        "{\"file\":\(JSONText.quoted(file)),\"line\":\(line),\"index\":\(index),"
            + "\"field\":\(JSONText.quoted(field)),\"reason\":\(JSONText.quoted(reason))" + (kept ? ",\"kept\":true}" : "}")
    }
}

/// Streams event files (NDJSON or JSON array, plain or gzip) through validation into batches.
///
/// Reads fixed-size chunks, so memory does not grow with the file size.
struct EventFileIngester {
    let validator: EventValidator
    let batchSize: Int
    let chunkSize = 1 << 20
    let maximumRecordBytes: Int

    /// Reads one file (`-` for standard input), handing each full batch to `submit` and each rejected
    /// record to `reject`.
    /// - Throws: ``CommandFailure`` when the file cannot be read or its gzip stream is corrupt or truncated.
    func ingest(
        path: String, submit: ([PurchaseEvent]) throws -> Void, reject: (Reject) throws -> Void
    ) throws {
        let descriptor: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { if descriptor != 0 { close(descriptor) } }
        let name = path == "-" ? "<stdin>" : path
        var framer = RecordFramer(maximumRecordBytes: maximumRecordBytes)
        var batch: [PurchaseEvent] = []
        batch.reserveCapacity(batchSize)
        var records = 0
        func handle(_ record: RecordFramer.Record) throws {
            records += 1
            switch record {
            case let .bytes(bytes, position):
                var warnings: [EventValidationError] = []
                switch Result(catching: { () throws(EventValidationError) in try validator.event(fromRecord: bytes, warnings: &warnings) }) {
                case .success(let event):
                    batch.append(event)
                    for warning in warnings {
                        try reject(Reject(
                            file: name, line: position.line, index: position.index, field: warning.field, reason: warning.reason, kept: true))
                    }
                case .failure(let error):
                    try reject(Reject(file: name, line: position.line, index: position.index, field: error.field, reason: error.reason))
                }
                if batch.count >= batchSize {
                    try submit(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            case let .rejected(error, position):
                try reject(Reject(file: name, line: position.line, index: position.index, field: error.field, reason: error.reason))
            }
        }
        var inflater: GzipInflater?
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var isFirstChunk = true
        do {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
                guard count >= 0 else {
                    throw CommandFailure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
                }
                if count == 0 { break }
                try buffer.withUnsafeBytes { whole in
                    let chunk = UnsafeRawBufferPointer(rebasing: whole[..<count])
                    if isFirstChunk, GzipInflater.hasGzipMagic(chunk) || path.hasSuffix(".gz") {
                        inflater = try GzipInflater()
                    }
                    isFirstChunk = false
                    if let inflater {
                        try inflater.inflate(chunk) { try framer.feed($0, emit: handle) }
                    } else {
                        try framer.feed(chunk, emit: handle)
                    }
                }
            }
            try inflater?.finish()
        } catch let error as GzipError {
            if !batch.isEmpty { try submit(batch) }
            throw CommandFailure(
                message: "\(name): \(error.message) after \(records) records; the events before that point were "
                    + "recorded (re-running is safe: duplicates are skipped)")
        }
        try framer.finish(emit: handle)
        if !batch.isEmpty { try submit(batch) }
    }
}
