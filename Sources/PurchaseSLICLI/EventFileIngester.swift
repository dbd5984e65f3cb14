import Foundation
import PurchaseSLICore
import PurchaseSLIDecoding

/// Streams event files (in any ``EventFormat``, plain or gzip) through the decoding pipeline into
/// batches.
///
/// Reads fixed-size chunks, so memory does not grow with the file size (an OTLP document is read whole).
struct EventFileIngester {
    let format: EventFormat
    let validator: EventValidator
    let batchSize: Int
    let chunkSize = 1 << 20
    let maximumRecordBytes: Int

    /// The most bytes one OTLP document (a whole export request) may hold in a file.
    static let maximumOTLPDocumentBytes = 64 << 20

    /// Reads one file (`-` for standard input), handing each full batch to `submit` (after the chunk that
    /// filled it is decoded) and each rejected record (or optional field left out) to `reject` with the
    /// file's name; returns the number of records of other kinds it ignored.
    /// - Throws: ``CommandFailure`` when the file cannot be read or its gzip stream is corrupt or truncated.
    func ingest(
        path: String, submit: ([PurchaseEvent]) async throws -> Void, reject: (String, RecordReject) throws -> Void
    ) async throws -> Int {
        let descriptor: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { if descriptor != 0 { close(descriptor) } }
        let name = path == "-" ? "<stdin>" : path
        let recordBytes = if case .otlpLogs = format { max(maximumRecordBytes, Self.maximumOTLPDocumentBytes) } else { maximumRecordBytes }
        var decoder = EventDecoder(
            format: format, validator: validator, limits: EventDecoder.Limits(maximumRecordBytes: recordBytes),
            compression: path.hasSuffix(".gz") ? .gzip : .detect)
        var batch: [PurchaseEvent] = []
        batch.reserveCapacity(batchSize)
        /// Batches filled by the chunk being decoded, submitted once it is.
        var full: [[PurchaseEvent]] = []
        func take(_ record: DecodedRecord) throws {
            switch record {
            case let .event(event, warnings):
                batch.append(event)
                for warning in warnings { try reject(name, warning) }
                if batch.count >= batchSize {
                    full.append(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            case .rejected(let rejected): try reject(name, rejected)
            case .ignored: break
            }
        }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        do {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
                guard count >= 0 else {
                    throw CommandFailure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
                }
                if count == 0 { break }
                try buffer.withUnsafeBytes { try decoder.feed(UnsafeRawBufferPointer(rebasing: $0[..<count]), emit: take) }
                for filled in full { try await submit(filled) }
                full.removeAll()
            }
            try decoder.finish(emit: take)
        } catch let failure as DecodingFailure {
            for filled in full { try await submit(filled) }
            if !batch.isEmpty { try await submit(batch) }
            throw CommandFailure(
                message: "\(name): \(failure) after \(decoder.recordsRead) records; the events before that point were "
                    + "recorded (re-running is safe: duplicates are skipped)")
        }
        for filled in full { try await submit(filled) }
        if !batch.isEmpty { try await submit(batch) }
        return decoder.ignoredRecords
    }
}
