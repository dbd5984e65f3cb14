public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

extension StoreRecordStore {
    /// The notifications of `kinds` that happened in `[fromMillis, toMillis)` and were received by
    /// `receivedBy` (when given), joined with what the app's events reported about each transaction and
    /// account token. O(n log n), one point read per key.
    public func ledger(
        kinds: Set<StoreEventKind>, fromMillis: Int64, toMillis: Int64, receivedBy: Int64? = nil, rule: SLOPolicy.ReconciliationRule
    ) throws -> ChargeLedger {
        var notifications = try self.notifications(kinds: kinds, fromMillis: fromMillis, toMillis: toMillis)
        if let receivedBy { notifications.removeAll { $0.receivedMillis > receivedBy } }
        var keys = Set<ClientReport.Key>()
        for received in notifications {
            if let id = received.notification.transactionID { keys.insert(.transactionID(id)) }
            if let token = received.notification.appAccountToken { keys.insert(.appAccountToken(token)) }
        }
        return ChargeLedger(notifications: notifications, reports: try clientReports(keys), rule: rule)
    }
}
