/// One validated SLI event: a step of a purchase, restore or retry attempt.
public struct PurchaseEvent: Sendable, Hashable {
    /// Client-generated idempotency key.
    public var eventID: String
    /// Event time on the client, in milliseconds since 1970-01-01T00:00:00Z.
    public var timestampMillis: Int64
    /// Store product id.
    public var productID: String
    /// Server plan.
    public var planID: String?
    /// Subscription group.
    public var groupID: String?
    /// Offer (introductory, promotional, win-back).
    public var offerID: String?
    /// What the app was doing.
    public var actionType: ActionType
    /// The step's outcome.
    public var resultType: ResultType
    /// HTTP status of the server's verify/grant answer.
    public var statusCode: Int?
    /// App version that sent the event.
    public var appVersion: String?
    /// Platform, e.g. `iOS`.
    public var platform: String?
    /// OS version.
    public var osVersion: String?
    /// Feature-flag cohort.
    public var variant: String?
    /// Store transaction id.
    public var transactionID: String?
    /// Attempt duration in milliseconds.
    public var durationMs: Int64?
    /// Free-text result description (at most 1024 characters).
    public var resultDescription: String?
    /// Free-text server answer (at most 1024 characters).
    public var responseDescription: String?
    /// Free-text error (at most 1024 characters).
    public var errorDescription: String?
    /// The product's price in `currency` units (9.99), as the store showed it.
    public var price: Double?
    /// The price's currency, ISO 4217 (`USD`).
    public var currency: String?
    /// The UUID the app passed to the store when it started the purchase (StoreKit's `appAccountToken`),
    /// lowercase: what joins an attempt to the store's charge when the app never saw a transaction id.
    public var appAccountToken: String?
    /// The app's bundle id (iOS) or package name (Android).
    public var app: String?

    /// Creates an event; use ``EventValidator`` to make one from untrusted input.
    public init(
        eventID: String, timestampMillis: Int64, productID: String, planID: String? = nil, groupID: String? = nil,
        offerID: String? = nil, actionType: ActionType, resultType: ResultType, statusCode: Int? = nil,
        appVersion: String? = nil, platform: String? = nil, osVersion: String? = nil, variant: String? = nil,
        transactionID: String? = nil, durationMs: Int64? = nil, resultDescription: String? = nil,
        responseDescription: String? = nil, errorDescription: String? = nil, price: Double? = nil, currency: String? = nil,
        appAccountToken: String? = nil, app: String? = nil
    ) {
        self.eventID = eventID
        self.timestampMillis = timestampMillis
        self.productID = productID
        self.planID = planID
        self.groupID = groupID
        self.offerID = offerID
        self.actionType = actionType
        self.resultType = resultType
        self.statusCode = statusCode
        self.appVersion = appVersion
        self.platform = platform
        self.osVersion = osVersion
        self.variant = variant
        self.transactionID = transactionID
        self.durationMs = durationMs
        self.resultDescription = resultDescription
        self.responseDescription = responseDescription
        self.errorDescription = errorDescription
        self.price = price
        self.currency = currency
        self.appAccountToken = appAccountToken
        self.app = app
    }

    /// The value of a dimension, or nil when the event has none.
    public func value(of dimension: EventDimension) -> String? {
        switch dimension {
        case .actionType: actionType.rawValue
        case .productID: productID
        case .planID: planID
        case .groupID: groupID
        case .offerID: offerID
        case .appVersion: appVersion
        case .platform: platform
        case .osVersion: osVersion
        case .variant: variant
        case .app: app
        case .resultType: resultType.rawValue
        case .errorDescription: errorDescription
        }
    }

    /// Sets the value of an optional dimension (every series dimension but the action and product, and the
    /// error description); the required ones (action, product, result) are set when the event is made.
    public mutating func setValue(_ value: String?, of dimension: EventDimension) {
        switch dimension {
        case .planID: planID = value
        case .groupID: groupID = value
        case .offerID: offerID = value
        case .appVersion: appVersion = value
        case .platform: platform = value
        case .osVersion: osVersion = value
        case .variant: variant = value
        case .app: app = value
        case .errorDescription: errorDescription = value
        case .actionType, .productID, .resultType: preconditionFailure("\(dimension) is required: set it when making the event")
        }
    }

    /// Whether the event counts as a 409: `alreadyGranted`, or status code 409.
    public var isConflict: Bool { resultType == .alreadyGranted || statusCode == 409 }
}
