import Foundation
import FuzzSupport
import PurchaseSLIServer

@testable import PurchaseSLICLI

/// A `serve --config` file of any content is settings or an error that names the file and a setting,
/// never a trap; settings it accepts are ones `serve` then validates without a trap either.
@_cdecl("LLVMFuzzerTestOneInput")
public func configFileFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    do {
        let file = try ServerConfigFile(data: Data(input.bytes), path: "fuzz.json")
        try ServeSettings(options: [:], environment: [:], file: file).server.validate()
    } catch let failure as CommandFailure {
        let known = ServerConfigFile.keys.contains {
            failure.message.contains("\"\($0)\"") || failure.message.contains(" \($0) ") || failure.message.hasPrefix("fuzz.json: \($0): ")
                || failure.message.hasPrefix("fuzz.json: \($0)[")
        }
        let general = ["fuzz.json: expected a JSON object", "fuzz.json: unknown setting"].contains { failure.message.hasPrefix($0) }
        guard failure.message.hasPrefix("fuzz.json: "), known || general else {
            fuzzFailure("an error that names no setting: \(failure.message)")
        }
    } catch {
        // The server's own validation names its setting (InvalidSetting); nothing else may be thrown.
        guard error is InvalidSetting else { fuzzFailure("unexpected error \(error)") }
    }
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzConfigFile_main")
public func fuzzConfigFileMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, configFileFuzzTarget)
}
