import Foundation
import PurchaseSLITestSupport
import Testing

/// `--db`, `PURCHASE_SLI_DB` and `migrate --to` naming a PostgreSQL database, in a build with the
/// PostgreSQL trait (the default) and in one without it (`--disable-default-traits`), through the built
/// executable.
@Suite struct StoreLocationTests {
    /// Every command that opens a store by URL, with a URL that does not parse and holds a password that
    /// must never be printed, and what a build with the trait says of it.
    static let commands: [(arguments: [String], environment: [String: String], fault: String)] = [
        (["query", "--db", "postgres://sli:hunter2@/purchases", "--from", "2026-11-01", "--to", "2026-11-02"], [:], "names no host"),
        (["alerts", "--at", "2026-11-20T00:00:00Z"], ["PURCHASE_SLI_DB": "postgres://sli:hunter2@/purchases"], "names no host"),
        (["serve", "--db", "postgres://sli:hunter2@/purchases", "--port", "0"], [:], "names no host"),
        (["migrate", "--from", "Package.swift", "--to", "postgres://sli:hunter2@/purchases"], [:], "names no host"),
        // Once taken for SQLite paths and printed: a scheme in capitals, a malformed one.
        (["query", "--db", "POSTGRES://sli:hunter2@/purchases", "--from", "2026-11-01", "--to", "2026-11-02"], [:], "names no host"),
        (["query", "--db", "postgres:/sli:hunter2@db/purchases", "--from", "2026-11-01", "--to", "2026-11-02"], [:], "expected postgres://"),
    ]

    @Test(
        "a postgres:// URL: refused with how to build PostgreSQL support, or (with the trait) its fault named; never its password",
        arguments: commands)
    func postgresURL(_ command: (arguments: [String], environment: [String: String], fault: String)) async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let run = try await ChildProcess.run(executable, command.arguments, environment: command.environment, currentDirectory: packageRoot)
        #expect(run.termination != .exit(0))
        #expect(!run.output.contains("hunter2"), "\(run.output)")
        #if PostgreSQL
        #expect(run.output.contains(command.fault), "\(run.output)")
        #else
        #expect(run.termination == .exit(1), "a build without PostgreSQL is no usage error")
        #expect(!run.output.contains("USAGE"), "\(run.output)")
        #expect(run.output.contains("built without PostgreSQL support"), "\(run.output)")
        #expect(run.output.contains("build it with its default traits, `swift build -c release`"), "\(run.output)")
        #endif
    }
}
