import Foundation
import GRDB
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// What only the SQLite store does with the stores' record: keeping it across reopening, its report blobs and
/// their migration; what every store does is in `Contract/StoreRecordContractTests.swift`.
@Suite("The stores' record beside the buckets in SQLite")
struct StoreRecordTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func notification(_ id: String, kind: StoreEventKind = .charge, at time: String, transaction: String) -> StoreNotification {
        StoreNotification(
            store: .apple, notificationID: id, environment: "Production", appID: "com.example.app",
            type: kind == .charge ? "ONE_TIME_CHARGE" : "REFUND", kind: kind, signedMillis: RFC3339.parseMillis(time)!,
            transactionID: transaction, productID: "coins_100", purchaseMillis: RFC3339.parseMillis(time)!, price: 0.99, currency: "USD",
            appAccountToken: "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60", revocationMillis: kind == .refund ? RFC3339.parseMillis(time)! : nil)
    }

    @Test("a notification is stored once, within a call, across calls and after reopening, and read back whole")
    func storedOnce() async throws {
        let path = directory.file("db.sqlite")
        let first = notification("n1", at: "2026-11-20T10:02:40Z", transaction: "t1")
        do {
            let store = try SQLiteBucketStore(path: path)
            let outcome = try await store.record(
                [first, first, notification("n2", at: "2026-11-20T10:03:00Z", transaction: "t2")], receivedAtMillis: receivedAt)
            #expect(outcome.accepted == 2 && outcome.duplicateIndexes == [1])
        }
        let store = try SQLiteBucketStore(path: path)
        await #expect(try store.record([first], receivedAtMillis: receivedAt).duplicateIndexes == [0])
        let read = try await store.notifications(
            kinds: [.charge], fromMillis: RFC3339.parseMillis("2026-11-20T00:00:00Z")!, toMillis: RFC3339.parseMillis("2026-11-21T00:00:00Z")!)
        #expect(read.map(\.notification) == [first, notification("n2", at: "2026-11-20T10:03:00Z", transaction: "t2")])
        #expect(read.allSatisfy { $0.receivedMillis == receivedAt })
    }

    @Test("a resent batch stores no report again: only the events counted for the first time report")
    func resentEventsAppendNothing() async throws {
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        var granted = event("g1", at: "2026-11-20T10:00:00Z")
        granted.transactionID = "t1"
        var started = event("s1", at: "2026-11-20T09:59:00Z", result: .start)
        started.appAccountToken = "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60"
        func parts() throws -> Int {
            try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM client_report_minute") ?? -1 }
        }
        _ = try await store.record([granted, started], receivedAtMillis: receivedAt)
        let first = try parts()
        #expect(first == 2)
        await #expect(try store.record([granted, started], receivedAtMillis: receivedAt).duplicates == 2)
        #expect(try parts() == first)
    }

    @Test("a damaged report blob is an error naming its minute, for any cut of its bytes, never a crash")
    func damagedBlobIsAnError() async throws {
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        var failed = event("f1", at: "2026-11-20T10:00:30Z", result: .failure, status: 500, error: "grant timed out")
        failed.transactionID = "t1"
        _ = try await store.record([failed], receivedAtMillis: receivedAt)
        let blob = try await DatabaseQueue(path: path).read { try [UInt8](Data.fetchOne($0, sql: "SELECT reports FROM client_report_minute")!) }
        for cut in 0..<blob.count {
            try await DatabaseQueue(path: path).write {
                try $0.execute(sql: "UPDATE client_report_minute SET reports = ?", arguments: [Data(blob[..<cut])])
            }
            await #expect(throws: StorageError.self) {
                try await store.clientReports([.transactionID("t1")], fromMillis: 0, toMillis: receivedAt)
            }
        }
    }

    @Test("a database of the keyed reports (v5) keeps them when it moves to reports by minute")
    func keyedReportsMigrate() async throws {
        let path = directory.file("v5.sqlite")
        _ = try SQLiteBucketStore(path: path)
        // The file as the version before wrote it: one report per key, and no migration v6 yet.
        try await DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    DROP TABLE client_report_minute;
                    DELETE FROM grdb_migrations WHERE identifier = 'v6-client-reports-by-minute';
                    CREATE TABLE client_report (
                        key_kind INTEGER NOT NULL, key TEXT NOT NULL, product_id TEXT NOT NULL, plan_id TEXT, action TEXT NOT NULL,
                        first_grant_millis INTEGER, last_millis INTEGER NOT NULL, last_result TEXT NOT NULL, last_status INTEGER,
                        last_error TEXT, PRIMARY KEY (key_kind, key)
                    ) WITHOUT ROWID;
                    INSERT INTO client_report VALUES (0, 't1', 'coins_100', NULL, 'purchase', 1795168920000, 1795169000000, 'alreadyGranted', 409, NULL),
                        (1, 'b5c1e2d4-0000-4000-8000-000000000001', 'coins_500', 'coins-medium', 'purchase', NULL, 1795168800000, 'cancel', NULL, 'payment cancelled');
                    """)
        }
        let store = try SQLiteBucketStore(path: path)
        let reports = try await store.clientReports(
            [.transactionID("t1"), .appAccountToken("b5c1e2d4-0000-4000-8000-000000000001")], fromMillis: 0, toMillis: .max / 2)
        #expect(
            Set(reports) == [
                ClientReport(
                    key: .transactionID("t1"), productID: "coins_100", planID: nil, actionType: "purchase", firstGrantMillis: 1_795_168_920_000,
                    lastMillis: 1_795_169_000_000, lastResult: .alreadyGranted, lastStatusCode: 409, lastErrorDescription: nil),
                ClientReport(
                    key: .appAccountToken("b5c1e2d4-0000-4000-8000-000000000001"), productID: "coins_500", planID: "coins-medium",
                    actionType: "purchase", firstGrantMillis: nil, lastMillis: 1_795_168_800_000, lastResult: .cancel, lastStatusCode: nil,
                    lastErrorDescription: "payment cancelled"),
            ])
    }
}
