import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// 2026-11-20T10:00:00Z.
private let ten: Int64 = 1_795_168_800

@Suite("query --of charges: charges, grants, not granted, refunds and amounts per group")
struct ChargeCountsTests {
    private func charge(
        _ id: String, minute: Int64, product: String = "coins_100", type: String = "ONE_TIME_CHARGE", price: Double = 0.99,
        app: String = "com.example.app"
    ) -> ReceivedNotification {
        let millis = (ten + minute * 60) * 1000
        return ReceivedNotification(
            StoreNotification(
                store: .apple, notificationID: "n-\(id)", environment: "Production", appID: app, type: type, kind: .charge,
                signedMillis: millis, transactionID: id, productID: product, purchaseMillis: millis, price: price, currency: "USD"),
            receivedMillis: millis)
    }

    private func grant(_ id: String, minute: Int64, plan: String = "coins-small") -> ClientReport {
        ClientReport(
            key: .transactionID(id),
            event: PurchaseEvent(
                eventID: "e-\(id)", timestampMillis: (ten + minute * 60) * 1000, productID: "coins_100", planID: plan, actionType: .purchase,
                resultType: .success))
    }

    @Test("granted, not granted past the grace time, within it, not expected, refunded: each counted where it belongs")
    func countsPerProduct() throws {
        let refund = ReceivedNotification(
            StoreNotification(
                store: .apple, notificationID: "r1", environment: "Production", appID: "com.example.app", type: "REFUND", kind: .refund,
                signedMillis: (ten + 50 * 60) * 1000, transactionID: "a", productID: "coins_100", price: 0.99, currency: "USD",
                revocationMillis: (ten + 50 * 60) * 1000), receivedMillis: (ten + 50 * 60) * 1000)
        let ledger = ChargeLedger(
            notifications: [
                charge("a", minute: 0), charge("b", minute: 5), charge("c", minute: 55), charge("d", minute: 10, type: "DID_RENEW"),
                charge("e", minute: 20, product: "coins_500", price: 4.99), refund,
            ],
            reports: [grant("a", minute: 1)], rule: SLOPolicy.default.reconciliation)
        let rows = ChargeCounts.rows(
            ledger: ledger, rule: SLOPolicy.default.reconciliation, fromSeconds: ten, toSeconds: ten + 3600, stepSeconds: nil,
            groupBy: [.productID], atSeconds: ten + 3600)
        #expect(rows.map { $0.key } == [["coins_100"], ["coins_500"]])
        let coins = try #require(rows.first)
        // a granted; b past grace, ungranted; c within its grace at 11:00; d a renewal nobody must grant.
        #expect(coins.charges == 4 && coins.expectingGrant == 3 && coins.granted == 1 && coins.ungranted == 1 && coins.refunds == 1)
        #expect(coins.chargedAmounts == ["USD": 4 * 0.99] && coins.ungrantedAmounts == ["USD": 0.99] && coins.refundedAmounts == ["USD": 0.99])
        #expect(rows[1].ungranted == 1 && rows[1].ungrantedAmounts == ["USD": 4.99])
    }

    @Test("steps, the app's plan and filters")
    func stepsPlansAndFilters() {
        let ledger = ChargeLedger(
            notifications: [charge("a", minute: 0), charge("b", minute: 70), charge("c", minute: 80, product: "coins_500")],
            reports: [grant("a", minute: 1), grant("b", minute: 71, plan: "coins-promo")], rule: SLOPolicy.default.reconciliation)
        let rows = ChargeCounts.rows(
            ledger: ledger, rule: SLOPolicy.default.reconciliation, fromSeconds: ten, toSeconds: ten + 7200, stepSeconds: 3600,
            groupBy: [.planID], filters: [.productID: ["coins_100"]], atSeconds: ten + 7200)
        #expect(rows.map(\.timeSeconds) == [ten, ten + 3600])
        #expect(rows.map(\.key) == [["coins-small"], ["coins-promo"]])
        #expect(rows.allSatisfy { $0.charges == 1 && $0.granted == 1 })
    }

    /// The app of a charge is its notification's bundle id or package name: the value the events' `app` carries.
    @Test("per app: grouped and filtered by the notification's app")
    func perApp() {
        let ledger = ChargeLedger(
            notifications: [
                charge("a", minute: 0), charge("b", minute: 5, app: "com.example.premium"), charge("c", minute: 6, app: "com.example.premium"),
            ],
            reports: [grant("a", minute: 1)], rule: SLOPolicy.default.reconciliation)
        let byApp = ChargeCounts.rows(
            ledger: ledger, rule: SLOPolicy.default.reconciliation, fromSeconds: ten, toSeconds: ten + 3600, stepSeconds: nil,
            groupBy: [.app], atSeconds: ten + 3600)
        #expect(byApp.map(\.key) == [["com.example.app"], ["com.example.premium"]])
        #expect(byApp.map(\.charges) == [1, 2] && byApp.map(\.granted) == [1, 0] && byApp.map(\.ungranted) == [0, 2])
        let premium = ChargeCounts.rows(
            ledger: ledger, rule: SLOPolicy.default.reconciliation, fromSeconds: ten, toSeconds: ten + 3600, stepSeconds: nil,
            groupBy: [], filters: [.app: ["com.example.premium"]], atSeconds: ten + 3600)
        #expect(premium.map(\.charges) == [2])
    }
}
