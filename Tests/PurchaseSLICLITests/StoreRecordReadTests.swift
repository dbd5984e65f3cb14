import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// `AlertContext.storeRecord(from:to:)` reads the stores' notifications once for the ledger and the hourly
/// activity: it must answer what the store's own ledger and activity queries answer.
@Suite struct StoreRecordReadTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// 2026-11-20T10:00:00Z.
    private let ten: Int64 = 1_795_168_800

    private func told(
        _ id: String, _ kind: StoreEventKind, store: Store = .apple, hoursBefore: Double, transaction: String?, product: String?,
        type: String? = nil
    ) -> StoreNotification {
        let millis = (ten - Int64(hoursBefore * 3600)) * 1000
        return StoreNotification(
            store: store, notificationID: id, environment: "Production", appID: "com.example.app",
            type: type ?? (kind == .charge ? "ONE_TIME_CHARGE" : kind == .refund ? "REFUND" : "CONSUMPTION_REQUEST"), kind: kind,
            signedMillis: millis, transactionID: transaction, productID: product, purchaseMillis: millis, price: kind == .other ? nil : 4.99,
            currency: "USD", revocationMillis: kind == .refund ? millis : nil)
    }

    @Test("one read of the notifications: the ledger and the hourly activity the store's own queries give, products found outside the read")
    func oneReadAnswersAsTheStore() async throws {
        let store = try SQLiteBucketStore(path: directory.file("store.sqlite"))
        _ = try await store.record(
            [
                told("c1", .charge, hoursBefore: 2, transaction: "t1", product: "coins_100"),
                told("c1-again", .charge, hoursBefore: 2, transaction: "t1", product: "coins_100"),
                told("r1", .refund, hoursBefore: 1, transaction: "t1", product: "coins_100"),
                // Refunded without a product: its charge lies 40 days back, far before any read.
                told("c2", .charge, store: .google, hoursBefore: 960, transaction: "t2", product: "coins_500", type: "ONE_TIME_PRODUCT_PURCHASED"),
                told("r2", .refund, store: .google, hoursBefore: 3, transaction: "t2", product: nil, type: "VOIDED_PURCHASE"),
                // Refunded without a product, no charge stored: another kind of notification named it.
                told("o3", .other, hoursBefore: 100, transaction: "t3", product: "gems_10"),
                told("r3", .refund, hoursBefore: 4, transaction: "t3", product: nil),
                told("c4", .charge, hoursBefore: 30, transaction: "t4", product: "coins_100"),
            ], receivedAtMillis: ten * 1000)
        let policy = SLOPolicy.default
        let context = AlertContext(store: store, storedMaintenance: [], policy: policy)
        let read = try await context.storeRecord(from: ten - 3600, to: ten)
        let activity = await StoreActivitySeries(
            rows: try store.storeActivity(fromMillis: read.activity.startSeconds * 1000, toMillis: ten * 1000, stepSeconds: 3600),
            startSeconds: read.activity.startSeconds, endSeconds: ten, environments: policy.reconciliation.environments)
        #expect(read.activity.keys.map { "\($0.store.rawValue) \($0.productID)" } == ["apple coins_100", "apple gems_10", "google coins_500"])
        #expect(read.activity.keys == activity.keys)
        for key in activity.keys {
            for hour in stride(from: read.activity.startSeconds, to: ten, by: 3600) {
                #expect(read.activity.counts(key, from: hour, to: hour + 3600) == activity.counts(key, from: hour, to: hour + 3600))
            }
        }
        #expect(read.activity.keys.map { read.activity.counts($0, from: ten - 5 * 3600, to: ten).refunds } == [1, 1, 1])
        #expect(read.activity.counts(read.activity.keys[0], from: ten - 3 * 3600, to: ten) == (1, 1))
        let reach = policy.reconciliation.alertLookbackSeconds + AlertEvaluator(policy: policy).longestHoldSeconds
        let ledger = try await store.ledger(
            kinds: [.charge, .refund], fromMillis: (ten - 3600 - reach) * 1000, toMillis: ten * 1000, rule: policy.reconciliation)
        #expect(read.charges.charges == ledger.charges && read.charges.refunds == ledger.refunds)
        #expect(read.charges.refunds.map(\.notification.notificationID) == ["r3", "r2", "r1"])
    }
}
