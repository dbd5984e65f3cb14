import FuzzSupport
import PurchaseSLICore

/// RFC 3339 parsing on arbitrary text: the text and byte parsers agree, and a parsed time formats to
/// text that parses back to the same millisecond.
@_cdecl("LLVMFuzzerTestOneInput")
public func rfc3339FuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let fromBytes = RFC3339.parseMillis(bytes: input.bytes)
    if input.text.utf8.elementsEqual(input.bytes), RFC3339.parseMillis(input.text) != fromBytes {
        fuzzFailure(
            "text and bytes parse differently: \(String(describing: RFC3339.parseMillis(input.text))) against \(String(describing: fromBytes))")
    }
    if let millis = fromBytes {
        let formatted = RFC3339.format(millis: millis)
        if RFC3339.parseMillis(formatted) != millis { fuzzFailure("\(millis) formats as \(formatted), which parses differently") }
    }
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzRFC3339_main")
public func fuzzRFC3339Main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, rfc3339FuzzTarget)
}
