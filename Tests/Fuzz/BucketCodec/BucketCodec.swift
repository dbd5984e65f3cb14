import FuzzSupport
import PurchaseSLIStorage

/// A stored bucket or error blob of any content (a damaged database) decodes or throws, never traps;
/// what decodes re-encodes to a blob that decodes the same, and merging it with itself doubles it.
@_cdecl("LLVMFuzzerTestOneInput")
public func bucketCodecFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput(start, count).bytes
    if let entries = try? BucketCodec.decode(bytes) {
        let encoded = BucketCodec.encode(entries)
        guard let again = try? encoded.withUnsafeBytes({ try BucketCodec.decode($0) }),
            again.map(\.series) == entries.map(\.series), again.map(\.counts) == entries.map(\.counts)
        else { fuzzFailure("a decoded bucket of \(entries.count) entries did not survive re-encoding") }
        _ = try? BucketCodec.merge(bytes, adding: entries)
    }
    if let entries = try? ErrorCodec.decode(bytes) {
        let encoded = ErrorCodec.encode(entries)
        guard let again = try? encoded.withUnsafeBytes({ try ErrorCodec.decode($0) }),
            again.map(\.entry) == entries.map(\.entry), again.map(\.events) == entries.map(\.events)
        else { fuzzFailure("decoded errors of \(entries.count) entries did not survive re-encoding") }
        _ = try? ErrorCodec.merge(bytes, adding: entries)
    }
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzBucketCodec_main")
public func fuzzBucketCodecMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, bucketCodecFuzzTarget)
}
