import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// Refunds joined to what happened to their charge: the ones we caused (never granted, granted after a
/// failure, granted late) apart from the others.
@Suite struct RefundCausesTests {
    /// 2026-11-20T12:00:00Z, in milliseconds: the charge.
    private static let charged: Int64 = 1_795_176_000_000
    private static let minute: Int64 = 60_000

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// What the app reported, minutes after the charge: a grant, a failure, a cancel (by transaction id).
        var grantedAfter: Int64?
        var failedAfter: Int64?
        var cancelledByTokenAfter: Int64?
        var type = "ONE_TIME_CHARGE"
        var chargeKnown = true
        var expected: RefundCause
    }

    static let cases: [Case] = [
        Case(testDescription: "never granted", expected: .neverGranted),
        Case(testDescription: "granted only after the refund: never granted by then", grantedAfter: 3 * 1440, expected: .neverGranted),
        Case(testDescription: "a 503 first, granted by the retry 5 min later", grantedAfter: 5, failedAfter: 0, expected: .grantedAfterFailure),
        Case(
            testDescription: "a cancel the app reported by the account token, then granted", grantedAfter: 40, cancelledByTokenAfter: -1,
            expected: .grantedAfterFailure),
        Case(testDescription: "granted 40 min after the charge, past the 15 min grace", grantedAfter: 40, expected: .grantedLate),
        Case(testDescription: "granted within a minute: not ours", grantedAfter: 1, expected: .other),
        Case(testDescription: "a failure after the grant does not make it ours", grantedAfter: 1, failedAfter: 2, expected: .other),
        Case(testDescription: "a renewal no grant is expected for", type: "DID_RENEW", expected: .other),
        Case(testDescription: "a refund of a charge the ledger does not hold", chargeKnown: false, expected: .chargeNotKnown),
    ]

    @Test("each refund takes the cause its charge tells", arguments: cases)
    func cause(_ item: Case) throws {
        let charge = StoreNotification(
            store: .apple, notificationID: "c1", environment: "Production", appID: "com.example.app", type: item.type, kind: .charge,
            signedMillis: Self.charged, transactionID: "2000000000000001", productID: "coins_500", purchaseMillis: Self.charged, price: 4.99,
            currency: "USD", appAccountToken: "6f1c0c1e-0000-4000-8000-000000000001")
        let refund = StoreNotification(
            store: .apple, notificationID: "r1", environment: "Production", appID: "com.example.app", type: "REFUND", kind: .refund,
            signedMillis: Self.charged + 2 * 1440 * Self.minute, transactionID: "2000000000000001", productID: "coins_500", price: 4.99,
            currency: "USD", revocationMillis: Self.charged + 2 * 1440 * Self.minute)
        var reports: [ClientReport] = []
        func at(_ minutes: Int64) -> Int64 { Self.charged + minutes * Self.minute }
        if let minutes = item.grantedAfter {
            reports.append(
                ClientReport(
                    key: .transactionID("2000000000000001"), productID: "coins_500", actionType: "retry", firstGrantMillis: at(minutes),
                    lastMillis: at(minutes), lastResult: .success))
        }
        if let minutes = item.failedAfter {
            reports.append(
                ClientReport(
                    key: .transactionID("2000000000000001"), productID: "coins_500", actionType: "purchase", lastMillis: at(minutes),
                    lastResult: .failure, lastStatusCode: 503))
        }
        if let minutes = item.cancelledByTokenAfter {
            reports.append(
                ClientReport(
                    key: .appAccountToken("6f1c0c1e-0000-4000-8000-000000000001"), productID: "coins_500", actionType: "purchase",
                    lastMillis: at(minutes), lastResult: .cancel))
        }
        let notifications = (item.chargeKnown ? [charge] : []) + [refund]
        let ledger = ChargeLedger(
            notifications: notifications.map { ReceivedNotification($0, receivedMillis: $0.signedMillis) }, reports: ClientReport.byTime(reports),
            rule: SLOPolicy.ReconciliationRule())
        let causes = ledger.refundCauses(rule: SLOPolicy.ReconciliationRule())
        #expect(causes.map(\.cause) == [item.expected])
        #expect(causes.first?.charge?.notification.notificationID == (item.chargeKnown ? "c1" : nil))

        let tally = RefundTally(causes)
        #expect(tally.ours.count == (item.expected.isOurs ? 1 : 0) && tally.others.count == (item.expected.isOurs ? 0 : 1))
        #expect(tally.byCause[item.expected]?.amounts == ["USD": 4.99])
    }
}
