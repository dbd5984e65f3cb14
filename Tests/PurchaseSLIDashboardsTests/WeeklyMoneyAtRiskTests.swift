import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@Suite("The weekly review's money at risk: charges not granted by the week's end, and refunds")
struct WeeklyMoneyAtRiskTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test("per product, this week against the week before, in the summary, the Markdown and the page")
    func moneyAtRisk() async throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let week = ISOWeek(containing: seconds("2026-11-18T12:00:00Z"))
        func charge(_ id: String, _ time: String, product: String = "coins_500", price: Double = 4.99) -> StoreNotification {
            StoreNotification(
                store: .apple, notificationID: "n-\(id)", environment: "Production", appID: "com.example.app", type: "ONE_TIME_CHARGE",
                kind: .charge, signedMillis: RFC3339.parseMillis(time)!, transactionID: id, productID: product,
                purchaseMillis: RFC3339.parseMillis(time)!, price: price, currency: "USD")
        }
        var notifications =
            (0..<6).map { charge("t\($0)", "2026-11-18T10:0\($0):00Z") }
            + [charge("p1", "2026-11-11T10:00:00Z"), charge("c1", "2026-11-19T09:00:00Z", product: "coins_100", price: 0.99)]
        notifications.append(
            StoreNotification(
                store: .apple, notificationID: "refund", environment: "Production", appID: "com.example.app", type: "REFUND", kind: .refund,
                signedMillis: RFC3339.parseMillis("2026-11-20T08:00:00Z")!, transactionID: "t0", productID: "coins_500", price: 4.99,
                currency: "USD", revocationMillis: RFC3339.parseMillis("2026-11-20T08:00:00Z")!))
        _ = try await store.record(notifications, receivedAtMillis: RFC3339.parseMillis("2026-11-20T09:00:00Z")!)
        // t0…t3 and c1 granted; t4, t5 (this week) and p1 (the week before) never.
        let grants = ["t0", "t1", "t2", "t3", "c1"].enumerated().map { index, id in
            var event = PurchaseEvent(
                eventID: "g\(index)", timestampMillis: RFC3339.parseMillis(id == "c1" ? "2026-11-19T09:00:05Z" : "2026-11-18T10:10:00Z")!,
                productID: id == "c1" ? "coins_100" : "coins_500", actionType: .purchase, resultType: .success)
            event.transactionID = id
            return event
        }
        _ = try await store.record(grants, receivedAtMillis: RFC3339.parseMillis("2026-11-20T09:00:00Z")!)
        let report = try await WeeklyReport(week: week, store: store, policy: .default, episodes: [])
        let coins = try #require(report.moneyAtRisk.first)
        #expect(report.moneyAtRisk.count == 1)
        #expect(coins.productID == "coins_500" && coins.current.ungranted == 2 && coins.current.refunds == 1)
        #expect(coins.current.ungrantedAmounts == ["USD": 2 * 4.99] && coins.previous.ungranted == 1)
        #expect(report.summary(escaping: .terminal).contains("Money at risk: 2 charges not granted (9.98 USD), 1 refund."))
        #expect(report.markdown.contains("## Money at risk"))
        let page = report.document(navigation: [], generatedAtSeconds: 0).rendered
        #expect(page.contains("<h2>Money at risk</h2>") && page.contains("9.98 USD"))
    }

    /// The review reads both weeks' unpaid grants at once; each week's list is the one it has alone: a
    /// grant whose charge arrived only after its week still counts there, repeats within and across the
    /// weeks' boundary are found where they were made.
    @Test("both weeks' unpaid grants from one read are each week's own")
    func bothWeeksUnpaidGrantsAreEachWeeksOwn() async throws {
        let store = try SQLiteBucketStore(path: directory.file("unpaid.sqlite"))
        func charge(_ id: String, _ time: String) -> StoreNotification {
            StoreNotification(
                store: .apple, notificationID: "n-\(id)", environment: "Production", appID: "com.example.app", type: "ONE_TIME_CHARGE",
                kind: .charge, signedMillis: RFC3339.parseMillis(time)!, transactionID: id, productID: "coins_500",
                purchaseMillis: RFC3339.parseMillis(time)!, price: 4.99, currency: "USD")
        }
        // (transaction, charged at, charge received at): late's charge arrives after its week.
        for (id, time, received) in [
            ("paid", "2026-11-14T09:00:00Z", "2026-11-14T09:01:00Z"), ("other", "2026-11-15T11:00:00Z", "2026-11-15T12:00:00Z"),
            ("late", "2026-11-15T10:00:00Z", "2026-11-17T08:00:00Z"),
        ] {
            _ = try await store.record([charge(id, time)], receivedAtMillis: RFC3339.parseMillis(received)!)
        }
        // (transaction, granted at): twice within the week before, twice across the weeks' boundary.
        let grants = [
            ("paid", "2026-11-14T09:00:05Z"), ("other", "2026-11-15T11:00:05Z"), ("late", "2026-11-15T10:00:05Z"),
            ("again", "2026-11-12T10:00:00Z"), ("again", "2026-11-12T10:05:00Z"), ("across", "2026-11-15T23:30:00Z"),
            ("across", "2026-11-16T00:30:00Z"),
        ].enumerated().map { index, grant in
            var event = PurchaseEvent(
                eventID: "g\(index)", timestampMillis: RFC3339.parseMillis(grant.1)!, productID: "coins_500", actionType: .purchase,
                resultType: .success, platform: "iOS")
            event.transactionID = grant.0
            return event
        }
        _ = try await store.record(grants, receivedAtMillis: RFC3339.parseMillis("2026-11-20T09:00:00Z")!)
        let context = try await AlertContext(store: store, policy: .default)
        let weeks = [ISOWeek(containing: seconds("2026-11-18T12:00:00Z")), ISOWeek(containing: seconds("2026-11-11T12:00:00Z"))]
        let together = try await context.unpaidGrantLists(of: weeks.map { $0.startSeconds..<$0.endSeconds })
        var alone: [[GrantListRow]] = []
        for week in weeks { alone.append(try await context.unpaidGrantList(from: week.startSeconds, to: week.endSeconds, at: week.endSeconds)) }
        #expect(together == alone)
        #expect(together.map { $0.map(\.grant.record.eventID) } == [["g6"], ["g4", "g2"]])
        #expect(together[1].map(\.isWithoutCharge) == [false, true] && together[1][0].repeatOf?.eventID == "g3")
        #expect(together[0][0].repeatOf?.eventID == "g5")
    }
}
