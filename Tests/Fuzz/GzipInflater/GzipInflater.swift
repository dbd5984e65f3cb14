import FuzzSupport
import PurchaseSLIGzip

/// The inflater on arbitrary bytes never produces more than its limit and never traps; whatever the
/// compressor makes of the input inflates back to exactly the input, in chunks of any size.
@_cdecl("LLVMFuzzerTestOneInput")
public func gzipInflaterFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let limit = 64 * 1024
    if let inflated = try? inflate(input.bytes, limit: limit) {
        if inflated.count > limit { fuzzFailure("inflated \(inflated.count) bytes past the limit of \(limit)") }
    }
    do {
        let original = Array(input.bytes)
        let compressed = try GzipCompressor.compress(original)
        let roundTrip = try compressed.withUnsafeBytes { try inflate($0, limit: nil, chunkLengths: input.chunkLengths) }
        if roundTrip != original { fuzzFailure("gzip round trip changed \(original.count) bytes into \(roundTrip.count)") }
    } catch {
        fuzzFailure("the compressor's own output did not inflate: \(error)")
    }
    return 0
}

/// Inflates `bytes` fed in chunks of the given lengths (cycled) into one array.
private func inflate(
    _ bytes: UnsafeRawBufferPointer, limit: Int?, chunkLengths: some Sequence<Int> = [Int.max]
) throws -> [UInt8] {
    let inflater = try GzipInflater(chunkSize: 4096, maximumOutputBytes: limit)
    var output: [UInt8] = []
    var offset = 0
    for length in chunkLengths {
        guard offset < bytes.count else { break }
        let end = offset + min(bytes.count - offset, length)
        try inflater.inflate(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { output.append(contentsOf: $0) }
        offset = end
    }
    try inflater.finish()
    return output
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzGzipInflater_main")
public func fuzzGzipInflaterMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, gzipInflaterFuzzTarget)
}
