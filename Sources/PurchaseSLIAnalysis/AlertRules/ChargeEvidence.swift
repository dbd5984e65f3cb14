public import PurchaseSLICore

/// What a ChargedNotGranted alert found: a product's store charges past their grace with no grant,
/// how much money they are, and the share of the latest window they make up.
public struct ChargeEvidence: Sendable, Hashable {
    /// An amount in one currency.
    public struct Amount: Sendable, Hashable {
        /// ISO 4217 code.
        public var currency: String
        /// The sum, in currency units.
        public var amount: Double
        /// The charges summed.
        public var charges: Int

        /// Creates an amount.
        public init(currency: String, amount: Double, charges: Int) {
            self.currency = currency
            self.amount = amount
            self.charges = charges
        }
    }

    /// The store that charged.
    public var store: Store
    /// The grace time a grant had, in seconds.
    public var graceSeconds: Int64
    /// How far back charges are counted, in seconds.
    public var lookbackSeconds: Int64
    /// Ungranted charges of the product within the lookback.
    public var ungranted: Int
    /// Their amounts by currency (charges the store gave a price for), largest first.
    public var amounts: [Amount]
    /// Up to 10 of them, oldest first, with what the app reported.
    public var oldest: [ChargeLedger.Charge]
    /// The page window, in seconds: charges whose grace ended within it.
    public var pageWindowSeconds: Int64
    /// The product's charges of the page window.
    public var windowCharges: Int
    /// How many of them are ungranted.
    public var windowUngranted: Int
    /// The store's charges of the page window (every product).
    public var storeWindowCharges: Int
    /// How many of them are ungranted.
    public var storeWindowUngranted: Int
    /// Play charges among them that Play refunds within a day unless acknowledged (older than 2 days).
    public var refundedWithinADay: Int

    /// Creates evidence.
    public init(
        store: Store, graceSeconds: Int64, lookbackSeconds: Int64, ungranted: Int, amounts: [Amount], oldest: [ChargeLedger.Charge],
        pageWindowSeconds: Int64, windowCharges: Int, windowUngranted: Int, storeWindowCharges: Int, storeWindowUngranted: Int,
        refundedWithinADay: Int = 0
    ) {
        self.store = store
        self.graceSeconds = graceSeconds
        self.lookbackSeconds = lookbackSeconds
        self.ungranted = ungranted
        self.amounts = amounts
        self.oldest = oldest
        self.pageWindowSeconds = pageWindowSeconds
        self.windowCharges = windowCharges
        self.windowUngranted = windowUngranted
        self.storeWindowCharges = storeWindowCharges
        self.storeWindowUngranted = storeWindowUngranted
        self.refundedWithinADay = refundedWithinADay
    }
}
