import PurchaseSLIGzip
import Testing

private func inflateAll(_ compressed: [UInt8], chunkSize: Int = 1 << 16, limit: Int? = nil) throws -> [UInt8] {
    let inflater = try GzipInflater(chunkSize: 1024, maximumOutputBytes: limit)
    var output: [UInt8] = []
    var start = 0
    while start < compressed.count {
        let end = min(compressed.count, start + chunkSize)
        try compressed[start..<end].withUnsafeBytes { try inflater.inflate($0) { output += $0 } }
        start = end
    }
    try inflater.finish()
    return output
}

@Suite struct GzipInflaterTests {
    let text = Array((0..<5000).map { "{\"eventID\":\"e-\($0)\",\"productID\":\"coins_100\"}\n" }.joined().utf8)

    @Test(arguments: [1, 17, 1 << 16])
    func roundTripsAtAnyChunkSize(chunkSize: Int) throws {
        #expect(try inflateAll(GzipCompressor.compress(text), chunkSize: chunkSize) == text)
    }

    @Test func inflatesConcatenatedMembers() throws {
        let first = Array("{\"a\":1}\n".utf8)
        let second = Array("{\"b\":2}\n".utf8)
        let joined = try GzipCompressor.compress(first) + GzipCompressor.compress(second)
        #expect(try inflateAll(joined) == first + second)
    }

    @Test(arguments: [1, 4, 8, 100])
    func rejectsATruncatedStream(droppedBytes: Int) throws {
        let compressed = try GzipCompressor.compress(text)
        #expect(throws: GzipError.truncated) { try inflateAll(Array(compressed.dropLast(droppedBytes))) }
    }

    @Test func rejectsACorruptStream() throws {
        var compressed = try GzipCompressor.compress(text)
        compressed[compressed.count / 2] ^= 0xFF
        compressed[compressed.count / 2 + 1] ^= 0x5A
        let error = #expect(throws: GzipError.self) { try inflateAll(compressed) }
        #expect(error?.message.contains("gzip") == true)
    }

    @Test func stopsAtTheOutputLimit() throws {
        let bomb = try GzipCompressor.compress([UInt8](repeating: 0x20, count: 10 << 20))
        #expect(throws: GzipError.outputLimitExceeded(1 << 20)) { try inflateAll(bomb, limit: 1 << 20) }
    }

    @Test func detectsTheMagicNumber() throws {
        let compressed = try GzipCompressor.compress(text)
        #expect(compressed.withUnsafeBytes(GzipInflater.hasGzipMagic))
        #expect(!text.withUnsafeBytes(GzipInflater.hasGzipMagic))
    }
}
