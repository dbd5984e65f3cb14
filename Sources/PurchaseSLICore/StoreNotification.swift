/// A store that pushes its own record of charges and refunds.
public enum Store: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The App Store (App Store Server Notifications V2).
    case apple
    /// Google Play (real-time developer notifications through Pub/Sub).
    case google

    /// The store's name as people know it.
    public var displayName: String {
        switch self {
        case .apple: "App Store"
        case .google: "Google Play"
        }
    }

    public static func < (lhs: Store, rhs: Store) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a store notification means for reconciliation.
public enum StoreEventKind: String, Sendable, Hashable, CaseIterable {
    /// The store took money: a purchase, a subscription's start or renewal, a redeemed offer.
    case charge
    /// The store gave money back or took the purchase away: a refund, a revocation, a voided purchase.
    case refund
    /// Anything else (renewal preferences, expiry, a test): kept, not reconciled.
    case other
}

/// One verified store notification, flattened to what reconciliation and the reports read.
///
/// Apple's fields come from the notification and its signed transaction; Google's from the Pub/Sub
/// message (Play's notifications carry neither price nor account token).
public struct StoreNotification: Sendable, Hashable {
    /// Which store sent it.
    public var store: Store
    /// The store's id of the notification (Apple's `notificationUUID`, the Pub/Sub `messageId`): the
    /// deduplication key, as the stores resend a notification until it is acknowledged.
    public var notificationID: String
    /// `Production` or `Sandbox`.
    public var environment: String
    /// The app's bundle id or package name.
    public var appID: String
    /// The store's notification type (`ONE_TIME_CHARGE`, `SUBSCRIPTION_RENEWED`, `VOIDED_PURCHASE`, …).
    public var type: String
    /// Apple's subtype (`INITIAL_BUY`, `BILLING_RECOVERY`, …), or nil.
    public var subtype: String?
    /// What the notification means for reconciliation.
    public var kind: StoreEventKind
    /// When the store signed (Apple) or published (Google) it, in milliseconds since the epoch.
    public var signedMillis: Int64
    /// The transaction it is about: Apple's `transactionId`, Play's purchase token.
    public var transactionID: String?
    /// Apple's `originalTransactionId` (the subscription's first transaction); Play's order id of a voided purchase.
    public var originalTransactionID: String?
    /// The store product.
    public var productID: String?
    /// When the charge was made (Apple's `purchaseDate`; Play's event time), in milliseconds.
    public var purchaseMillis: Int64?
    /// The price in currency units (Apple sends milliunits), where the store gives it.
    public var price: Double?
    /// The price's ISO 4217 currency.
    public var currency: String?
    /// The UUID the app passed at purchase, lowercase, where the store gives it.
    public var appAccountToken: String?
    /// When the purchase was refunded or revoked, in milliseconds.
    public var revocationMillis: Int64?
    /// Whether the transaction is a family member's share of another's purchase (Apple's
    /// `inAppOwnershipType` `FAMILY_SHARED`): no money changed hands, so it is neither a charge nor a refund
    /// (a REVOKE of it ends the sharing), and a family member's grant of it is not a grant without a charge.
    public var isFamilyShared: Bool

    /// Creates a notification.
    public init(
        store: Store, notificationID: String, environment: String, appID: String, type: String, subtype: String? = nil,
        kind: StoreEventKind, signedMillis: Int64, transactionID: String? = nil, originalTransactionID: String? = nil,
        productID: String? = nil, purchaseMillis: Int64? = nil, price: Double? = nil, currency: String? = nil,
        appAccountToken: String? = nil, revocationMillis: Int64? = nil, isFamilyShared: Bool = false
    ) {
        self.store = store
        self.notificationID = notificationID
        self.environment = environment
        self.appID = appID
        self.type = type
        self.subtype = subtype
        self.kind = kind
        self.signedMillis = signedMillis
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.purchaseMillis = purchaseMillis
        self.price = price
        self.currency = currency
        self.appAccountToken = appAccountToken
        self.revocationMillis = revocationMillis
        self.isFamilyShared = isFamilyShared
    }

    /// When what it reports happened: the refund's or revocation's time, the charge's, else the signature's.
    public var eventMillis: Int64 {
        switch kind {
        case .refund: revocationMillis ?? signedMillis
        case .charge: purchaseMillis ?? signedMillis
        case .other: signedMillis
        }
    }
}

/// A store notification as stored: with the time it was received (the receiving clock), which decides
/// what an evaluation at an earlier time could have known.
public struct ReceivedNotification: Sendable, Hashable {
    /// The notification.
    public var notification: StoreNotification
    /// When it was received, in milliseconds since the epoch.
    public var receivedMillis: Int64

    /// Creates a received notification.
    public init(_ notification: StoreNotification, receivedMillis: Int64) {
        self.notification = notification
        self.receivedMillis = receivedMillis
    }
}
