/// What an app's events said about one store transaction (named by `transactionID`) or one purchase
/// attempt (named by `appAccountToken`): the first grant, and the latest outcome reported.
public struct ClientReport: Sendable, Hashable {
    /// How far before a charge the app's events about it count (a start, a cancel, a pending purchase
    /// approved later, a grant on a device whose clock runs late): a day.
    public static let reportsBeforeChargeMillis: Int64 = .millisPerDay
    /// How far after a charge the app's events about it count (a grant retried at a later launch): 7 days.
    public static let reportsAfterChargeMillis: Int64 = 7 * .millisPerDay
    /// How long after it happened a report may still meet a charge not stored yet: such a charge happened
    /// at most 157 hours ago (the App Store's last retry of a notification; Play's come sooner) and reaches
    /// reports a day before it, so a report older than about 7.5 days meets only charges already stored; 9
    /// days leave a margin. The stores keep older reports only for the charges they hold.
    public static let settleAfterMillis: Int64 = 9 * .millisPerDay

    /// The charge times (milliseconds) whose reports fall on UTC day `day` (days since the epoch): a charge
    /// from 7 days before the day to a day after it.
    public static func chargeTimes(reachingDay day: Int64) -> Range<Int64> {
        day * .millisPerDay - reportsAfterChargeMillis..<(day + 1) * .millisPerDay + reportsBeforeChargeMillis
    }
    /// How the events named what they report on.
    public enum Key: Sendable, Hashable {
        /// StoreKit's transaction id or Play's purchase token.
        case transactionID(String)
        /// The UUID the app passed to the store at purchase.
        case appAccountToken(String)
    }

    /// What the events named.
    public var key: Key
    /// The product of the latest event.
    public var productID: String
    /// The plan of the latest event.
    public var planID: String?
    /// The action of the latest event.
    public var actionType: String
    /// When the first `success` or `alreadyGranted` event was recorded (event time, milliseconds), or nil.
    public var firstGrantMillis: Int64?
    /// The latest event's time, in milliseconds.
    public var lastMillis: Int64
    /// The latest event's outcome.
    public var lastResult: ResultType
    /// The latest event's HTTP status.
    public var lastStatusCode: Int?
    /// The latest event's error description.
    public var lastErrorDescription: String?

    /// Creates a report.
    public init(
        key: Key, productID: String, planID: String? = nil, actionType: String, firstGrantMillis: Int64? = nil, lastMillis: Int64,
        lastResult: ResultType, lastStatusCode: Int? = nil, lastErrorDescription: String? = nil
    ) {
        self.key = key
        self.productID = productID
        self.planID = planID
        self.actionType = actionType
        self.firstGrantMillis = firstGrantMillis
        self.lastMillis = lastMillis
        self.lastResult = lastResult
        self.lastStatusCode = lastStatusCode
        self.lastErrorDescription = lastErrorDescription
    }

    /// The report of one event, before it is merged with the others of its key.
    public init(key: Key, event: PurchaseEvent) {
        self.init(
            key: key, productID: event.productID, planID: event.planID, actionType: event.actionType.rawValue,
            firstGrantMillis: event.resultType.isGrant ? event.timestampMillis : nil, lastMillis: event.timestampMillis,
            lastResult: event.resultType, lastStatusCode: event.statusCode, lastErrorDescription: event.errorDescription)
    }

    /// Merges a later (or earlier) report of the same key: the earliest grant, the latest outcome.
    public mutating func merge(_ other: ClientReport) {
        if let grant = other.firstGrantMillis { firstGrantMillis = min(firstGrantMillis ?? grant, grant) }
        guard other.lastMillis >= lastMillis else { return }
        productID = other.productID
        planID = other.planID
        actionType = other.actionType
        lastMillis = other.lastMillis
        lastResult = other.lastResult
        lastStatusCode = other.lastStatusCode
        lastErrorDescription = other.lastErrorDescription
    }

    /// `reports` in time order (ties by key as ``Key/text`` orders them, product and outcome, so that every
    /// store gives one order). O(n log n), O(n) when already in order.
    public static func byTime(_ reports: [ClientReport]) -> [ClientReport] {
        func precedes(_ lhs: ClientReport, _ rhs: ClientReport) -> Bool {
            guard lhs.lastMillis == rhs.lastMillis else { return lhs.lastMillis < rhs.lastMillis }
            if lhs.key != rhs.key { return lhs.key.precedes(rhs.key) }
            return (lhs.productID, lhs.lastResult.rawValue) < (rhs.productID, rhs.lastResult.rawValue)
        }
        return reports.sortedUnlessInOrder(by: precedes)
    }
}

extension ClientReport.Key {
    /// Whether this key's ``text`` sorts before `other`'s, without building either: account tokens
    /// ("appAccountToken …") before transactions ("transactionID …"), then by the id (the prefix, ending
    /// in a space, changes no comparison of what follows it).
    func precedes(_ other: ClientReport.Key) -> Bool {
        switch (self, other) {
        case (.appAccountToken(let left), .appAccountToken(let right)), (.transactionID(let left), .transactionID(let right)): left < right
        case (.appAccountToken, .transactionID): true
        case (.transactionID, .appAccountToken): false
        }
    }

    /// The id or token, prefixed by its kind: "transactionID 2000000123", "appAccountToken 6F1…".
    public var text: String {
        switch self {
        case .transactionID(let id): "transactionID " + id
        case .appAccountToken(let token): "appAccountToken " + token
        }
    }
}
