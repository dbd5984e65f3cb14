import Foundation
import PurchaseSLITestSupport
import Testing

/// `--db`, `PURCHASE_SLI_DB` and `migrate --to` naming a PostgreSQL database, in a build with the
/// PostgreSQL trait and in one without it (the default), through the built executable.
@Suite struct StoreLocationTests {
    /// Every command that opens a store by URL, with a URL that names no host and a password that must
    /// never be printed.
    static let commands: [(arguments: [String], environment: [String: String])] = [
        (["query", "--db", "postgres://sli:hunter2@/purchases", "--from", "2026-11-01", "--to", "2026-11-02"], [:]),
        (["alerts", "--at", "2026-11-20T00:00:00Z"], ["PURCHASE_SLI_DB": "postgres://sli:hunter2@/purchases"]),
        (["serve", "--db", "postgres://sli:hunter2@/purchases", "--port", "0"], [:]),
        (["migrate", "--from", "Package.swift", "--to", "postgres://sli:hunter2@/purchases"], [:]),
    ]

    @Test("a postgres:// URL: refused with how to build PostgreSQL support, or (with the trait) its fault named; never its password",
          arguments: commands)
    func postgresURL(_ command: (arguments: [String], environment: [String: String])) async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let run = try await ChildProcess.run(executable, command.arguments, environment: command.environment, currentDirectory: packageRoot)
        #expect(run.termination != .exit(0))
        #expect(!run.output.contains("hunter2"), "\(run.output)")
        #if PostgreSQL
        #expect(run.output.contains("names no host"), "\(run.output)")
        #else
        #expect(run.termination == .exit(1), "a build without PostgreSQL is no usage error")
        #expect(!run.output.contains("USAGE"), "\(run.output)")
        #expect(run.output.contains("built without PostgreSQL support"), "\(run.output)")
        #expect(run.output.contains("swift build -c release --traits PostgreSQL"), "\(run.output)")
        #endif
    }
}
