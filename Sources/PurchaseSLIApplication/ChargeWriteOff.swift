public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

/// `charges write-off`: a person's decision that a charge nobody granted will not be granted (the user was
/// compensated another way, the account is gone, a fraud): the charge stops being owed, is never posted by
/// `make-whole`, and alerts and costs no longer count it. Kept with who decided, when and why, in the
/// record of what settled the charge (beside make-whole's deliveries).
public struct ChargeWriteOff: Sendable {
    /// Why a charge could not be written off.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What is wrong and what to do.
        public let description: String
    }

    /// The longest reason and name, in Unicode scalars.
    public static let maximumReasonLength = 300
    public static let maximumNameLength = 200

    private let store: any PurchaseStore
    private let rule: SLOPolicy.ReconciliationRule

    /// Write-offs of the charges in `store`, judged by `rule`.
    public init(store: any PurchaseStore, rule: SLOPolicy.ReconciliationRule) {
        self.store = store
        self.rule = rule
    }

    /// Writes off `store`'s charge of `transactionID` by `person` for `reason` at `millis`; returns the record kept.
    /// - Throws: ``Failure`` when no such charge is stored, it was granted or settled already, or the
    ///   reason or name is not printable text of the allowed length.
    public func writeOff(
        _ charge: Store, transactionID: String, reason: String, by person: String, atMillis millis: Int64
    ) async throws -> MakeWholeDelivery {
        guard let reason = PersonText.cleaned(reason, maximum: Self.maximumReasonLength) else {
            throw Failure(description: "--reason: expected why, in 1 to \(Self.maximumReasonLength) printable characters")
        }
        guard let name = PersonText.cleaned(person, maximum: Self.maximumNameLength) else {
            throw Failure(description: "--by: expected a person's name of 1 to \(Self.maximumNameLength) printable characters")
        }
        let found = try await store.notifications(of: .charge, naming: [transactionID]).filter { $0.notification.store == charge }
        guard let first = found.first else {
            throw Failure(description: "no \(charge.displayName) charge of transaction \(transactionID) is stored (see `purchase-sli charges`)")
        }
        let ledger = try await store.ledger(
            of: [first], fromMillis: first.notification.eventMillis, toMillis: first.notification.eventMillis + 1, rule: rule)
        if let known = ledger.charges.first {
            if let granted = known.grantedMillis {
                throw Failure(description: "transaction \(transactionID) was granted at \(RFC3339.format(millis: granted)): nothing is owed")
            }
            if let settlement = known.settlement {
                throw Failure(
                    description: "transaction \(transactionID) is settled already: \(settlement.kind.rawValue) at "
                        + "\(RFC3339.format(millis: settlement.millis)) (\(settlement.detail))")
            }
        }
        let record = MakeWholeDelivery(
            store: charge, transactionID: transactionID, outcome: .writtenOff, status: 0, detail: "by \(name): \(reason)", attempts: 0,
            lastAttemptMillis: millis)
        try await MakeWholeDeliveryRepository(store.sql).record([record])
        return record
    }
}
