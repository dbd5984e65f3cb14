import ArgumentParser
import PurchaseSLICLI
import Testing

/// Every option that takes a time takes `now-…` as the help's examples write it: checked against the
/// wall clock when the arguments are validated, not against 1970.
@Suite struct RelativeTimeArgumentsTests {
    @Test(
        "relative times are read against now by every command that takes a time",
        arguments: [
            ["charges", "--from", "now-1d", "--to", "now"],
            ["charges", "--from", "now-7d", "--to", "now-1d", "--at", "now-1h"],
            ["query", "--of", "charges", "--from", "now-1d", "--to", "now", "--at", "now-1h"],
            ["query", "--from", "now-1d", "--to", "now"],
            ["render", "--at", "now-1h"],
            ["alerts", "--from", "now-1d", "--to", "now"],
            ["rollout", "--candidate", "5.3.0", "--at", "now-1h", "--since", "now-2d"],
            ["simulate", "--start", "now-2d"],
        ])
    func relativeTimes(arguments: [String]) throws {
        #expect(throws: Never.self) { _ = try PurchaseSLICommand.parseAsRoot(arguments) }
    }
}
