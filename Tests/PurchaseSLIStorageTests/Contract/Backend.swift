import Foundation
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

#if PostgreSQL
import PurchaseSLIPostgres
#endif

/// One backend the contract tests run on: each test gets a new, empty store from it.
struct Backend: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable (StoreConfiguration) async throws -> any PurchaseStore

    var testDescription: String { name }

    /// A fresh store under `configuration`. A SQLite store's file lives until the test process ends: a test may
    /// drop every handle but the store's own, so the file cannot go with a handle of the test's.
    func store(_ configuration: StoreConfiguration = .default) async throws -> any PurchaseStore {
        try await make(configuration)
    }

    /// The SQLite file store as it runs by default: deferred rollups and dedup keys, read by queries
    /// beside the buckets.
    static let sqlite = Backend(name: "SQLite") { configuration in
        try SQLiteBucketStore(path: try TemporaryDirectory.underTheProcess() + "/db.sqlite", configuration: configuration)
    }

    /// The SQLite store folding its deferred work at every commit: the buckets and `seen_second` alone.
    static let sqliteFolding = Backend(name: "SQLite, folding every commit") { configuration in
        var folding = configuration
        folding.deferral.pendingRows = 1
        folding.deferral.pendingEventIDs = 1
        return try SQLiteBucketStore(path: try TemporaryDirectory.underTheProcess() + "/db.sqlite", configuration: folding)
    }

    /// The in-memory reference.
    static let memory = Backend(name: "in memory") { InMemoryBucketStore(configuration: $0) }

    #if PostgreSQL
    /// PostgreSQL, a new database per store on the server of ``PurchaseSLITestSupport/TestPostgres``.
    static let postgres = Backend(name: "PostgreSQL") { configuration in
        try await PostgresBucketStore(
            url: PostgresURL(try await TestPostgres.newDatabase()), configuration: configuration, timeout: TestPostgres.callTimeout)
    }

    /// Every backend the contract runs on (PostgreSQL when a test server is configured, and always in CI).
    static let all: [Backend] = [.sqlite, .sqliteFolding, .memory] + (TestPostgres.isEnabled ? [.postgres] : [])
    #else
    /// Every backend the contract runs on: PostgreSQL's tests need the PostgreSQL trait
    /// (on by default) and a server named by `PURCHASE_SLI_TEST_POSTGRES_URL`.
    static let all: [Backend] = [.sqlite, .sqliteFolding, .memory]
    #endif
}
