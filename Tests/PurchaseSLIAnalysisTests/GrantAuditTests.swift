import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// The ledger read from the grants: a transaction granted again, and a grant no charge names once the
/// store's notifications for its time are complete.
@Suite struct GrantAuditTests {
    /// 2026-11-20T12:00:00Z, in milliseconds: the grant's time.
    private static let granted: Int64 = 1_795_176_000_000
    private static let minute: Int64 = 60_000

    private static func grant(
        _ id: String, transaction: String = "2000000000000001", after minutes: Int64 = 0, product: String = "coins_100",
        platform: String? = "iOS"
    ) -> GrantRecord {
        GrantRecord(
            eventID: id, transactionID: transaction, millis: granted + minutes * minute, productID: product, platform: platform, price: 0.99,
            currency: "USD")
    }

    private static func charge(
        _ id: String, transaction: String, product: String = "coins_100", at millis: Int64, received: Int64? = nil
    )
        -> ReceivedNotification
    {
        ReceivedNotification(
            StoreNotification(
                store: .apple, notificationID: id, environment: "Production", appID: "com.example.app", type: "ONE_TIME_CHARGE", kind: .charge,
                signedMillis: millis, transactionID: transaction, productID: product, purchaseMillis: millis, price: 0.99, currency: "USD"),
            receivedMillis: received ?? millis)
    }

    @Test("repeats: a later grant of a transaction within 7 days, of any product; each names the first grant")
    func repeats() {
        let audit = GrantAudit(
            grants: [
                Self.grant("g1"), Self.grant("g2", after: 1), Self.grant("g3", after: 2, product: "coins_500"),
                Self.grant("o1", transaction: "2000000000000002"), Self.grant("o2", transaction: "2000000000000002", after: 7 * 1440 + 1),
            ], charges: [], ledger: .empty, activity: .empty, rule: SLOPolicy.ReconciliationRule())
        #expect(audit.repeats.map(\.grant.record.eventID) == ["g2", "g3"])
        #expect(audit.repeats.allSatisfy { $0.first.eventID == "g1" })
        #expect(audit.repeats.map(\.isOtherProduct) == [false, true])
        #expect(audit.repeats(from: Self.granted + Self.minute + 1, through: Self.granted + 3 * Self.minute).map(\.grant.record.eventID) == ["g3"])
    }

    @Test("repeats: each grant is judged on the 7 days before it alone, wherever the audit was read from")
    func repeatsWithinTheSpanBeforeEach() {
        let day: Int64 = 1440
        let chain = [Self.grant("a", after: 0), Self.grant("b", after: 5 * day), Self.grant("c", after: 9 * day)]
        let whole = GrantAudit(grants: chain, charges: [], ledger: .empty, activity: .empty, rule: SLOPolicy.ReconciliationRule())
        #expect(whole.repeats.map { "\($0.grant.record.eventID) of \($0.first.eventID)" } == ["b of a", "c of b"])
        // Read from after the first grant: the third still repeats the second, as the whole audit says.
        let later = GrantAudit(
            grants: [chain[2]], earlier: [chain[1]], charges: [], ledger: .empty, activity: .empty, rule: SLOPolicy.ReconciliationRule())
        #expect(later.repeats.map { "\($0.grant.record.eventID) of \($0.first.eventID)" } == ["c of b"])
        #expect(later.grants.map(\.record.eventID) == ["c"])
    }

    /// How a test keys the repeats' chains: by the ids' own hash, one hash for all, or by their length.
    enum ChainHashing: String, CaseIterable, Sendable {
        case own, oneForAll, byLength

        func hash(_ id: String) -> Int {
            switch self {
            case .own: id.hashValue
            case .oneForAll: 0
            case .byLength: id.count
            }
        }
    }

