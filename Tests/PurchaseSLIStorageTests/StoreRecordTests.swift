import Foundation
import GRDB
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@Suite("The stores' record beside the buckets: notifications and the app's reports")
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
    func storedOnce() throws {
        let path = directory.file("db.sqlite")
        let first = notification("n1", at: "2026-11-20T10:02:40Z", transaction: "t1")
        do {
            let store = try SQLiteBucketStore(path: path)
            let outcome = try store.record([first, first, notification("n2", at: "2026-11-20T10:03:00Z", transaction: "t2")], receivedAtMillis: receivedAt)
            #expect(outcome.accepted == 2 && outcome.duplicateIndexes == [1])
        }
        let store = try SQLiteBucketStore(path: path)
        #expect(try store.record([first], receivedAtMillis: receivedAt).duplicateIndexes == [0])
        let read = try store.notifications(
            kinds: [.charge], fromMillis: RFC3339.parseMillis("2026-11-20T00:00:00Z")!, toMillis: RFC3339.parseMillis("2026-11-21T00:00:00Z")!)
        #expect(read.map(\.notification) == [first, notification("n2", at: "2026-11-20T10:03:00Z", transaction: "t2")])
        #expect(read.allSatisfy { $0.receivedMillis == receivedAt })
    }

    @Test("notifications are read by kind and by when they happened")
    func readByKindAndTime() throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        _ = try store.record(
            [notification("n1", at: "2026-11-20T10:00:00Z", transaction: "t1"),
             notification("n2", kind: .refund, at: "2026-11-20T12:00:00Z", transaction: "t1"),
             notification("n3", at: "2026-11-21T10:00:00Z", transaction: "t3")],
            receivedAtMillis: receivedAt)
        let day = (RFC3339.parseMillis("2026-11-20T00:00:00Z")!, RFC3339.parseMillis("2026-11-21T00:00:00Z")!)
        #expect(try store.notifications(kinds: [.refund], fromMillis: day.0, toMillis: day.1).map(\.notification.notificationID) == ["n2"])
        #expect(try store.notifications(kinds: [.charge, .refund], fromMillis: day.0, toMillis: day.1).map(\.notification.notificationID) == ["n1", "n2"])
    }

    @Test("per transaction id and account token: the earliest grant and the latest outcome, whatever the order they arrive in")
    func clientReportsMerge() throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let token = "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60"
        func attempt(_ id: String, _ result: ResultType, at time: String, transaction: String? = "t1") -> PurchaseEvent {
            var made = event(id, at: time, result: result, status: result == .failure ? 500 : nil, error: result == .failure ? "grant timed out" : nil)
            made.transactionID = transaction
            made.appAccountToken = token
            return made
        }
        // Sent late and out of order: the retry's 409 first, then the start and the failed grant, then the start again (a resend);
        // an attempt that never reached the store (a start and a cancel, by the token alone) in between.
        _ = try store.record([attempt("e4", .alreadyGranted, at: "2026-11-20T10:30:00Z")], receivedAtMillis: receivedAt)
        _ = try store.record([attempt("e1", .start, at: "2026-11-20T10:02:00Z"), attempt("e2", .failure, at: "2026-11-20T10:03:00Z")],
                             receivedAtMillis: receivedAt)
        _ = try store.record([attempt("e6", .cancel, at: "2026-11-20T10:41:00Z", transaction: nil),
                              attempt("e5", .start, at: "2026-11-20T10:40:00Z", transaction: nil)], receivedAtMillis: receivedAt)
        _ = try store.record([attempt("e1", .start, at: "2026-11-20T10:02:00Z"), attempt("e3", .success, at: "2026-11-20T10:20:00Z")],
                             receivedAtMillis: receivedAt)
        let day = (RFC3339.parseMillis("2026-11-20T00:00:00Z")!, RFC3339.parseMillis("2026-11-21T00:00:00Z")!)
        let reports = Dictionary(uniqueKeysWithValues: try store.clientReports(
            [.transactionID("t1"), .appAccountToken(token), .transactionID("t9")], fromMillis: day.0, toMillis: day.1).map { ($0.key, $0) })
        #expect(reports.count == 2)
        let granted = try #require(reports[.transactionID("t1")])
        #expect(granted.firstGrantMillis == RFC3339.parseMillis("2026-11-20T10:20:00Z"))
        #expect(granted.lastResult == .alreadyGranted && granted.lastMillis == RFC3339.parseMillis("2026-11-20T10:30:00Z"))
        #expect(granted.lastErrorDescription == nil && granted.productID == "coins_100")
        // The token keeps what the events without a transaction id said: the cancel.
        let byToken = try #require(reports[.appAccountToken(token)])
        #expect(byToken.lastResult == .cancel && byToken.firstGrantMillis == nil)
        // Reports are read from the time range asked for.
        let later = try store.clientReports([.transactionID("t1")], fromMillis: day.1, toMillis: day.1 + 86_400_000)
        #expect(later.isEmpty)
    }

    @Test("a failed grant's status and error are kept, and a report survives the round trip through its blob whole")
    func clientReportFields() throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        var failed = event("f1", at: "2026-11-20T10:00:00Z", result: .failure, status: 503, error: "verification failed: 503")
        failed.transactionID = "t-failed"
        failed.planID = "coins-small"
        _ = try store.record([failed], receivedAtMillis: receivedAt)
        let report = try #require(try store.clientReports([.transactionID("t-failed")], fromMillis: 0, toMillis: receivedAt).first)
        #expect(report == ClientReport(key: .transactionID("t-failed"), event: failed))
    }

    @Test("a resent batch stores no report again: only the events counted for the first time report")
    func resentEventsAppendNothing() throws {
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        var granted = event("g1", at: "2026-11-20T10:00:00Z")
        granted.transactionID = "t1"
        var started = event("s1", at: "2026-11-20T09:59:00Z", result: .start)
        started.appAccountToken = "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60"
        func parts() throws -> Int { try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM client_report_minute") ?? -1 } }
        _ = try store.record([granted, started], receivedAtMillis: receivedAt)
        let first = try parts()
        #expect(first == 2)
        #expect(try store.record([granted, started], receivedAtMillis: receivedAt).duplicates == 2)
        #expect(try parts() == first)
    }

    @Test("a damaged report blob is an error naming its minute, for any cut of its bytes, never a crash")
    func damagedBlobIsAnError() throws {
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        var failed = event("f1", at: "2026-11-20T10:00:30Z", result: .failure, status: 500, error: "grant timed out")
        failed.transactionID = "t1"
        _ = try store.record([failed], receivedAtMillis: receivedAt)
        let blob = try DatabaseQueue(path: path).read { try [UInt8](Data.fetchOne($0, sql: "SELECT reports FROM client_report_minute")!) }
        for cut in 0..<blob.count {
            try DatabaseQueue(path: path).write { try $0.execute(sql: "UPDATE client_report_minute SET reports = ?", arguments: [Data(blob[..<cut])]) }
            #expect(throws: StorageError.self) {
                try store.clientReports([.transactionID("t1")], fromMillis: 0, toMillis: receivedAt)
            }
        }
    }

    @Test("a database of the keyed reports (v5) keeps them when it moves to reports by minute")
    func keyedReportsMigrate() throws {
        let path = directory.file("v5.sqlite")
        _ = try SQLiteBucketStore(path: path)
        // The file as the version before wrote it: one report per key, and no migration v6 yet.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
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
        let reports = try store.clientReports(
            [.transactionID("t1"), .appAccountToken("b5c1e2d4-0000-4000-8000-000000000001")], fromMillis: 0, toMillis: .max / 2)
        #expect(Set(reports) == [
            ClientReport(key: .transactionID("t1"), productID: "coins_100", planID: nil, actionType: "purchase", firstGrantMillis: 1_795_168_920_000,
                         lastMillis: 1_795_169_000_000, lastResult: .alreadyGranted, lastStatusCode: 409, lastErrorDescription: nil),
            ClientReport(key: .appAccountToken("b5c1e2d4-0000-4000-8000-000000000001"), productID: "coins_500", planID: "coins-medium",
                         actionType: "purchase", firstGrantMillis: nil, lastMillis: 1_795_168_800_000, lastResult: .cancel, lastStatusCode: nil,
                         lastErrorDescription: "payment cancelled"),
        ])
    }

    @Test("pruning drops notifications and reports past their retention, keeping the rest")
    func pruned() throws {
        var configuration = StoreConfiguration.default
        configuration.storeRecordRetentionSeconds = 30 * 86_400
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"), configuration: configuration)
        _ = try store.record(
            [notification("old", at: "2026-10-01T00:00:00Z", transaction: "t-old"), notification("new", at: "2026-11-20T00:00:00Z", transaction: "t-new")],
            receivedAtMillis: receivedAt)
        var old = event("e-old", at: "2026-10-01T00:00:00Z"), new = event("e-new", at: "2026-11-20T00:00:00Z")
        old.transactionID = "t-old"
        new.transactionID = "t-new"
        _ = try store.record([old, new], receivedAtMillis: receivedAt)
        try store.prune(nowMillis: receivedAt)
        let all = try store.notifications(kinds: [.charge], fromMillis: 0, toMillis: .max)
        #expect(all.map(\.notification.notificationID) == ["new"])
        #expect(try store.clientReports([.transactionID("t-old"), .transactionID("t-new")], fromMillis: 0, toMillis: receivedAt).map(\.key)
                == [.transactionID("t-new")])
    }
}
