public import PurchaseSLICore

/// One event's outcome about a transaction (or, for an event without a transaction id, its account
/// token) as the store keeps it: by the hash of the id, since the stores keep hashes, not ids. What the
/// transactions an outage left ungranted are counted from without naming them.
public struct ReportedOutcome: Sendable, Hashable {
    /// The stable 64-bit hash of the transaction id (or account token) the event named.
    public var keyHash: Int64
    /// The event's product.
    public var productID: String
    /// The event's plan.
    public var planID: String?
    /// The event's action.
    public var actionType: String
    /// The event's result.
    public var result: ResultType
    /// The event's time, in milliseconds.
    public var millis: Int64
    /// When the event granted it (its own time for a `success` or `alreadyGranted`), or nil.
    public var firstGrantMillis: Int64?

    /// Creates an outcome.
    public init(
        keyHash: Int64, productID: String, planID: String?, actionType: String, result: ResultType, millis: Int64, firstGrantMillis: Int64?
    ) {
        self.keyHash = keyHash
        self.productID = productID
        self.planID = planID
        self.actionType = actionType
        self.result = result
        self.millis = millis
        self.firstGrantMillis = firstGrantMillis
    }
}
