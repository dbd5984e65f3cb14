import ArgumentParser
import Foundation
@testable import PurchaseSLICLI

/// A fresh directory under the system's temporary directory, removed when the test is done.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "purchase-sli-cli-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Runs a `purchase-sli` command line in-process (awaiting an async command) and returns its exit code.
func run(_ arguments: [String]) async throws -> Int32 {
    var command = try PurchaseSLICommand.parseAsRoot(arguments)
    do {
        if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
        return 0
    } catch let exit as ExitCode {
        return exit.rawValue
    }
}

/// One valid NDJSON event line.
func eventLine(_ id: String, at time: String = "2026-11-14T09:30:00Z", product: String = "coins_100",
               result: String = "success", extra: String = "") -> String {
    #"{"eventID":"\#(id)","timestamp":"\#(time)","productID":"\#(product)","actionType":"purchase","resultType":"\#(result)"\#(extra)}"#
}
