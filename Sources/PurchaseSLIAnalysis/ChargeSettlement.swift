public import PurchaseSLICore

/// What settled a charge other than the app's grant: the store refunded or revoked it, the grant server
/// took it from `make-whole`, or a person wrote it off. A charge is owed until it is granted or settled,
/// whatever range it is read in: only an event changes its state.
public struct ChargeSettlement: Sendable, Hashable {
    /// How it was settled.
    public enum Kind: String, Sendable, Hashable {
        /// The store refunded, revoked or voided it (the user has the money back).
        case refunded
        /// The grant server took it from `make-whole` (a 2xx naming it, or a 409: granted before).
        case madeWhole = "made whole"
        /// A person wrote it off, with a reason (`purchase-sli charges write-off`).
        case writtenOff = "written off"
    }

    /// How it was settled.
    public var kind: Kind
    /// When it became known (milliseconds): a refund's receipt, the delivery's or the write-off's time.
    public var millis: Int64
    /// A few words: the refund's notification type, the grant server's answer, who wrote it off and why.
    public var detail: String

    /// A settlement of `kind` known at `millis`.
    public init(kind: Kind, millis: Int64, detail: String) {
        self.kind = kind
        self.millis = millis
        self.detail = detail
    }

    /// The earliest settlement of each charge among `refunds` (refund notifications, by the charge's store
    /// and transaction) and `deliveries` (what `make-whole` and write-offs kept), by ``key(store:transactionID:)``.
    /// A delivery the grant server refused, or that failed, settles nothing: the charge is still owed.
    public static func byCharge(refunds: [ReceivedNotification], deliveries: [MakeWholeDelivery]) -> [String: ChargeSettlement] {
        var settlements: [String: ChargeSettlement] = [:]
        func keep(_ settlement: ChargeSettlement, for key: String) {
            if let known = settlements[key], known.millis <= settlement.millis { return }
            settlements[key] = settlement
        }
        for refund in refunds where refund.notification.kind == .refund {
            guard let transactionID = refund.notification.transactionID else { continue }
            keep(
                ChargeSettlement(kind: .refunded, millis: refund.receivedMillis, detail: refund.notification.type),
                for: key(store: refund.notification.store, transactionID: transactionID))
        }
        for delivery in deliveries {
            let kind: Kind
            switch delivery.outcome {
            case .delivered, .alreadyGranted: kind = .madeWhole
            case .writtenOff: kind = .writtenOff
            case .refused, .failed: continue
            }
            keep(
                ChargeSettlement(kind: kind, millis: delivery.lastAttemptMillis, detail: delivery.detail),
                for: key(store: delivery.store, transactionID: delivery.transactionID))
        }
        return settlements
    }

    /// The key of a charge's settlement: its store and transaction (Play: the purchase token).
    public static func key(store: Store, transactionID: String) -> String { "\(store.rawValue) \(transactionID)" }
}
