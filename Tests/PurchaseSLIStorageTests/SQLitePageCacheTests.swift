import GRDB
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIStorage

/// The SQLite store's page caches: the writer's large (the pages a commit rewrites), each reader's small,
/// so that what they hold together stays bounded as a long-running `serve` reads more of a growing file.
@Suite struct SQLitePageCacheTests {
    @Test func eachReaderHasTheSmallCacheAndTheWriterTheLargeOne() throws {
        let directory = try TemporaryDirectory()
        var configuration = StoreConfiguration.default
        configuration.readerCacheSizeKiB = 4096
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"), configuration: configuration)
        #expect(try store.pool.read { try Int.fetchOne($0, sql: "PRAGMA cache_size") } == -4096)
        #expect(try store.pool.write { try Int.fetchOne($0, sql: "PRAGMA cache_size") } == -configuration.cacheSizeKiB)
        #expect(StoreConfiguration.default.readerCacheSizeKiB == 8 * 1024 && StoreConfiguration.default.cacheSizeKiB == 64 * 1024)
    }
}
