public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

/// `make-whole`'s reads and writes: the charges still owed, each with what the grant server answered
/// for it before, and each new answer kept as soon as it is known (a run stopped halfway posts none of
/// those again).
public struct MakeWholeDeliveries: Sendable {
    private let store: any PurchaseStore
    private let rule: SLOPolicy.ReconciliationRule

    /// The deliveries of the charges in `store`, owed as `rule` judges.
    public init(store: any PurchaseStore, rule: SLOPolicy.ReconciliationRule) {
        self.store = store
        self.rule = rule
    }

    /// The charges of `[fromSeconds, toSeconds)` owed at `atMillis` that `include` keeps, by time, each
    /// with the delivery kept for its store and transaction (nil before the first attempt).
    public func owed(
        fromSeconds: Int64, toSeconds: Int64, atMillis: Int64, where include: (ChargeLedger.Charge) -> Bool
    ) async throws -> [(charge: ChargeLedger.Charge, previous: MakeWholeDelivery?)] {
        let owed = try await store.ledger(
            kinds: [.charge], fromMillis: fromSeconds * .millisPerSecond, toMillis: toSeconds * .millisPerSecond, rule: rule
        ).charges
            .filter { rule.isOwed($0, atMillis: atMillis) && include($0) }
        let kept = try await MakeWholeDeliveryRepository(store.sql).deliveries(naming: Set(owed.compactMap(\.notification.transactionID)))
        let byCharge = Dictionary(kept.map { (ChargeSettlement.key(store: $0.store, transactionID: $0.transactionID), $0) }) { first, _ in first }
        return owed.map { charge in
            let id = charge.notification.transactionID ?? charge.notification.notificationID
            return (charge, byCharge[ChargeSettlement.key(store: charge.notification.store, transactionID: id)])
        }
    }

    /// Keeps `delivery`, replacing what was kept for its store and transaction.
    public func keep(_ delivery: MakeWholeDelivery) async throws {
        try await MakeWholeDeliveryRepository(store.sql).record([delivery])
    }
}
