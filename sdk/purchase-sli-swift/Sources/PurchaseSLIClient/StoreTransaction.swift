public import Foundation

/// A StoreKit 2 transaction as the SDK records it: the fields of StoreKit's `Transaction` it reads, as a
/// plain value (``StoreKitObserver`` makes it from StoreKit's own type; tests make it on Linux).
public struct StoreTransaction: Sendable, Hashable {
    /// Whether a renewal or a purchase brought the transaction (`Transaction.Reason`, iOS 17 and later).
    public enum Reason: String, Sendable, Hashable {
        /// The customer bought the product (here, on another device, by Ask to Buy, with an offer code).
        case purchase
        /// An auto-renewable subscription renewed.
        case renewal
    }

    /// `id`: the store's transaction id, what the store ledger joins on.
    public var id: UInt64
    /// `productID`.
    public var productID: String
    /// `purchaseDate`.
    public var purchaseDate: Date
    /// `appAccountToken`: the UUID the app passed when the purchase started, if any.
    public var appAccountToken: UUID?
    /// `reason`, when the system reports it.
    public var reason: Reason?
    /// `ownershipType == .familyShared`: a family member's purchase shared with this user.
    public var isFamilyShared = false
    /// `revocationDate`: the store refunded or revoked the transaction.
    public var revocationDate: Date?
    /// `offer?.id` (an offer code's or a promotional offer's id), when the system reports it.
    public var offerID: String?
    /// `subscriptionGroupID`.
    public var subscriptionGroupID: String?
    /// `price` and `currency` (ISO 4217), when the system reports them.
    public var price: Decimal?, currency: String?
    /// Whether StoreKit verified the transaction's signature (`VerificationResult.verified`).
    public var isVerified = true

    /// A transaction of `productID` bought at `purchaseDate`.
    public init(id: UInt64, productID: String, purchaseDate: Date, appAccountToken: UUID? = nil, reason: Reason? = nil) {
        self.id = id
        self.productID = productID
        self.purchaseDate = purchaseDate
        self.appAccountToken = appAccountToken
        self.reason = reason
    }
}

/// Where StoreKit delivered a transaction the app did not get from its own purchase call.
public enum TransactionSource: String, Sendable, Hashable {
    /// `Transaction.updates`: Ask to Buy approved, a purchase on another device, an offer code redeemed,
    /// a renewal completed in the background. Recorded as action ``SLIAction/update``.
    case updates
    /// `Transaction.unfinished`, at launch or when the app retries: transactions no one finished (the
    /// batch of renewals of which only the first was finished). Recorded as action ``SLIAction/retry``.
    case unfinished

    /// The action its attempts are recorded as.
    var action: SLIAction { self == .updates ? .update : .retry }
}

/// What the SDK did with a transaction StoreKit delivered.
public enum TransactionHandling: Sendable, Hashable {
    /// Recorded as an attempt with this outcome; `finished` when the transaction was finished (granted).
    case recorded(SLIOutcome, finished: Bool)
    /// Left to the purchase call in progress for the same product or appAccountToken (StoreKit delivers
    /// such a transaction to `Transaction.updates` too): not recorded, not finished.
    case inPurchaseCall
    /// Delivered again while its first delivery is being handled, or after it was finished: not recorded twice.
    case alreadyHandled
    /// Refunded or revoked: not a purchase to grant; given to the app's revocation handler, not recorded.
    case revoked
}

/// How a purchase the customer started on the App Store (`PurchaseIntent`) ended, as a plain value.
public enum IntentPurchaseResult: Sendable {
    /// StoreKit answered success with this transaction (verified or not).
    case success(DeliveredTransaction)
    /// `.userCancelled`.
    case userCancelled
    /// `.pending`: Ask to Buy, a bank's confirmation. Recorded as pending, not a failure.
    case pending
    /// The purchase threw: a StoreKit error as a plain value.
    case failed(StoreKitErrorCase)
    /// The purchase threw an error that is not StoreKit's, by its description.
    case failedOtherwise(String)
}
