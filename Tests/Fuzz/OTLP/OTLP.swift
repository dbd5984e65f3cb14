import FuzzDecoding
import FuzzSupport

/// OTLP/HTTP JSON log exports of any content: records, not traps, nesting or size whatever; the same
/// records however the body is split or compressed; an event's id is the sender's or computed.
@_cdecl("LLVMFuzzerTestOneInput")
public func otlpFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    ForeignRecords.check(FuzzInput(start, count), format: .otlpLogs(eventName: "purchase_sli"))
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzOTLP_main")
public func fuzzOTLPMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, otlpFuzzTarget)
}
