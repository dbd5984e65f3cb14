import ArgumentParser
import Foundation
import PurchaseSLITestSupport

@testable import PurchaseSLICLI

/// Runs a `purchase-sli` command line in-process and returns its exit code. An async command runs on the
/// caller's task; a synchronous one (which reads and writes SQLite and waits for its writer thread) on a
/// thread of its own, so that it blocks no cooperative thread.
func run(_ arguments: [String]) async throws -> Int32 {
    do {
        if var asyncCommand = try PurchaseSLICommand.parseAsRoot(arguments) as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try await onDedicatedThread {
                var command = try PurchaseSLICommand.parseAsRoot(arguments)
                try command.run()
            }
        }
        return 0
    } catch let exit as ExitCode {
        return exit.rawValue
    }
}

/// One valid NDJSON event line.
func eventLine(
    _ id: String, at time: String = "2026-11-14T09:30:00Z", product: String = "coins_100",
    result: String = "success", extra: String = ""
) -> String {
    #"{"eventID":"\#(id)","timestamp":"\#(time)","productID":"\#(product)","actionType":"purchase","resultType":"\#(result)"\#(extra)}"#
}
