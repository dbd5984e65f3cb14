public import PurchaseSLICore

/// The answer the ledger supports to one App Store `CONSUMPTION_REQUEST` (a customer asked for a refund):
/// the body of *Send Consumption Information* (`ConsumptionRequest`), drafted from what the app reported
/// about the transaction. Delivered when an event granted it; otherwise not delivered, and why: a server
/// outage when the app's last word was a 5xx or no answer (status 0), else for another reason.
public struct ConsumptionAnswer: Sendable, Hashable {
    /// `deliveryStatus` values the ledger can tell apart (Apple also has `UNDELIVERED_QUALITY_ISSUE` and
    /// `UNDELIVERED_WRONG_ITEM`, which only the team can know).
    public enum DeliveryStatus: String, Sendable, Hashable {
        /// An event granted the purchase.
        case delivered = "DELIVERED"
        /// Not granted, and the app last saw the grant server fail (5xx) or not answer.
        case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
        /// Not granted, for another reason (a cancel the store charged anyway, a crash, nothing reported).
        case undeliveredOther = "UNDELIVERED_OTHER"
    }

    /// The `CONSUMPTION_REQUEST` notification.
    public var request: ReceivedNotification
    /// Its transaction and product.
    public var transactionID: String
    public var productID: String
    /// What to answer.
    public var deliveryStatus: DeliveryStatus
    /// When the purchase was granted, or nil.
    public var grantedMillis: Int64?
    /// What the app last reported about the purchase, or nil.
    public var report: ClientReport?

    /// Apple wants the answer within 12 hours of the notification.
    public static let answerWithinMillis: Int64 = 12 * .millisPerHour

    /// When the answer is due.
    public var answerByMillis: Int64 { request.receivedMillis + Self.answerWithinMillis }

    /// The `ConsumptionRequest` body: `customerConsented` (Apple refuses anything but true),
    /// `deliveryStatus`, `sampleContentProvided`; when not delivered, `consumptionPercentage` 0 (Apple
    /// refuses another value then) and `refundPreference` `GRANT_FULL` (the customer paid for nothing).
    /// How much of a delivered purchase was consumed the ledger does not know, so it is left out.
    public struct Body: Encodable, Sendable, Hashable {
        let customerConsented = true
        let deliveryStatus: String
        let sampleContentProvided: Bool
        let consumptionPercentage: JSONOmittedIfAbsent<Int>
        let refundPreference: JSONOmittedIfAbsent<String>
    }

    /// The answer's ``Body``.
    public func body(sampleContentProvided: Bool) -> Body {
        let isDelivered = deliveryStatus == .delivered
        return Body(
            deliveryStatus: deliveryStatus.rawValue, sampleContentProvided: sampleContentProvided,
            consumptionPercentage: JSONOmittedIfAbsent(isDelivered ? nil : 0), refundPreference: JSONOmittedIfAbsent(isDelivered ? nil : "GRANT_FULL")
        )
    }

    /// The notification type Apple sends when a customer asks for a refund.
    public static let requestType = "CONSUMPTION_REQUEST"

    /// The answers to `requests` (App Store `CONSUMPTION_REQUEST` notifications; others are left out),
    /// one per transaction (its first request), by request time. `reports` are what the app's events
    /// said about the transactions and account tokens, matched as ``ChargeLedger`` matches a charge's.
    public static func drafts(requests: [ReceivedNotification], reports: [ClientReport], rule: SLOPolicy.ReconciliationRule) -> [ConsumptionAnswer] {
        let asked = requests.filter { $0.notification.store == .apple && $0.notification.type == requestType && $0.notification.transactionID != nil }
        // The request carries the purchase's transaction (its id, product, purchase date, account token):
        // matched as a charge, the ledger finds its grant and what the app last said.
        let ledger = ChargeLedger(
            notifications: asked.map { request in
                var purchase = request
                purchase.notification.kind = .charge
                return purchase
            }, reports: reports, rule: rule)
        var purchases: [String: ChargeLedger.Charge] = [:]
        for purchase in ledger.charges { if let id = purchase.notification.transactionID, purchases[id] == nil { purchases[id] = purchase } }
        var answered = Set<String>()
        return asked.sorted { $0.receivedMillis < $1.receivedMillis }.compactMap { request in
            guard let id = request.notification.transactionID, answered.insert(id).inserted,
                let purchase = purchases[id]
            else { return nil }
            let status: DeliveryStatus
            if let granted = purchase.grantedMillis, granted <= request.receivedMillis {
                status = .delivered
            } else if let report = purchase.report, report.lastResult == .failure, let code = report.lastStatusCode, code == 0 || code >= 500 {
                status = .undeliveredServerOutage
            } else {
                status = .undeliveredOther
            }
            return ConsumptionAnswer(
                request: request, transactionID: id, productID: purchase.productID, deliveryStatus: status,
                grantedMillis: status == .delivered ? purchase.grantedMillis : nil, report: purchase.report)
        }
    }
}
