package import PurchaseSLICore

extension StoreActivityRow {
    /// The charges and refunds among `notifications` that happened in `[fromMillis, toMillis)`, counted
    /// per step (aligned to the epoch) and key as the stores' SQL does: a transaction's charge (or refund)
    /// told several times at the same time counts once, as told by its notification of the smallest id;
    /// a refund without a product takes its charge's (from any of `notifications`). Sorted by step, then
    /// key (absent values first). O(n log n).
    package static func rows(of notifications: [ReceivedNotification], fromMillis: Int64, toMillis: Int64, stepSeconds: Int64) -> [StoreActivityRow] {
        struct Told: Hashable {
            var store: Store
            var kind: StoreEventKind
            var transaction: String
            var eventMillis: Int64
        }
        struct TransactionKey: Hashable {
            var store: Store
            var transactionID: String
        }
        var products: [TransactionKey: String] = [:]
        for received in notifications.sorted(by: { $0.notification.notificationID < $1.notification.notificationID }) {
            let notification = received.notification
            guard let transaction = notification.transactionID, let product = notification.productID else { continue }
            let key = TransactionKey(store: notification.store, transactionID: transaction)
            if products[key] == nil { products[key] = product }
        }
        var first: [Told: StoreNotification] = [:]
        for received in notifications {
            let notification = received.notification
            guard notification.kind != .other, notification.eventMillis >= fromMillis, notification.eventMillis < toMillis else { continue }
            let told = Told(
                store: notification.store, kind: notification.kind,
                transaction: notification.transactionID ?? notification.notificationID, eventMillis: notification.eventMillis)
            if let kept = first[told], kept.notificationID <= notification.notificationID { continue }
            first[told] = notification
        }
        let step = max(1, stepSeconds) * 1000
        var rows: [StoreActivityRow: (count: Int64, amount: Double)] = [:]
        for notification in first.values {
            let product =
                notification.productID
                ?? notification.transactionID.flatMap { products[TransactionKey(store: notification.store, transactionID: $0)] }
            let key = StoreActivityRow(
                timeSeconds: (notification.eventMillis - notification.eventMillis.floorDividedBy(step).remainder) / 1000,
                store: notification.store, environment: notification.environment, appID: notification.appID, productID: product,
                kind: notification.kind,
                type: notification.type, currency: notification.currency, count: 0, amount: 0)
            rows[key, default: (0, 0)].count += 1
            rows[key, default: (0, 0)].amount += notification.price ?? 0
        }
        return rows.map { key, sums in
            var row = key
            (row.count, row.amount) = sums
            return row
        }.sorted { lhs, rhs in
            func fields(_ row: StoreActivityRow) -> [String?] {
                [row.store.rawValue, row.environment, row.appID, row.productID, row.kind.rawValue, row.type, row.currency]
            }
            if lhs.timeSeconds != rhs.timeSeconds { return lhs.timeSeconds < rhs.timeSeconds }
            return fields(lhs).lexicographicallyPrecedes(fields(rhs)) { ($0 == nil && $1 != nil) || ($0 ?? "") < ($1 ?? "") && $1 != nil }
        }
    }
}
