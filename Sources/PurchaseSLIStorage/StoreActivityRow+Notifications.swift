package import PurchaseSLICore

extension StoreActivityRow {
    /// The charges and refunds among `notifications` (not a family member's share) that happened in `[fromMillis, toMillis)`, counted
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
        // Each event's notification of the smallest id, by position (the notifications, some twenty strings
        // each, are not copied).
        var first: [Told: Int] = [:]
        for index in notifications.indices {
            let notification = notifications[index].notification
            guard notification.kind != .other, !notification.isFamilyShared, notification.eventMillis >= fromMillis,
                notification.eventMillis < toMillis
            else { continue }
            let told = Told(
                store: notification.store, kind: notification.kind,
                transaction: notification.transactionID ?? notification.notificationID, eventMillis: notification.eventMillis)
            if let kept = first[told], notifications[kept].notification.notificationID <= notification.notificationID { continue }
            first[told] = index
        }
        let counted = first.values.sorted()
        // The product of each transaction told without one: of its notification of the smallest id that has one.
        var unnamed = Set<TransactionKey>()
        for index in counted where notifications[index].notification.productID == nil {
            if let transaction = notifications[index].notification.transactionID {
                unnamed.insert(TransactionKey(store: notifications[index].notification.store, transactionID: transaction))
            }
        }
        var products: [TransactionKey: (notificationID: String, productID: String)] = [:]
        if !unnamed.isEmpty {
            for received in notifications {
                let notification = received.notification
                guard let transaction = notification.transactionID, let product = notification.productID else { continue }
                let key = TransactionKey(store: notification.store, transactionID: transaction)
                guard unnamed.contains(key), products[key].map({ notification.notificationID < $0.notificationID }) ?? true else { continue }
                products[key] = (notification.notificationID, product)
            }
        }
        let step = max(1, stepSeconds) * .millisPerSecond
        var rows: [StoreActivityRow: (count: Int64, amount: Double)] = [:]
        for index in counted {
            let notification = notifications[index].notification
            let product =
                notification.productID
                ?? notification.transactionID.flatMap { products[TransactionKey(store: notification.store, transactionID: $0)]?.productID }
            let key = StoreActivityRow(
                timeSeconds: (notification.eventMillis - notification.eventMillis.floorDividedBy(step).remainder) / .millisPerSecond,
                store: notification.store, environment: notification.environment, appID: notification.appID, productID: product,
                kind: notification.kind,
                type: notification.type, currency: notification.currency, count: 0, amount: 0)
            Self.add(notification.price ?? 0, to: &rows[key, default: (0, 0)])
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

    /// Counts one more charge or refund of `amount` in `sums`.
    private static func add(_ amount: Double, to sums: inout (count: Int64, amount: Double)) {
        sums.count += 1
        sums.amount += amount
    }
}
