public import PurchaseSLICore

/// The stores' charges and refunds over a time range, each joined with what the app reported about it:
/// what reconciliation reads. Built once per evaluation; every lookup is a binary search.
public struct ChargeLedger: Sendable {
    /// One store charge (or refund) and the app's side of it.
    public struct Charge: Sendable, Hashable {
        /// The store's notification of it.
        public var notification: StoreNotification
        /// When the notification was received (milliseconds).
        public var receivedMillis: Int64
        /// When an event first reported it granted (`success` or `alreadyGranted` naming its transaction), or nil.
        public var grantedMillis: Int64?
        /// What the app last reported about it: by its transaction id, else by the purchase's account token.
        public var report: ClientReport?
        /// When the app first reported a failure or a cancel of it (by its transaction id or the purchase's
        /// account token), or nil: a user who saw an error before (or instead of) the grant.
        public var firstTroubleMillis: Int64?
        /// What settled it other than a grant (a refund, make-whole, a write-off), whenever that happened, or nil.
        public var settlement: ChargeSettlement?

        /// When the store charged (or refunded), in milliseconds.
        public var eventMillis: Int64 { notification.eventMillis }
        /// The product: the store's, else the app's.
        public var productID: String { notification.productID ?? report?.productID ?? "(unknown product)" }
        /// Whether a grant was recorded by `millis`.
        public func isGranted(by millis: Int64) -> Bool { grantedMillis.map { $0 <= millis } ?? false }
        /// Its settlement, when known by `millis`.
        public func settlement(by millis: Int64) -> ChargeSettlement? { settlement.flatMap { $0.millis <= millis ? $0 : nil } }
        /// Whether it is owed at `millis`: neither granted nor settled by then.
        public func isOwed(at millis: Int64) -> Bool { !isGranted(by: millis) && settlement(by: millis) == nil }
    }

    /// The charges the policy expects a grant for, by charge time.
    public let expectedCharges: [Charge]
    /// Of those, the ones that were still ungranted when their grace ended (the only ones that can alert),
    /// by charge time.
    public let overdueCharges: [Charge]
    /// Every charge, by charge time.
    public let charges: [Charge]
    /// Refunds and revocations, by their time.
    public let refunds: [Charge]

    /// A store and product, which charges are alerted on by.
    public struct ProductKey: Sendable, Hashable, Comparable {
        /// The store.
        public var store: Store
        /// The product (the store's, else the app's).
        public var productID: String

        /// By store, then product.
        public static func < (lhs: ProductKey, rhs: ProductKey) -> Bool { (lhs.store, lhs.productID) < (rhs.store, rhs.productID) }
    }

    /// The store and product pairs of the expected charges.
    public let productKeys: [ProductKey]

    /// What the evaluator's minute loop reads of a charge, flat: no string is touched per charge and minute.
    struct Facts {
        /// When charged, received, granted and settled otherwise (`Int64.max`: never), in milliseconds.
        var eventMillis, receivedMillis, grantedMillis, settledMillis: Int64
        /// Whether Google Play charged it.
        var isGoogle: Bool
        /// The position of its store and product in ``productKeys``.
        var product: Int
        /// Its price (0 without one) and the position of its currency in ``currencies`` (-1 without one).
        var price: Double
        var currency: Int

        /// Whether it is owed at `millis`: neither granted nor settled by then.
        func isOwed(at millis: Int64) -> Bool { grantedMillis > millis && settledMillis > millis }
    }

    /// The currencies of the expected charges.
    let currencies: [String]
    /// The facts of each expected charge, in the same order.
    let expectedFacts: [Facts]
    /// The facts of each overdue charge, in the same order.
    let overdueFacts: [Facts]

    /// A ledger with nothing in it.
    public static let empty = ChargeLedger(notifications: [], reports: [], rule: SLOPolicy.ReconciliationRule())

    /// How far before a charge the app's events about it count: ``ClientReport/reportsBeforeChargeMillis``.
    public static let reportsBeforeChargeMillis = ClientReport.reportsBeforeChargeMillis
    /// How far after a charge the app's events about it count: ``ClientReport/reportsAfterChargeMillis``.
    public static let reportsAfterChargeMillis = ClientReport.reportsAfterChargeMillis

