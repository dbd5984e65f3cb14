import Testing

@testable import PurchaseSLICLI

/// Times and durations that would overflow are refused while the command line is parsed, with the option
/// named, before any database is opened (`render --at now-9223372036854775807s` used to trap).
@Suite struct OverflowingArgumentsTests {
    @Test(
        arguments: [
            (["query", "--from", "-9223372036854775807s", "--to", "9999-12-31", "--step", "1d"], "--from"),
            (["query", "--from", "now-1h", "--to", "now", "--step", "9999999999999d"], "--step"),
            (["render", "--at", "now-9223372036854775807s"], "--at"),
            (["render", "--range", "9999999999999d"], "--range"),
            (["alerts", "--at", "-9223372036854775807s"], "--at"),
            (["alerts", "--from", "0000-01-01", "--to", "now"], "--from"),
            (["alerts", "--from", "now-1d", "--to", "now", "--step", "9223372036854775807s"], "--step"),
            (["rollout", "--candidate", "4.12.0", "--at", "now-9223372036854775807s"], "--at"),
            (["rollout", "--candidate", "4.12.0", "--since", "-106751991167300d"], "--since"),
            (["simulate", "--start", "-9223372036854775807s"], "--start"),
            (["ingest", "--dedup-horizon", "9999999999999d", "-"], "--dedup-horizon"),
            (["ingest", "--minute-retention", "9223372036854775807s", "-"], "--minute-retention"),
            (["ingest", "--cardinality-cap", "0", "-"], "--cardinality-cap"),
        ] as [([String], String)])
    func isRefusedNamingTheOption(arguments: [String], option: String) {
        #expect {
            try PurchaseSLICommand.parseAsRoot(arguments)
        } throws: { error in
            PurchaseSLICommand.message(for: error).contains(option)
        }
    }
}
