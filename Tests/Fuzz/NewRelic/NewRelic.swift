import FuzzDecoding
import FuzzSupport

/// New Relic Event API payloads of any content: records, not traps; the same records however the body
/// is split or compressed; an event's id is the sender's or computed, never a claimed computed one.
@_cdecl("LLVMFuzzerTestOneInput")
public func newRelicFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    ForeignRecords.check(FuzzInput(start, count), format: .newRelic(eventType: "PurchaseSLI"))
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzNewRelic_main")
public func fuzzNewRelicMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, newRelicFuzzTarget)
}