    /// Joins the notifications with the reports. A charge is granted by the first `success` or
    /// `alreadyGranted` event of its product that names its transaction (Play's: its purchase token) from
    /// ``reportsBeforeChargeMillis`` before the charge to ``reportsAfterChargeMillis`` after it, and
    /// nothing else: an event of another product, or from outside that span, names another purchase. What
    /// the app last reported about it comes from the same events, else from those naming the purchase's
    /// account token. So a charge's reconciliation is the same whatever range a caller reads around it.
    /// A charge reported twice (a notification resent under a
    /// new id, or fetched again from the history) counts once, as first received; so does a refund, however
    /// many notifications tell it (the App Store's REFUND and REVOKE of one transaction, Play's revoked
    /// subscription and its voided purchase). A family member's share of a purchase
    /// (``StoreNotification/isFamilyShared``) is neither. Each charge's ``Charge/settlement`` is the earliest of
    /// `settlements` (``ChargeSettlement/byCharge(refunds:deliveries:)``, read for the charges whatever their
    /// time) and the refunds among `notifications` naming it. O(n log n).
    public init(
        notifications: [ReceivedNotification], reports: [ClientReport], rule: SLOPolicy.ReconciliationRule,
        settlements: [String: ChargeSettlement] = [:]
    ) {
        let chains = ReportChains(reports)
        /// The reports of `key` about `notification`'s purchase (its product, its span), merged: the first
        /// grant, the latest outcome; and the first failure or cancel among them.
        func matching(_ key: ClientReport.Key, about notification: StoreNotification) -> (report: ClientReport?, troubleMillis: Int64?) {
            let span = notification.eventMillis - Self.reportsBeforeChargeMillis...notification.eventMillis + Self.reportsAfterChargeMillis
            var merged: ClientReport?
            var trouble: Int64?
            var index = chains.first(of: key)
            while let position = index {
                index = chains.next(after: position)
                guard
                    span.contains(reports[position].lastMillis)
                        && (notification.productID == nil || notification.productID == reports[position].productID)
                else { continue }
                var own = reports[position]
                if let grant = own.firstGrantMillis, !span.contains(grant) { own.firstGrantMillis = nil }
                if own.lastResult == .failure || own.lastResult == .cancel { trouble = min(trouble ?? own.lastMillis, own.lastMillis) }
                if merged == nil { merged = own } else { merged!.merge(own) }
            }
            return (merged, trouble)
        }
        struct ChargeKey: Hashable {
            var store: Store
            var transactionID: String?
            var millis: Int64
        }
        var seen = Set<ChargeKey>()
        /// A transaction is refunded once; a refund without a transaction id is its notification.
        var refunded = Set<String>()
        // The positions of the notifications kept, in the order received: the first of each charge and refund.
        var kept: [Int] = []
        for position in notifications.indices.sorted(by: { notifications[$0].receivedMillis < notifications[$1].receivedMillis }) {
            let notification = notifications[position].notification
            // A family member's share moved no money: neither a charge nor a refund.
            guard notification.kind != .other, !notification.isFamilyShared else { continue }
            let isNew =
                notification.kind == .refund
                ? refunded.insert("\(notification.store.rawValue) \(notification.transactionID ?? "notification " + notification.notificationID)")
                    .inserted
                : seen.insert(ChargeKey(store: notification.store, transactionID: notification.transactionID, millis: notification.eventMillis))
                    .inserted
            if isNew { kept.append(position) }
        }
        // A refund without a product (Play's voided purchases) takes its charge's: the first received.
        var productByTransaction: [String: String?] = [:]
        if kept.contains(where: { notifications[$0].notification.kind == .refund && notifications[$0].notification.productID == nil }) {
            for position in kept where notifications[position].notification.kind == .charge {
                let notification = notifications[position].notification
                if let id = notification.transactionID, productByTransaction[id] == nil { productByTransaction[id] = notification.productID }
            }
        }
        let ownRefunds = ChargeSettlement.byCharge(refunds: kept.map { notifications[$0] }, deliveries: [])
        func settlement(of notification: StoreNotification) -> ChargeSettlement? {
            guard notification.kind == .charge, let id = notification.transactionID else { return nil }
            let key = ChargeSettlement.key(store: notification.store, transactionID: id)
            return [settlements[key], ownRefunds[key]].compactMap { $0 }.min { $0.millis < $1.millis }
        }
        // Joined by event time, ties as received (the notifications, some twenty strings each, are not moved to sort them).
        var charges: [Charge] = []
        var refunds: [Charge] = []
        charges.reserveCapacity(kept.count)
        for position in kept.sorted(by: { notifications[$0].notification.eventMillis < notifications[$1].notification.eventMillis }) {
            var notification = notifications[position].notification
            let byID = notification.transactionID.map { matching(.transactionID($0), about: notification) }
            let byToken = notification.appAccountToken.map { matching(.appAccountToken($0), about: notification) }
            let troubles = [byID?.troubleMillis, byToken?.troubleMillis].compactMap { $0 }
            if notification.kind == .refund, notification.productID == nil, let id = notification.transactionID {
                notification.productID = productByTransaction[id] ?? nil
            }
            let charge = Charge(
                notification: notification, receivedMillis: notifications[position].receivedMillis, grantedMillis: byID?.report?.firstGrantMillis,
                report: byID?.report ?? byToken?.report, firstTroubleMillis: troubles.min(), settlement: settlement(of: notification))
            if notification.kind == .charge { charges.append(charge) } else { refunds.append(charge) }
        }
        let grace = rule.graceSeconds * .millisPerSecond
        self.charges = charges
        self.refunds = refunds
        // Filtered copies only where some are left out: a charge is some hundreds of bytes and twenty strings.
        func expected(_ charge: Charge) -> Bool { rule.expectsGrant(type: charge.notification.type, environment: charge.notification.environment) }
        expectedCharges = charges.allSatisfy(expected) ? charges : charges.filter(expected)
        overdueCharges = expectedCharges.filter { $0.isOwed(at: $0.eventMillis + grace) }
        var positions: [ProductKey: Int] = [:]
        var currencyPositions: [String: Int] = [:]
        var keys: [ProductKey] = []
        var currencies: [String] = []
        func facts(of charge: Charge) -> Facts {
            let key = ProductKey(store: charge.notification.store, productID: charge.productID)
            let product = positions[key] ?? keys.count
            if product == keys.count {
                positions[key] = product
                keys.append(key)
            }
            var currency = -1
            if charge.notification.price != nil, let code = charge.notification.currency {
                currency = currencyPositions[code] ?? currencies.count
                if currency == currencies.count {
                    currencyPositions[code] = currency
                    currencies.append(code)
                }
            }
            return Facts(
                eventMillis: charge.eventMillis, receivedMillis: charge.receivedMillis, grantedMillis: charge.grantedMillis ?? .max,
                settledMillis: charge.settlement?.millis ?? .max,
                isGoogle: charge.notification.store == .google, product: product, price: charge.notification.price ?? 0, currency: currency)
        }
        expectedFacts = expectedCharges.map(facts(of:))
        overdueFacts = overdueCharges.map(facts(of:))
        productKeys = keys
        self.currencies = currencies
    }

