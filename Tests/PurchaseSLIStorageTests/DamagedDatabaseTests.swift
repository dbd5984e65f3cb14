import Foundation
import GRDB
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// A damaged or hand-edited database makes queries and writes fail with an error naming the table, never
/// trap: blobs whose numbers do not fit, are cut short or are absurd, and series rows that are not ids.
@Suite struct DamagedDatabaseTests {
    let directory: TemporaryDirectory
    let path: String
    let store: SQLiteBucketStore
    let minute = seconds("2026-11-14T09:30:00Z")

    init() async throws {
        directory = try TemporaryDirectory()
        path = directory.file("db.sqlite")
        store = try SQLiteBucketStore(path: path)
        _ = try await store.record([event("a", at: "2026-11-14T09:30:10Z")], receivedAtMillis: receivedAt)
    }

    private func overwrite(_ sql: String, _ arguments: StatementArguments) throws {
        try DatabaseQueue(path: path).write { try $0.execute(sql: sql, arguments: arguments) }
    }

    static let damagedCounts: [(String, [UInt8])] = [
        ("a count of 2^63", [0x01, 0x01] + [UInt8](repeating: 0xFF, count: 8) + [0x80, 0x01]),
        ("a count of 2^64 - 1", [0x01, 0x01] + [UInt8](repeating: 0xFF, count: 9) + [0x01]),
        ("a number longer than 64 bits", [0x01, 0x01] + [UInt8](repeating: 0xFF, count: 12)),
        ("a count of 2^41", [0x01, 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40]),
        ("a series id of 2^62", [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x01, 0x01]),
        ("an entry cut short", [0x01, 0x03, 0x05]),
    ]

    @Test(arguments: damagedCounts)
    func aBucketThatDoesNotDecodeIsAnErrorNamingItsTable(name: String, blob: [UInt8]) async throws {
        try overwrite("UPDATE bucket_minute SET series_counts = ? WHERE time = ?", [Data(blob), minute])
        let query = CountQuery(fromSeconds: minute, toSeconds: minute + 60, step: TimeStep(seconds: 60))
        let readError = await #expect(throws: StorageError.self, "\(name)") { try await store.counts(query) }
        #expect(readError?.description.contains("the database is damaged") == true)
        #expect(readError?.description.contains("bucket_minute") == true)
        #expect(readError?.description.contains("2026-11-14T09:30:00Z") == true)
        // Adding to the damaged bucket fails the same way, and the events are not acknowledged.
        let writeError = await #expect(throws: StorageError.self) {
            try await store.record([event("b", at: "2026-11-14T09:30:20Z")], receivedAtMillis: receivedAt)
        }
        #expect(writeError?.description.contains("bucket_minute") == true)
    }

    @Test func aDamagedErrorBlobIsAnErrorNamingItsTable() async throws {
        _ = try await store.record([event("f", at: "2026-11-14T09:30:30Z", result: .failure, error: "timeout")], receivedAtMillis: receivedAt)
        try overwrite(
            "UPDATE error_minute SET error_counts = ? WHERE time = ?", [Data([0x01, 0x03, 0x01] + [UInt8](repeating: 0xFF, count: 10)), minute])
        let query = CountQuery(fromSeconds: minute, toSeconds: minute + 60, groupBy: [.errorDescription])
        let error = await #expect(throws: StorageError.self) { try await store.errorCounts(query) }
        #expect(error?.description.contains("error_minute") == true)
    }

    @Test(arguments: ["UPDATE series SET id = -5", "UPDATE series SET id = 1099511627777"])
    func aSeriesRowThatIsNotIdsIsAnErrorNamingTheTable(sql: String) async throws {
        try await DatabaseQueue(path: path).write { try $0.execute(sql: sql) }
        let error = await #expect(throws: StorageError.self, "\(sql)") {
            try await store.counts(CountQuery(fromSeconds: minute, toSeconds: minute + 60, groupBy: [.productID]))
        }
        #expect(error?.description.contains("table series") == true)
    }

    /// The readiness probe commits a real write (the header's user_version), so a disk that cannot take
    /// a page fails it as it would fail events; it leaves the counts alone.
    @Test func theReadinessProbeCommitsAWrite() async throws {
        let version = { try DatabaseQueue(path: path).read { try Int32.fetchOne($0, sql: "PRAGMA user_version") } }
        let before = try version()
        try await store.checkWritable()
        let after = try version()
        #expect(after != before)
        try await store.checkWritable()
        #expect(try version() != after)
        await #expect(try store.counts(CountQuery(fromSeconds: minute, toSeconds: minute + 60)).first?.counts.success == 1)
    }
}
