import FuzzSupport
import PurchaseSLICore

/// The query arguments of `GET /v1/query` and `purchase-sli query` (one per line: from, to, by, step,
/// then filters): any text is a query or an error, never a trap; an accepted query is bounded.
@_cdecl("LLVMFuzzerTestOneInput")
public func queryArgumentsFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let lines = FuzzInput(start, count).lines
    func line(_ index: Int) -> String? { index < lines.count ? lines[index] : nil }
    let nowSeconds: Int64 = 1_795_000_000
    _ = TimeStep(parsing: line(0) ?? "")
    _ = TimeArgument(line(0) ?? "", nowSeconds: nowSeconds)
    guard
        let query = try? CountQuery(
            from: line(0) ?? "", to: line(1) ?? "", by: line(2), filters: Array(lines.dropFirst(4)), step: line(3),
            nowSeconds: nowSeconds)
    else { return 0 }
    if query.fromSeconds >= query.toSeconds { fuzzFailure("accepted a query from \(query.fromSeconds) to \(query.toSeconds)") }
    if !TimeArgument.supportedSeconds.contains(query.fromSeconds) || !TimeArgument.supportedSeconds.contains(query.toSeconds) {
        fuzzFailure("accepted times outside the supported range: \(query.fromSeconds)…\(query.toSeconds)")
    }
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzQueryArguments_main")
public func fuzzQueryArgumentsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, queryArgumentsFuzzTarget)
}
