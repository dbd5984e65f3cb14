import FuzzSupport
import PurchaseSLIAnalysis

/// OpenSLO documents of any content (`slo import`) are a policy or a ``OpenSLOImport/Failure`` naming the
/// file, never a trap or another error; a policy read has an objective.
@_cdecl("LLVMFuzzerTestOneInput")
public func openSLOFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    do {
        let policy = try OpenSLOImport.policy(from: [(name: "fuzz.yaml", text: FuzzInput(start, count).text)])
        if policy.objectives.isEmpty { fuzzFailure("a policy without objectives read") }
    } catch let failure as OpenSLOImport.Failure {
        if !failure.description.hasPrefix("fuzz.yaml") { fuzzFailure("a failure not naming the file: \(failure)") }
    } catch {
        fuzzFailure("an error of another kind: \(error)")
    }
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzOpenSLO_main")
public func fuzzOpenSLOMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, openSLOFuzzTarget)
}
