import FuzzSupport
import PurchaseSLIAnalysis

/// An SLO policy file of any content is a policy or an error naming the key, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func policyYAMLFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? SLOPolicy(yaml: FuzzInput(start, count).text)
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzPolicyYAML_main")
public func fuzzPolicyYAMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, policyYAMLFuzzTarget)
}
