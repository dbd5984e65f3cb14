import PurchaseSLICore

/// Why a refund came, as far as the ledger tells: what happened to the charge it gave back. The first
/// three are refunds we caused.
public enum RefundCause: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The charge was never granted (by the refund's time): the user paid and got nothing.
    case neverGranted = "never granted"
    /// The app reported a failure or a cancel of the purchase before it was granted: the user saw an error.
    case grantedAfterFailure = "granted after a failure"
    /// Granted later than the reconciliation grace time after the charge: the user waited.
    case grantedLate = "granted late"
    /// Granted in time without a reported failure, or a charge no grant is expected for (a renewal): not
    /// one the ledger can blame on the purchase flow.
    case other
    /// A refund whose charge the ledger does not hold (older than the stores' notifications kept, or
    /// never notified).
    case chargeNotKnown = "charge not known"

    /// Whether the purchase flow caused it: the charge was never granted, granted after a failure, or late.
    public var isOurs: Bool { self == .neverGranted || self == .grantedAfterFailure || self == .grantedLate }

    /// In the order above.
    public static func < (lhs: RefundCause, rhs: RefundCause) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

extension ChargeLedger {
    /// One refund and the charge it gave back.
    public struct RefundCausation: Sendable, Hashable {
        /// The refund (or revocation, or voided purchase).
        public var refund: Charge
        /// The charge of its transaction, or nil when the ledger does not hold it.
        public var charge: Charge?
        /// Why it came.
        public var cause: RefundCause
    }

    /// Each refund with the cause its charge tells, by refund time: never granted by the refund, granted
    /// after a failure or cancel the app reported, granted later than `rule`'s grace time, or other (a
    /// charge granted in time, or one no grant is expected for). The ledger must hold the refunds' charges
    /// (``StoreRecordStore/refundLedger(fromMillis:toMillis:rule:)`` reads them whatever their time).
    public func refundCauses(rule: SLOPolicy.ReconciliationRule) -> [RefundCausation] {
        var chargeOf: [String: Charge] = [:]
        for charge in charges {
            guard let id = charge.notification.transactionID else { continue }
            let key = "\(charge.notification.store.rawValue) \(id)"
            if chargeOf[key] == nil { chargeOf[key] = charge }
        }
        return refunds.map { refund in
            let charge = refund.notification.transactionID.flatMap { chargeOf["\(refund.notification.store.rawValue) \($0)"] }
            return RefundCausation(
                refund: refund, charge: charge,
                cause: charge.map { Self.cause(of: $0, refundedAt: refund.eventMillis, rule: rule) } ?? .chargeNotKnown)
        }
    }

    /// What happened to `charge` before `refundedAt`.
    static func cause(of charge: Charge, refundedAt: Int64, rule: SLOPolicy.ReconciliationRule) -> RefundCause {
        guard rule.expectsGrant(type: charge.notification.type, environment: charge.notification.environment) else { return .other }
        guard let granted = charge.grantedMillis, granted <= refundedAt else { return .neverGranted }
        if let trouble = charge.firstTroubleMillis, trouble < granted { return .grantedAfterFailure }
        return granted - charge.eventMillis > rule.graceSeconds * .millisPerSecond ? .grantedLate : .other
    }
}

/// Refunds counted by cause, with their amounts per currency.
public struct RefundTally: Sendable, Hashable {
    /// How many refunds, and their amounts per currency.
    public struct Entry: Sendable, Hashable {
        /// How many.
        public var count = 0
        /// Their amounts per currency (the refund's price, else its charge's).
        public var amounts: [String: Double] = [:]

        /// None.
        public init() {}

        /// Adds `other` in.
        mutating func add(_ other: Entry) {
            count += other.count
            amounts.merge(other.amounts, uniquingKeysWith: +)
        }
    }

    /// Per cause.
    public var byCause: [RefundCause: Entry] = [:]

    /// Nothing counted.
    public init() {}

    /// Tallies `causations`.
    public init(_ causations: some Sequence<ChargeLedger.RefundCausation>) {
        for causation in causations {
            var entry = byCause[causation.cause] ?? Entry()
            entry.count += 1
            let notification = causation.refund.notification
            if let price = notification.price ?? causation.charge?.notification.price,
                let currency = notification.currency ?? causation.charge?.notification.currency
            {
                entry.amounts[currency, default: 0] += price
            }
            byCause[causation.cause] = entry
        }
    }

    /// The refunds we caused (``RefundCause/isOurs``).
    public var ours: Entry { byCause.filter { $0.key.isOurs }.values.reduce(into: Entry()) { $0.add($1) } }

    /// The other refunds (not ours, or of a charge not known).
    public var others: Entry { byCause.filter { !$0.key.isOurs }.values.reduce(into: Entry()) { $0.add($1) } }
}
