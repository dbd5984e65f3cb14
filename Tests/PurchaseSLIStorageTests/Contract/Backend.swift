import Foundation
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

#if PostgreSQL
import PurchaseSLIPostgres
#endif

/// A store under the contract, with what keeps it alive (its directory).
final class StoreUnderTest: @unchecked Sendable {
    let store: any PurchaseStore
    private let directory: TemporaryDirectory?

    init(_ store: any PurchaseStore, directory: TemporaryDirectory? = nil) {
        self.store = store
        self.directory = directory
    }
}

/// One backend the contract tests run on: each test gets a new, empty store from it.
struct Backend: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable (StoreConfiguration) async throws -> StoreUnderTest

    var testDescription: String { name }

    /// A fresh store under `configuration`.
    func store(_ configuration: StoreConfiguration = .default) async throws -> StoreUnderTest {
        try await make(configuration)
    }

    /// The SQLite file store as it runs by default: deferred rollups and dedup keys, read by queries
    /// beside the buckets.
    static let sqlite = Backend(name: "SQLite") { configuration in
        let directory = try TemporaryDirectory()
        return StoreUnderTest(try SQLiteBucketStore(path: directory.file("db.sqlite"), configuration: configuration), directory: directory)
    }

    /// The SQLite store folding its deferred work at every commit: the buckets and `seen_second` alone.
    static let sqliteFolding = Backend(name: "SQLite, folding every commit") { configuration in
        var folding = configuration
        folding.deferral.pendingRows = 1
        folding.deferral.pendingEventIDs = 1
        let directory = try TemporaryDirectory()
        return StoreUnderTest(try SQLiteBucketStore(path: directory.file("db.sqlite"), configuration: folding), directory: directory)
    }

    /// The in-memory reference.
    static let memory = Backend(name: "in memory") { StoreUnderTest(InMemoryBucketStore(configuration: $0)) }

    #if PostgreSQL
    /// PostgreSQL, a new database per store on the server of ``PurchaseSLITestSupport/TestPostgres``.
    static let postgres = Backend(name: "PostgreSQL") { configuration in
        StoreUnderTest(try PostgresBucketStore(url: PostgresURL(try await TestPostgres.newDatabase()), configuration: configuration))
    }

    /// Every backend the contract runs on (PostgreSQL when a test server is configured, and always in CI).
    static let all: [Backend] = [.sqlite, .sqliteFolding, .memory] + (TestPostgres.isEnabled ? [.postgres] : [])
    #else
    /// Every backend the contract runs on: PostgreSQL's tests need the PostgreSQL trait
    /// (`swift test --traits PostgreSQL`).
    static let all: [Backend] = [.sqlite, .sqliteFolding, .memory]
    #endif
}
