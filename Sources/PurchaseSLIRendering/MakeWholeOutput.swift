public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// What `purchase-sli make-whole` did with each charge owed (not granted, refunded or written off).
public enum MakeWholeOutput {
    /// One charge and its delivery.
    public struct Row: Sendable {
        /// The charge owed.
        public var charge: ChargeLedger.Charge
        /// What the grant server answered (this run, or kept from an earlier one), or nil: never posted.
        public var delivery: MakeWholeDelivery?
        /// Whether this run posted it.
        public var postedNow: Bool

        /// Creates a row.
        public init(charge: ChargeLedger.Charge, delivery: MakeWholeDelivery?, postedNow: Bool) {
            self.charge = charge
            self.delivery = delivery
            self.postedNow = postedNow
        }
    }

    /// A table, then a count line.
    public static func text(_ rows: [Row], dryRun: Bool, zone: TimeZoneOffsets = .utc) -> String {
        guard !rows.isEmpty else { return "no charge owed matches\n" }
        let lines = rows.map { row -> [String] in
            let notification = row.charge.notification
            let outcome: String
            if let delivery = row.delivery {
                let when = zone.timestamp(delivery.lastAttemptMillis / .millisPerSecond)
                let status = delivery.status == 0 ? "no answer" : "HTTP \(delivery.status)"
                outcome =
                    (row.postedNow ? "" : "earlier: ") + "\(delivery.outcome.rawValue) (\(status), \(delivery.attempts) attempt"
                    + "\(delivery.attempts == 1 ? "" : "s"), last \(when))"
                    + (!row.postedNow && !delivery.outcome.isSettled && dryRun ? "; would post again" : "")
            } else {
                outcome = dryRun ? "would post" : "not posted"
            }
            return [
                zone.timestamp(notification.eventMillis / .millisPerSecond), notification.store.rawValue, row.charge.productID,
                notification.transactionID ?? "", notification.price.map { NumberText.money($0, currency: notification.currency ?? "") } ?? "",
                outcome,
            ]
        }
        let posted = rows.filter(\.postedNow)
        let delivered = posted.filter { $0.delivery?.outcome == .delivered || $0.delivery?.outcome == .alreadyGranted }.count
        return TerminalTable.render(header: ["charged", "store", "product", "transaction", "price", "make-whole"], rows: lines)
            + "\(rows.count) charge\(rows.count == 1 ? "" : "s") owed; posted \(posted.count) now, \(delivered) taken"
            + (dryRun ? " (dry run)" : "") + "\n"
    }
}
