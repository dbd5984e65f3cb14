import FuzzSupport
import PurchaseSLIApplication

/// A dashboard definition of any content is a definition or an error naming the key, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func dashboardYAMLFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? DashboardDefinition(yaml: FuzzInput(start, count).text)
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzDashboardYAML_main")
public func fuzzDashboardYAMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, dashboardYAMLFuzzTarget)
}
