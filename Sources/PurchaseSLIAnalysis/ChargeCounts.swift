import PurchaseSLICore

/// Counts of the stores' charges and refunds per group (and time step): what `query --of charges` and
/// the weekly review's money at risk show.
public enum ChargeCounts {
    /// What charges can be grouped by.
    public enum Dimension: String, Sendable, Hashable, CaseIterable {
        case store, environment, app, productID, planID, type, currency

        /// The dimension's value for a charge (the plan is the app's, from its last report; the app is the
        /// notification's bundle id or package name, the value of the events' `app`).
        func value(of charge: ChargeLedger.Charge) -> String? {
            switch self {
            case .store: charge.notification.store.rawValue
            case .environment: charge.notification.environment
            case .app: charge.notification.appID
            case .productID: charge.productID
            case .planID: charge.report?.planID
            case .type: charge.notification.type
            case .currency: charge.notification.currency
            }
        }
    }

    /// The counts of one group.
    public struct Row: Sendable, Hashable {
        /// The step's start, or nil without a step.
        public var timeSeconds: Int64?
        /// The values of the grouping dimensions, in their order.
        public var key: [String?]
        /// Charges.
        public var charges: Int64 = 0
        /// Of those, the ones the policy expects a grant for.
        public var expectingGrant: Int64 = 0
        /// Charges granted by the evaluation time.
        public var granted: Int64 = 0
        /// Charges expecting a grant, past their grace time and not granted at the evaluation time.
        public var ungranted: Int64 = 0
        /// Refunds and revocations.
        public var refunds: Int64 = 0
        /// Amounts charged, per currency.
        public var chargedAmounts: [String: Double] = [:]
        /// Amounts not granted, per currency.
        public var ungrantedAmounts: [String: Double] = [:]
        /// Amounts refunded, per currency.
        public var refundedAmounts: [String: Double] = [:]

        /// An empty row for a step and key.
        public init(timeSeconds: Int64?, key: [String?]) {
            self.timeSeconds = timeSeconds
            self.key = key
        }
    }

    /// The ledger's charges and refunds of `[fromSeconds, toSeconds)` grouped by `groupBy` (and by
    /// `stepSeconds` when given), their grants judged at `atSeconds`. Rows sorted by time and key. O(n).
    public static func rows(
        ledger: ChargeLedger, rule: SLOPolicy.ReconciliationRule, fromSeconds: Int64, toSeconds: Int64, stepSeconds: Int64?,
        groupBy: [Dimension], filters: [Dimension: Set<String?>] = [:], atSeconds: Int64
    ) -> [Row] {
        struct Key: Hashable {
            var time: Int64?
            var values: [String?]
        }
        var rows: [Key: Row] = [:]
        func row(for charge: ChargeLedger.Charge) -> Key? {
            let millis = charge.eventMillis
            guard millis >= fromSeconds * .millisPerSecond, millis < toSeconds * .millisPerSecond,
                filters.allSatisfy({ $0.value.contains($0.key.value(of: charge)) })
            else { return nil }
            let time = stepSeconds.map { step in (millis / .millisPerSecond).floorDividedBy(step).quotient * step }
            let key = Key(time: time, values: groupBy.map { $0.value(of: charge) })
            if rows[key] == nil { rows[key] = Row(timeSeconds: time, key: key.values) }
            return key
        }
        let at = atSeconds * .millisPerSecond
        for charge in ledger.charges {
            guard let key = row(for: charge) else { continue }
            let price = charge.notification.price
            let currency = charge.notification.currency
            rows[key]!.charges += 1
            if let price, let currency { rows[key]!.chargedAmounts[currency, default: 0] += price }
            if charge.isGranted(by: at) { rows[key]!.granted += 1 }
            guard rule.expectsGrant(type: charge.notification.type, environment: charge.notification.environment) else { continue }
            rows[key]!.expectingGrant += 1
            if rule.isOwed(charge, atMillis: at) {
                rows[key]!.ungranted += 1
                if let price, let currency { rows[key]!.ungrantedAmounts[currency, default: 0] += price }
            }
        }
        for refund in ledger.refunds {
            guard let key = row(for: refund) else { continue }
            rows[key]!.refunds += 1
            if let price = refund.notification.price, let currency = refund.notification.currency {
                rows[key]!.refundedAmounts[currency, default: 0] += price
            }
        }
        return rows.values.sorted { lhs, rhs in
            if lhs.timeSeconds != rhs.timeSeconds { return (lhs.timeSeconds ?? 0) < (rhs.timeSeconds ?? 0) }
            return lhs.key.map { $0 ?? "" }.lexicographicallyPrecedes(rhs.key.map { $0 ?? "" })
        }
    }
}
