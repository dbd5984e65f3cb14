/// One grant an app reported: a `success` event of a purchase or retry naming its store transaction.
/// What the ledger reads the other way round: the same transaction granted twice, or granted with no
/// charge behind it.
public struct GrantRecord: Sendable, Hashable {
    /// The event's id.
    public var eventID: String
    /// StoreKit's transaction id or Play's purchase token.
    public var transactionID: String
    /// When the event says it happened, in milliseconds.
    public var millis: Int64
    /// The product granted.
    public var productID: String
    /// The plan granted.
    public var planID: String?
    /// The action: purchase or retry (a restore grants what was bought before, and is not recorded).
    public var actionType: ActionType
    /// The app version that granted.
    public var appVersion: String?
    /// The platform (`ios`, `android`, …).
    public var platform: String?
    /// The app (bundle id or package name).
    public var app: String?
    /// The price the event carried, and its currency.
    public var price: Double?
    public var currency: String?

    /// Creates a record.
    public init(
        eventID: String, transactionID: String, millis: Int64, productID: String, planID: String? = nil, actionType: ActionType = .purchase,
        appVersion: String? = nil, platform: String? = nil, app: String? = nil, price: Double? = nil, currency: String? = nil
    ) {
        self.eventID = eventID
        self.transactionID = transactionID
        self.millis = millis
        self.productID = productID
        self.planID = planID
        self.actionType = actionType
        self.appVersion = appVersion
        self.platform = platform
        self.app = app
        self.price = price
        self.currency = currency
    }

    /// `grants` by time, then transaction and event id: one order whatever the store.
    /// O(n) when they are in that order already (as a store reads them), else O(n log n).
    public static func byTime(_ grants: [GrantRecord]) -> [GrantRecord] {
        func precedes(_ a: GrantRecord, _ b: GrantRecord) -> Bool {
            guard a.millis == b.millis else { return a.millis < b.millis }
            return (a.transactionID, a.eventID) < (b.transactionID, b.eventID)
        }
        return grants.sortedUnlessInOrder(by: precedes)
    }
}

extension PurchaseEvent {
    /// The transaction this event reports granted, or nil when it reports no grant: not a `success`, a
    /// restore (which grants again what was bought before), or no transaction named.
    public var grantedTransactionID: String? {
        resultType == .success && actionType != .restore ? transactionID : nil
    }
}
