import Foundation
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
        func attempt(_ id: String, _ result: ResultType, at time: String) -> PurchaseEvent {
            var made = event(id, at: time, result: result, status: result == .failure ? 500 : nil, error: result == .failure ? "grant timed out" : nil)
            made.transactionID = "t1"
            made.appAccountToken = "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60"
            return made
        }
        // Sent late and out of order: the retry's 409 first, then the start and the failed grant, then the start again (a resend).
        _ = try store.record([attempt("e4", .alreadyGranted, at: "2026-11-20T10:30:00Z")], receivedAtMillis: receivedAt)
        _ = try store.record([attempt("e1", .start, at: "2026-11-20T10:02:00Z"), attempt("e2", .failure, at: "2026-11-20T10:03:00Z")],
                             receivedAtMillis: receivedAt)
        _ = try store.record([attempt("e1", .start, at: "2026-11-20T10:02:00Z"), attempt("e3", .success, at: "2026-11-20T10:20:00Z")],
                             receivedAtMillis: receivedAt)
        let reports = try store.clientReports([.transactionID("t1"), .appAccountToken("8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60"), .transactionID("t9")])
        #expect(reports.count == 2)
        for report in reports {
            #expect(report.firstGrantMillis == RFC3339.parseMillis("2026-11-20T10:20:00Z"))
            #expect(report.lastResult == .alreadyGranted && report.lastMillis == RFC3339.parseMillis("2026-11-20T10:30:00Z"))
            #expect(report.lastErrorDescription == nil && report.productID == "coins_100")
        }
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
        #expect(try store.clientReports([.transactionID("t-old"), .transactionID("t-new")]).map(\.key) == [.transactionID("t-new")])
    }
}
