import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// A family member's share of a purchase moved no money: the ledger holds it as neither a charge (no grant
/// owed, no money at risk) nor, when the sharing ends (REVOKE), a refund.
@Suite struct FamilySharingTests {
    private func notification(_ id: String, _ kind: StoreEventKind, transaction: String, familyShared: Bool) -> ReceivedNotification {
        let millis = RFC3339.parseMillis("2026-11-20T10:00:00Z")! + (kind == .refund ? 3_600_000 : 0)
        return ReceivedNotification(
            StoreNotification(
                store: .apple, notificationID: id, environment: "Production", appID: "com.example.app",
                type: kind == .charge ? "SUBSCRIBED" : "REVOKE", kind: kind, signedMillis: millis, transactionID: transaction,
                productID: "premium.family", purchaseMillis: millis, price: 14.99, currency: "USD", isFamilyShared: familyShared),
            receivedMillis: millis)
    }

    @Test func aFamilyMembersShareIsNeitherAChargeNorARefund() {
        let ledger = ChargeLedger(
            notifications: [
                notification("bought", .charge, transaction: "2000000000000001", familyShared: false),
                notification("shared", .charge, transaction: "2000000000000002", familyShared: true),
                notification("sharing-ended", .refund, transaction: "2000000000000002", familyShared: true),
            ], reports: [], rule: SLOPolicy.ReconciliationRule())
        #expect(ledger.charges.map(\.notification.notificationID) == ["bought"])
        #expect(ledger.expectedCharges.map(\.notification.notificationID) == ["bought"])
        #expect(ledger.refunds.isEmpty)
        let rows = ChargeCounts.rows(
            ledger: ledger, rule: SLOPolicy.ReconciliationRule(), fromSeconds: 0, toSeconds: .max / 1000, stepSeconds: nil, groupBy: [],
            atSeconds: RFC3339.parseMillis("2026-11-21T00:00:00Z")! / 1000)
        #expect(rows.map(\.charges) == [1] && rows.map(\.refunds) == [0] && rows.first?.chargedAmounts == ["USD": 14.99])
    }
}
