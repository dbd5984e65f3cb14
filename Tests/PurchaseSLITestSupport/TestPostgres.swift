#if PostgreSQL
import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL server the tests use: its URL comes from `PURCHASE_SLI_TEST_POSTGRES_URL`
/// (`scripts/test-postgres.sh start DIR` prints one); CI sets `PURCHASE_SLI_REQUIRE_POSTGRES`, under
/// which a missing URL fails the PostgreSQL tests instead of leaving them out.
public enum TestPostgres {
    /// The variable that holds the server's URL.
    public static let urlVariable = "PURCHASE_SLI_TEST_POSTGRES_URL"

    /// The server's URL, when one is configured.
    public static var serverURL: String? { ProcessInfo.processInfo.environment[urlVariable] }

    /// Whether the PostgreSQL tests must run (CI), so that a missing server is a failure.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["PURCHASE_SLI_REQUIRE_POSTGRES"] != nil }

    /// Whether the PostgreSQL tests run: a server is configured, or they are required (and then fail).
    public static var isEnabled: Bool { serverURL != nil || isRequired }

    /// How long a test's store waits for each answer of the server, where the product waits 10 s. Tests
    /// run sixty at a time on two cores beside the server they share, where a call answered in milliseconds
    /// alone can wait tens of seconds for a core (CI once saw one `record` of 3,000 events miss 10 s);
    /// the product's own deadline is exercised by stopping a server (PostgresNodesTests), not by load.
    public static let callTimeout: Duration = .seconds(120)

    /// Creates a new, empty database on the test server and returns its URL (with the server's
    /// credentials), so that each test starts from nothing; `statements`, if any, are run in it.
    public static func newDatabase(creating statements: String...) async throws -> String {
        guard let serverURL, var components = URLComponents(string: serverURL) else { throw MissingServer() }
        let name = "psli_test_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try await run(["CREATE DATABASE \(name)"], in: serverURL)
        components.path = "/" + name
        try await run(statements, in: components.string!)
        return components.string!
    }

    /// Runs `statements` one after the other in the database at `url` (one of ``newDatabase(creating:)``).
    public static func run(_ statements: [String], in url: String) async throws {
        try await withConnection(to: url) { connection, logger in
            for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
        }
    }

    /// Runs `statements` in a transaction of the database at `url` left open while `meanwhile` runs, and
    /// commits it after: a write of another node that lands late.
    public static func inOpenTransaction(_ statements: [String], in url: String, meanwhile: () async throws -> Void) async throws {
        try await withConnection(to: url) { connection, logger in
            try await connection.query("BEGIN", logger: logger)
            for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            try await meanwhile()
            try await connection.query("COMMIT", logger: logger)
        }
    }

    /// Runs `work` with a connection of its own to the database at `url`, closed after.
    private static func withConnection(to url: String, _ work: (PostgresConnection, Logger) async throws -> Void) async throws {
        guard let components = URLComponents(string: url), let host = components.host, let user = components.user else {
            throw MissingServer()
        }
        let logger = Logger(label: "purchase-sli.tests.postgres")
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: host, port: components.port ?? 5432, username: user.removingPercentEncoding ?? user,
                password: components.password?.removingPercentEncoding, database: String(components.path.dropFirst()), tls: .disable),
            id: 1, logger: logger)
        do {
            try await work(connection, logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The error of a PostgreSQL test run without a server.
    public struct MissingServer: Error, CustomStringConvertible {
        public var description: String {
            "\(TestPostgres.urlVariable) is not set: start a server with scripts/test-postgres.sh start DIR and export the URL it prints"
        }
    }
}
#endif
