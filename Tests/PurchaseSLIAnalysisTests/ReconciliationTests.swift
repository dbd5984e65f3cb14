import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// 2026-11-20T10:00:00Z.
private let tenOClock: Int64 = 1_795_168_800

/// Milliseconds of `minutes` after ten o'clock (seconds may be added).
private func at(_ minutes: Double) -> Int64 { (tenOClock * 1000) + Int64(minutes * 60_000) }

/// An App Store charge of coins_100 (or `product`) at `minutes`, received when made unless told.
private func charge(
    _ id: String, at minutes: Double, type: String = "ONE_TIME_CHARGE", product: String = "coins_100", token: String? = nil,
    environment: String = "Production", receivedAfter: Double = 0
) -> ReceivedNotification {
    ReceivedNotification(
        StoreNotification(
            store: .apple, notificationID: "n-\(id)", environment: environment, appID: "com.example.app", type: type, kind: .charge,
            signedMillis: at(minutes), transactionID: id, productID: product, purchaseMillis: at(minutes), price: 0.99,
            currency: "USD", appAccountToken: token),
        receivedMillis: at(minutes + receivedAfter))
}

/// The app's report of one event about a transaction (or a token).
private func report(_ key: ClientReport.Key, _ result: ResultType, at minutes: Double, product: String = "coins_100") -> ClientReport {
    ClientReport(
        key: key,
        event: PurchaseEvent(
            eventID: "e-\(minutes)", timestampMillis: at(minutes), productID: product, actionType: .purchase, resultType: result))
}

/// What fires at `minutes` after ten o'clock.
private func firing(
    at minutes: Int64, charges: [ReceivedNotification], reports: [ClientReport], policy: SLOPolicy = .default
) -> [AlertFinding] {
    var inputs = AlertInputs(startSeconds: tenOClock - 86_400, endSeconds: tenOClock + 86_400, overall: [], sliceRows: [:])
    inputs.charges = ChargeLedger(notifications: charges, reports: reports, rule: policy.reconciliation)
    return AlertEvaluator(policy: policy).findings(at: tenOClock + minutes * 60, inputs: inputs)
}

