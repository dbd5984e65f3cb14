import Foundation
import PurchaseSLIGzip

/// Reads a file (or standard input) a megabyte at a time, decompressing gzip, and hands over its complete
/// lines batch by batch with their line numbers: memory stays bounded by the batch, whatever the file.
struct LineReader {
    private let handle: FileHandle
    private var inflater: GzipInflater?
    private var isFirstChunk = true
    private var pending: [UInt8] = []
    private var nextLineNumber = 1
    private var isFinished = false

    /// Opens `path` (`-` for standard input).
    init(path: String) throws {
        guard let handle = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path) else {
            throw CommandFailure(message: "cannot read \(path)")
        }
        self.handle = handle
    }

    /// The next complete lines (without their newline) and the number of the first, or nil at the end.
    mutating func nextBatch() throws -> (firstLineNumber: Int, lines: [[UInt8]])? {
        while !isFinished {
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            var decoded: [UInt8] = []
            if chunk.isEmpty {
                isFinished = true
                try inflater?.finish()
            } else {
                let bytes = [UInt8](chunk)
                if isFirstChunk, bytes.withUnsafeBytes(GzipInflater.hasGzipMagic) { inflater = try GzipInflater() }
                isFirstChunk = false
                if let inflater {
                    try bytes.withUnsafeBytes { try inflater.inflate($0) { decoded.append(contentsOf: $0) } }
                } else {
                    decoded = bytes
                }
            }
            pending += decoded
            var lines = pending.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
            pending = isFinished ? [] : lines.removeLast()
            if isFinished, lines.last?.isEmpty == true { lines.removeLast() }
            guard !lines.isEmpty else { continue }
            let first = nextLineNumber
            nextLineNumber += lines.count
            return (first, lines)
        }
        return nil
    }
}
