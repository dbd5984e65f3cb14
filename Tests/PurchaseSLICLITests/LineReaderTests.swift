import Foundation
import PurchaseSLIGzip
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

@Suite("Files read a megabyte at a time, lines kept whole across the reads")
struct LineReaderTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// Every line of `path` with its number, as the reader hands them over.
    private func read(_ path: String) throws -> [(Int, String)] {
        var reader = try LineReader(path: path)
        var all: [(Int, String)] = []
        while let (first, lines) = try reader.nextBatch() {
            all += lines.enumerated().map { (first + $0.offset, String(decoding: $0.element, as: UTF8.self)) }
        }
        return all
    }

    @Test("plain and gzip files of lines longer than a read give every line once, numbered, the last without a newline")
    func linesAcrossReads() throws {
        let lines = (0..<40).map { index in String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: 70_000 + index) }
        let text = lines.joined(separator: "\n")
        let plain = try directory.write("lines.ndjson", text)
        let gzip = try directory.write("lines.ndjson.gz", try GzipCompressor.compress(Array((text + "\n").utf8)))
        for path in [plain, gzip] {
            let read = try read(path)
            #expect(read.map(\.1) == lines)
            #expect(read.map(\.0) == Array(1...40))
        }
    }
}