    /// The charges of `sorted` made in `[from, to]` (milliseconds). O(log n).
    static func slice(_ sorted: [Charge], from: Int64, through to: Int64) -> ArraySlice<Charge> {
        sorted.timeSlice(millis: \.eventMillis, from: from, through: to)
    }
}

/// Where each key's reports lie among a list of reports, in the list's order, without an array per key:
/// the first position of each key and, for each position, the next of its key.
private struct ReportChains {
    private var ends: [ClientReport.Key: (first: Int, last: Int)] = [:]
    private var successors: [Int]

    /// The chains of `reports`. O(n).
    init(_ reports: [ClientReport]) {
        successors = Array(repeating: -1, count: reports.count)
        ends.reserveCapacity(reports.count)
        for index in reports.indices {
            let previous = Self.replaceLast(&ends[reports[index].key, default: (first: index, last: -1)], with: index)
            if previous >= 0 { successors[previous] = index }
        }
    }

    /// The first position of `key`'s reports, or nil without any.
    func first(of key: ClientReport.Key) -> Int? { ends[key]?.first }

    /// The position of the next report of the key of the report at `position`, or nil after its last.
    func next(after position: Int) -> Int? {
        let next = successors[position]
        return next >= 0 ? next : nil
    }

    /// Makes `index` the last of a chain, giving back the one before it (-1 when it is the first).
    private static func replaceLast(_ end: inout (first: Int, last: Int), with index: Int) -> Int {
        defer { end.last = index }
        return end.last
    }
}
