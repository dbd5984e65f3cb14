import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension IncidentReport {
    /// The report as one line of JSON, ``IncidentReportJSON``.
    public var json: String { JSONTextEncoder.text(IncidentReportJSON(self)) + "\n" }
}

/// An incident's report as one JSON object (times RFC 3339 UTC, amounts per currency, never summed across
/// currencies): `{"id", "app", "severity", "over", "firstBadMinute", "startsAt", "endsAt", "readAt",
/// "status", "cost", "owed", "acknowledgement", "timeline", "actions", "chargesNotGrantedInTime", "refunds",
/// "storeCoverage", "alerts"}`; `cost` is ``PurchaseSLIRendering/AlertCostJSON``, as `incidents --format json`
/// writes it; `storeCoverage` (``PurchaseSLIRendering/StoreCoverageJSON``) says what of its span the stores'
/// notifications cover, which the charges and refunds rest on.
public struct IncidentReportJSON: Encodable, Sendable {
    /// One moment of the timeline.
    struct Moment: Encodable {
        let at: JSONTime
        let what: String
        let text: String
    }

    /// What one action lost, and where its failures concentrate.
    struct Action: Encodable {
        struct Share: Encodable {
            let dimension: String
            let value: String?
            let failureShare: Double
            let trafficShare: Double
        }

        struct TopError: Encodable {
            let resultType: String
            let errorDescription: String
            let events: Int64
        }

        let actionType: String
        let attempts: Int64
        let valid: Int64
        let success: Int64
        let alreadyGranted: Int64
        let failure: Int64
        let cancel: Int64
        let pending: Int64
        let concentration: [Share]
        let topErrors: [TopError]
    }

    /// A charge not granted in time, or a refund with its cause.
    struct Charge: Encodable {
        struct Settlement: Encodable {
            let kind: String
            let at: String
        }

        let store: String
        let transactionID: String?
        let productID: String
        let type: String
        let at: String
        let price: Double?
        let currency: String?
        let grantedAt: String?
        let settlement: JSONOmittedIfAbsent<Settlement>
        let cause: JSONOmittedIfAbsent<String>
        let ours: JSONOmittedIfAbsent<Bool>

        init(_ charge: ChargeLedger.Charge, cause: RefundCause?) {
            let notification = charge.notification
            store = notification.store.rawValue
            transactionID = notification.transactionID
            productID = charge.productID
            type = notification.type
            at = RFC3339.format(millis: charge.eventMillis)
            price = notification.price
            currency = notification.currency
            grantedAt = charge.grantedMillis.map { RFC3339.format(millis: $0) }
            settlement = JSONOmittedIfAbsent(charge.settlement.map { Settlement(kind: $0.kind.rawValue, at: RFC3339.format(millis: $0.millis)) })
            self.cause = JSONOmittedIfAbsent(cause?.rawValue)
            ours = JSONOmittedIfAbsent(cause?.isOurs)
        }
    }

    /// One alert of the incident.
    struct Alert: Encodable {
        let kind: String
        let severity: String
        let labels: JSONMembers<String>
        let startsAt: JSONTime
        let endsAt: JSONTime?
        let summary: String
        let lookNext: String
    }

    let id: String
    let app: String?
    let severity: String
    let over: Bool
    let firstBadMinute: JSONTime
    let startsAt: JSONTime
    let endsAt: JSONTime?
    let readAt: JSONTime
    let status: String
    let cost: AlertCostJSON
    let owed: ChargeTallyJSON?
    let acknowledgement: IncidentAcknowledgementJSON?
    let timeline: [Moment]
    let actions: [Action]
    let chargesNotGrantedInTime: [Charge]
    let refunds: [Charge]
    let storeCoverage: StoreCoverageJSON
    let alerts: [Alert]

    /// The report's JSON.
    public init(_ report: IncidentReport) {
        let incident = report.incident
        id = incident.id
        app = report.app
        severity = incident.peakSeverity.rawValue
        over = report.isOver
        firstBadMinute = JSONTime(incident.firstBadSeconds)
        startsAt = JSONTime(incident.startsAt)
        endsAt = .optional(incident.endsAt)
        readAt = JSONTime(report.readAtSeconds)
        status = report.record.status.rawValue
        cost = AlertCostJSON(report.cost, isOver: report.isOver)
        owed = report.record.owed.map(ChargeTallyJSON.init)
        acknowledgement = report.record.acknowledgement.map(IncidentAcknowledgementJSON.init)
        timeline = report.timeline.map { Moment(at: JSONTime($0.seconds), what: $0.label, text: $0.text.rendered(.terminal)) }
        actions = report.impacts.map { impact in
            let counts = impact.counts
            return Action(
                actionType: impact.actionType, attempts: counts.attempts, valid: counts.valid, success: counts.success,
                alreadyGranted: counts.alreadyGranted, failure: counts.failure, cancel: counts.cancel, pending: counts.pending,
                concentration: impact.concentration.map {
                    Action.Share(dimension: $0.slice.dimension.rawValue, value: $0.slice.value, failureShare: $0.share, trafficShare: $0.trafficShare)
                },
                topErrors: impact.topErrors.map { Action.TopError(resultType: $0.result, errorDescription: $0.description, events: $0.events) })
        }
        chargesNotGrantedInTime = report.lateCharges.map { Charge($0, cause: nil) }
        refunds = report.refunds.map { Charge($0.refund, cause: $0.cause) }
        storeCoverage = StoreCoverageJSON(report.storeCoverage, period: "this incident's span")
        alerts = report.alerts.map { alert in
            let finding = alert.finding
            return Alert(
                kind: finding.kind.rawValue, severity: alert.severity.rawValue, labels: JSONMembers(alert.labelPairs),
                startsAt: JSONTime(alert.startsAt), endsAt: .optional(alert.endsAt),
                summary: finding.evidence.summary(of: finding).rendered(.terminal), lookNext: alert.lookNextCommand(now: report.readAtSeconds))
        }
    }
}
