public import PurchaseSLICore

/// One grant as `purchase-sli grants` lists it: the grant and its transaction's charge, the grant it
/// repeats, and whether it is without a charge at the listing's time.
public struct GrantListRow: Sendable, Hashable {
    /// The grant, with its store and charge.
    public var grant: GrantAudit.Grant
    /// The transaction's first grant, when this one granted it again.
    public var repeatOf: GrantRecord?
    /// Whether it counts as without a charge at the listing's time (``GrantAudit/withoutCharge(from:through:at:)``).
    public var isWithoutCharge: Bool

    /// Creates a row.
    public init(grant: GrantAudit.Grant, repeatOf: GrantRecord?, isWithoutCharge: Bool) {
        self.grant = grant
        self.repeatOf = repeatOf
        self.isWithoutCharge = isWithoutCharge
    }

    /// What it gave away, as an alert counts it (``GrantEvidence/Example/worth``).
    public var worth: (amount: Double, currency: String)? { GrantEvidence.Example(grant: grant, first: repeatOf).worth }
}
