import ArgumentParser
import Foundation
import PurchaseSLITestSupport

@testable import PurchaseSLICLI

/// Runs a `purchase-sli` command line in-process and returns its exit code. An async command runs on
/// threads kept for commands, a synchronous one (which reads and writes SQLite and waits for its writer
/// thread) on a thread of its own: either reads and renders for seconds between suspensions, and keeps no
/// cooperative thread from the rest of the suite meanwhile.
func run(_ arguments: [String]) async throws -> Int32 {
    do {
        if try PurchaseSLICommand.parseAsRoot(arguments) is any AsyncParsableCommand {
            try await offCooperativePool {
                // Parsed again on the commands' threads: a command is not Sendable.
                if var command = try PurchaseSLICommand.parseAsRoot(arguments) as? any AsyncParsableCommand { try await command.run() }
            }
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
