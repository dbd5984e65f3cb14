/// The stores' charges and refunds of one time step, counted per store, environment, product,
/// notification type and currency: what refund spikes, `query` and the reviews count.
public struct StoreActivityRow: Sendable, Hashable {
    /// The step's start, seconds since the epoch.
    public var timeSeconds: Int64
    /// The store.
    public var store: Store
    /// `Production` or `Sandbox`.
    public var environment: String
    /// The app's bundle id or package name, as the notification gave it.
    public var appID: String
    /// The product (a refund without one takes its charge's), or nil when unknown.
    public var productID: String?
    /// Charge or refund.
    public var kind: StoreEventKind
    /// The store's notification type.
    public var type: String
    /// The currency of the amounts, or nil when the store gives no price.
    public var currency: String?
    /// Distinct charges or refunds (a transaction notified twice counts once).
    public var count: Int64
    /// Their prices summed, in `currency` units.
    public var amount: Double

    /// Creates a row.
    public init(
        timeSeconds: Int64, store: Store, environment: String, appID: String, productID: String?, kind: StoreEventKind, type: String,
        currency: String?,
        count: Int64, amount: Double
    ) {
        self.timeSeconds = timeSeconds
        self.store = store
        self.environment = environment
        self.appID = appID
        self.productID = productID
        self.kind = kind
        self.type = type
        self.currency = currency
        self.count = count
        self.amount = amount
    }
}
