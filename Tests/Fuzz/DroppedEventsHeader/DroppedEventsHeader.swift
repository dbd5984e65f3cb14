import FuzzSupport
import PurchaseSLICore

/// The `X-Purchase-SLI-Dropped-Events` header of any value: exactly the decimal numbers 0…10000 (1 to 9
/// ASCII digits) are taken, as the number they write; anything else is an error naming the header.
@_cdecl("LLVMFuzzerTestOneInput")
public func droppedEventsHeaderFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let value = FuzzInput(start, count).text
    let digits = value.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    let expected =
        (digits && (1...9).contains(value.utf8.count)) ? Int(value).flatMap { $0 <= DroppedEventsHeader.maximumPerRequest ? $0 : nil } : nil
    do {
        let count = try DroppedEventsHeader.count(value)
        if count != expected { fuzzFailure("\(value.debugDescription) read as \(count), expected \(expected.map(String.init) ?? "an error")") }
    } catch {
        if expected != nil { fuzzFailure("\(value.debugDescription) refused: \(error)") }
        if error.field != DroppedEventsHeader.name { fuzzFailure("the error names \(error.field)") }
    }
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzDroppedEventsHeader_main")
public func fuzzDroppedEventsHeaderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, droppedEventsHeaderFuzzTarget)
}