    @Test(
        "repeats: found by transaction whatever the ids' hashes, ids whose hashes meet each in a chain of its own", arguments: ChainHashing.allCases)
    func repeatsWhateverTheHashes(hashing: ChainHashing) {
        let day: Int64 = 1440
        let earlier = [Self.grant("e2", transaction: "t22", after: -8 * day), Self.grant("e1", transaction: "t1", after: -2 * day)]
        let grants = [
            Self.grant("a", transaction: "t1"), Self.grant("b", transaction: "t2"), Self.grant("c", transaction: "t22", after: 1),
            Self.grant("d", transaction: "t2", after: 2), Self.grant("e", transaction: "t3", after: 3),
            Self.grant("g", transaction: "t22", after: 2 * day), Self.grant("f", transaction: "t1", after: 6 * day),
        ]
        let audit = GrantAudit(grants: grants, earlier: earlier, charges: [], ledger: .empty, activity: .empty, rule: SLOPolicy.ReconciliationRule())
        let found = GrantAudit.repeats(of: audit.grants, after: earlier, hashing: hashing.hash)
        #expect(found == audit.repeats)
        // t1: a repeats e1, and f repeats a (e1 is more than 7 days before f); t2: d repeats b; t22: g repeats
        // c (e2 is more than 7 days before c); t3 once.
        #expect(found.map { "\($0.grant.record.eventID) of \($0.first.eventID)" } == ["a of e1", "d of b", "g of c", "f of a"])
    }

    /// One grant at 12:00 (iOS, coins_100) judged at a time; the store's other charges: coins_100 a day
    /// before (the store notifies the product) and one received at 13:01 (its notifications kept arriving
    /// after the hour's wait), unless the case changes them.
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var atMinutes: Int64
        var expected: Bool
        var ownChargeReceivedMinutes: Int64? = nil
        var otherReceiptMinutes: Int64 = 61
        var productEvidence = true
        var platform: String? = "iOS"
        var stores: Set<Store> = [.apple, .google]
    }

    static let cases: [Case] = [
        Case(testDescription: "counts once the wait passed and the store's notifications kept arriving", atMinutes: 120, expected: true),
        Case(testDescription: "not within the wait", atMinutes: 59, expected: false),
        Case(
            testDescription: "not before the store delivered a notification after the wait", atMinutes: 120, expected: false, otherReceiptMinutes: 150
        ),
        Case(testDescription: "counts from the store's first delivery after the wait", atMinutes: 150, expected: true, otherReceiptMinutes: 150),
        Case(testDescription: "not once its charge was received", atMinutes: 120, expected: false, ownChargeReceivedMinutes: 90),
        Case(testDescription: "until its late charge is received", atMinutes: 80, expected: true, ownChargeReceivedMinutes: 90),
        Case(
            testDescription: "not for a product the store did not charge in the week before", atMinutes: 120, expected: false, productEvidence: false),
        Case(testDescription: "not for a store the policy does not name", atMinutes: 120, expected: false, stores: [.google]),
        Case(testDescription: "not without a store (no charge, an unknown platform)", atMinutes: 120, expected: false, platform: "web"),
        Case(
            testDescription: "not for a store that sent no notification (Play, told by the platform)", atMinutes: 120, expected: false,
            platform: "Android"),
    ]

    @Test(arguments: cases)
    func withoutCharge(_ testCase: Case) {
        var rule = SLOPolicy.ReconciliationRule()
        rule.chargeNotifyingStores = testCase.stores
        let day: Int64 = 1440
        var ledgerCharges = [Self.charge("other", transaction: "2000000000000900", at: Self.granted + testCase.otherReceiptMinutes * Self.minute)]
        let evidence = Self.charge("evidence", transaction: "2000000000000800", at: Self.granted - day * Self.minute)
        if testCase.productEvidence { ledgerCharges.append(evidence) }
        let activity = StoreActivitySeries(
            rows: ledgerCharges.map { received in
                StoreActivityRow(
                    timeSeconds: received.notification.eventMillis / 1000 / 3600 * 3600, store: .apple, environment: "Production",
                    appID: "com.example.app", productID: received.notification.productID, kind: .charge, type: "ONE_TIME_CHARGE", currency: "USD",
                    count: 1, amount: 0.99)
            }, startSeconds: (Self.granted / 1000) - 8 * 86_400, endSeconds: Self.granted / 1000 + 86_400, environments: ["Production"])
        let own = testCase.ownChargeReceivedMinutes.map {
            [Self.charge("own", transaction: "2000000000000001", at: Self.granted - 2000, received: Self.granted + $0 * Self.minute)]
        }
        let audit = GrantAudit(
            grants: [Self.grant("g1", platform: testCase.platform)], charges: own ?? [],
            ledger: ChargeLedger(notifications: ledgerCharges + (own ?? []), reports: [], rule: rule), activity: activity, rule: rule)
        let now = Self.granted + testCase.atMinutes * Self.minute
        #expect(!audit.withoutCharge(from: Self.granted - day * Self.minute, through: now, at: now).isEmpty == testCase.expected)
    }
}