@Suite("Reconciliation: a store charge is granted once an event names it")
struct ReconciliationTests {
    /// A case: the charges, the app's reports, and the severity expected at each minute checked (nil:
    /// nothing fires).
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let charges: [ReceivedNotification]
        let reports: [ClientReport]
        let expected: [(minute: Int64, severity: Severity?)]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "the grant came before the store's notification",
            charges: [charge("t1", at: 2.67)], reports: [report(.transactionID("t1"), .success, at: 2.5)],
            expected: [(20, nil), (300, nil)]),
        Case(
            name: "the grant came within the grace time",
            charges: [charge("t1", at: 2.67)], reports: [report(.transactionID("t1"), .success, at: 10)],
            expected: [(20, nil)]),
        Case(
            name: "a late grant resolves the charge",
            charges: [charge("t1", at: 2.67)], reports: [report(.transactionID("t1"), .alreadyGranted, at: 40)],
            expected: [(17, nil), (18, .ticket), (39, .ticket), (40, nil)]),
        Case(
            name: "never granted: a ticket from the end of the grace time while no grant comes for the page window (1 h), then owed, not alerted",
            charges: [charge("t1", at: 2.67)], reports: [report(.transactionID("t1"), .start, at: 2)],
            expected: [(17, nil), (18, .ticket), (77, .ticket), (78, nil), (600, nil)]),
        Case(
            name: "a new charge ungranted fires again, counting the one still owed",
            charges: [charge("t1", at: 2.67), charge("t2", at: 300)], reports: [],
            expected: [(77, .ticket), (78, nil), (314, nil), (315, .ticket), (374, .ticket), (375, nil)]),
        Case(
            name: "a charge notified hours later is matched retroactively and fires once it arrives, for the page window",
            charges: [charge("t1", at: 2.67, receivedAfter: 180)], reports: [],
            expected: [(60, nil), (182, nil), (183, .ticket), (242, .ticket), (243, nil)]),
        Case(
            name: "a charge notified hours after its grant is matched retroactively",
            charges: [charge("t1", at: 2.67, receivedAfter: 180)], reports: [report(.transactionID("t1"), .success, at: 3)],
            expected: [(200, nil)]),
        Case(
            name: "a grant naming the transaction for another product grants nothing (a reused id names another purchase)",
            charges: [charge("t1", at: 2.67)], reports: [report(.transactionID("t1"), .success, at: 3, product: "coins_500")],
            expected: [(20, .ticket)]),
        Case(
            name: "an 11-day-old grant naming the transaction grants nothing",
            charges: [charge("t1", at: 2.67)], reports: [report(.transactionID("t1"), .success, at: 2.67 - 11 * 1440)],
            expected: [(20, .ticket)]),
        Case(
            name: "a sandbox charge is not reconciled by default",
            charges: [charge("t1", at: 2.67, environment: "Sandbox")], reports: [], expected: [(30, nil)]),
        Case(
            name: "renewals are not expected to be granted by default",
            charges: (0..<5).map { charge("r\($0)", at: 2 + Double($0) * 0.1, type: "DID_RENEW") }, reports: [],
            expected: [(30, nil)]),
        Case(
            name: "a grant naming only the account token does not grant the charge",
            charges: [charge("t1", at: 2.67, token: "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60")],
            reports: [report(.appAccountToken("8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60"), .success, at: 3)],
            expected: [(20, .ticket)]),
        Case(
            name: "3 of 20 charges of the hour ungranted (15 %) page",
            charges: (0..<20).map { charge("c\($0)", at: Double($0)) },
            reports: (3..<20).map { report(.transactionID("c\($0)"), .success, at: Double($0) + 0.5) },
            expected: [(30, .page)]),
        Case(
            name: "2 ungranted are below the page minimum of 3",
            charges: (0..<20).map { charge("c\($0)", at: Double($0)) },
            reports: (2..<20).map { report(.transactionID("c\($0)"), .success, at: Double($0) + 0.5) },
            expected: [(30, .ticket)]),
        Case(
            name: "3 of 100 (3 %) stay a ticket",
            charges: (0..<100).map { charge("c\($0)", at: Double($0) * 0.5) },
            reports: (3..<100).map { report(.transactionID("c\($0)"), .success, at: Double($0) * 0.5 + 0.2) },
            expected: [(60, .ticket)]),
    ]

    @Test("what fires, minute by minute", arguments: cases)
    func firesAsExpected(_ example: Case) {
        for (minute, severity) in example.expected {
            let found = firing(at: minute, charges: example.charges, reports: example.reports)
                .filter { $0.kind == .chargedNotGranted }
            #expect(found.first?.severity == severity, "minute \(minute): \(found.map(\.severity))")
            #expect(found.count <= 1)
        }
    }

    @Test("firing again for a new charge, the alert counts the charges still owed from the ticket lookback, oldest first")
    func refiringCountsWhatIsStillOwed() throws {
        let charges = [charge("t1", at: 2.67), charge("t2", at: 300)]
        let found = firing(at: 330, charges: charges, reports: []).filter { $0.kind == .chargedNotGranted }
        let evidence = try #require(found.first?.evidence(as: ChargeEvidence.self))
        #expect(evidence.ungranted == 2)
        #expect(evidence.oldest.map { $0.notification.transactionID } == ["t1", "t2"])
        #expect(evidence.windowUngranted == 1 && evidence.windowCharges == 1)
    }

    @Test("a charge's grant: the first of its product naming it from a day before the charge to 7 days after, whatever else was read")
    func grantSpan() {
        let charges = (1...5).map { charge("t\($0)", at: 2) }
        let reports = [
            report(.transactionID("t1"), .success, at: 2 - 1440),  // a day before: its own
            report(.transactionID("t2"), .success, at: 2 - 1441),  // before the span: another purchase
            report(.transactionID("t3"), .success, at: 2 + 7 * 1440),  // 7 days after: its own
            report(.transactionID("t4"), .success, at: 3 + 7 * 1440),  // after the span
            report(.transactionID("t5"), .success, at: 1, product: "coins_500"), report(.transactionID("t5"), .alreadyGranted, at: 30),
        ]
        let ledger = ChargeLedger(notifications: charges, reports: reports, rule: SLOPolicy.ReconciliationRule())
        #expect(ledger.charges.map(\.grantedMillis) == [at(2 - 1440), nil, at(2 + 7 * 1440), nil, at(30)])
        // What the app last reported is of the same purchase too: the other product's success is not it.
        #expect(ledger.charges[4].report?.lastResult == .alreadyGranted && ledger.charges[1].report == nil)
        // Reports read over a wider range give the same ledger.
        let wider = ChargeLedger(
            notifications: charges, reports: reports + [report(.transactionID("t1"), .success, at: 2 - 30 * 1440)],
            rule: SLOPolicy.ReconciliationRule())
        #expect(wider.charges.map(\.grantedMillis) == ledger.charges.map(\.grantedMillis))
    }

    @Test("a renewal batch with only the first finished pages when the policy expects renewals to be granted")
    func renewalBatch() throws {
        var policy = SLOPolicy.default
        policy.reconciliation.grantExpectedFor.insert("DID_RENEW")
        let renewals = (0..<5).map { charge("r\($0)", at: 2 + Double($0) * 0.01, type: "DID_RENEW", product: "pro_monthly") }
        let found = firing(
            at: 20, charges: renewals, reports: [report(.transactionID("r0"), .success, at: 2.5, product: "pro_monthly")], policy: policy)
        let alert = try #require(found.first { $0.kind == .chargedNotGranted })
        #expect(alert.severity == .page)
        #expect(alert.labels.pairs.map(\.0) == ["actionType", "store", "productID"])
        #expect(alert.labels.slice?.value == "pro_monthly")
        let charges = alert.evidence(as: ChargeEvidence.self)
        #expect(charges?.ungranted == 4)
        #expect(charges?.oldest.map { $0.notification.transactionID } == ["r1", "r2", "r3", "r4"])
        #expect(charges?.amounts == [ChargeEvidence.Amount(currency: "USD", amount: 4 * 0.99, charges: 4)])
    }

    @Test("the payment detour: the app's cancel is found by the account token it passed at purchase")
    func paymentDetour() throws {
        let token = "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60"
        let found = firing(
            at: 20, charges: [charge("t1", at: 3.18, token: token)], reports: [report(.appAccountToken(token), .cancel, at: 2.18)])
        let evidence = try #require(found.first { $0.kind == .chargedNotGranted }?.evidence(as: ChargeEvidence.self))
        #expect(evidence.oldest.first?.report?.lastResult == .cancel)
        #expect(evidence.oldest.first?.report?.key == .appAccountToken(token))
    }

    @Test("each product alerts on its own; one product over the share makes the store's others page too")
    func storeWideShare() {
        let charges =
            (0..<10).map { charge("a\($0)", at: Double($0), product: "coins_100") }
            + [charge("b0", at: 5, product: "coins_500")]
        // All of coins_100 ungranted; coins_500's one charge too: the store's 11 of 11.
        let found = firing(at: 30, charges: charges, reports: []).filter { $0.kind == .chargedNotGranted }
        #expect(found.map { $0.labels.slice?.value } == ["coins_100", "coins_500"])
        #expect(found.allSatisfy { $0.severity == .page })
    }

    @Test("a refund without a product (Play's voided purchase) takes its charge's, and alerts nothing of its own")
    func voidedPurchaseTakesTheChargesProduct() {
        var voided = StoreNotification(
            store: .google, notificationID: "m2", environment: "Production", appID: "com.example.app", type: "VOIDED_PURCHASE",
            kind: .refund, signedMillis: at(300), transactionID: "token-1", revocationMillis: at(300))
        voided.productID = nil
        let purchase = ReceivedNotification(
            StoreNotification(
                store: .google, notificationID: "m1", environment: "Production", appID: "com.example.app", type: "ONE_TIME_PRODUCT_PURCHASED",
                kind: .charge, signedMillis: at(2), transactionID: "token-1", productID: "coins_100", purchaseMillis: at(2)),
            receivedMillis: at(2))
        let ledger = ChargeLedger(
            notifications: [purchase, ReceivedNotification(voided, receivedMillis: at(300))],
            reports: [report(.transactionID("token-1"), .success, at: 2.5)], rule: SLOPolicy.default.reconciliation)
        #expect(ledger.refunds.map(\.productID) == ["coins_100"])
        #expect(ledger.overdueCharges.isEmpty)
    }

    @Test("a refund told twice (REFUND and REVOKE of one transaction) counts once; another transaction's counts too")
    func aRefundToldTwiceCountsOnce() {
        func refund(_ id: String, _ type: String, transaction: String, at minutes: Double) -> ReceivedNotification {
            ReceivedNotification(
                StoreNotification(
                    store: .apple, notificationID: id, environment: "Production", appID: "com.example.app", type: type, kind: .refund,
                    signedMillis: at(minutes), transactionID: transaction, productID: "coins_100", revocationMillis: at(minutes)),
                receivedMillis: at(minutes))
        }
        let ledger = ChargeLedger(
            notifications: [
                charge("t1", at: 1), charge("t2", at: 2), refund("r1", "REFUND", transaction: "t1", at: 100),
                refund("r2", "REVOKE", transaction: "t1", at: 101), refund("r3", "REFUND", transaction: "t2", at: 102),
            ],
            reports: [], rule: SLOPolicy.default.reconciliation)
        #expect(ledger.refunds.map(\.notification.notificationID) == ["r1", "r3"])
    }

    @Test("a Play purchase never granted stays ticketed until Play refunds it, and pages in its last day")
    func playAcknowledgeDeadline() {
        let purchase = ReceivedNotification(
            StoreNotification(
                store: .google, notificationID: "m1", environment: "Production", appID: "com.example.app", type: "ONE_TIME_PRODUCT_PURCHASED",
                kind: .charge, signedMillis: at(2), transactionID: "token-1", productID: "coins_100", purchaseMillis: at(2)),
            receivedMillis: at(2))
        let severity = { (minute: Int64) in firing(at: minute, charges: [purchase], reports: []).first { $0.kind == .chargedNotGranted }?.severity }
        #expect(severity(20) == .ticket)
        #expect(severity(1440 + 60) == .ticket)
        #expect(severity(2 * 1440 + 2) == .page)
        #expect(severity(3 * 1440 + 3) == nil)
    }

    @Test("a charge notified twice under different ids counts once")
    func chargeCountedOnce() {
        var resent = charge("t1", at: 2.67)
        resent.notification.notificationID = "n-t1-again"
        let ledger = ChargeLedger(notifications: [charge("t1", at: 2.67), resent], reports: [], rule: SLOPolicy.default.reconciliation)
        #expect(ledger.charges.count == 1)
    }

    @Test(
        "charges by event time, ties as received; of one charge told twice the first received is kept; a refund takes the first received charge's product"
    )
    func orderAndFirstReceived() {
        func told(
            _ id: String, transaction: String, at minutes: Double, receivedAfter: Double, product: String? = "coins_100"
        )
            -> ReceivedNotification
        {
            var notification = charge(transaction, at: minutes, receivedAfter: receivedAfter)
            notification.notification.notificationID = id
            notification.notification.productID = product
            return notification
        }
        var refund = told("r", transaction: "t1", at: 60, receivedAfter: 1, product: nil)
        refund.notification.kind = .refund
        refund.notification.type = "REFUND"
        let ledger = ChargeLedger(
            notifications: [
                told("a", transaction: "t1", at: 0, receivedAfter: 5), told("z", transaction: "t2", at: 0, receivedAfter: 1),
                told("c", transaction: "t1", at: 30, receivedAfter: -28, product: "coins_500"), refund,
                told("e", transaction: "t1", at: 0, receivedAfter: 3),
            ],
            reports: [report(.transactionID("t1"), .success, at: 0.5)], rule: SLOPolicy.default.reconciliation)
        // "e" tells "a"'s charge again and was received first; "c" (another charge of t1) was received before both.
        #expect(ledger.charges.map(\.notification.notificationID) == ["z", "e", "c"])
        #expect(ledger.charges.map(\.grantedMillis) == [nil, at(0.5), nil])
        #expect(ledger.refunds.map(\.productID) == ["coins_500"])
    }
}
