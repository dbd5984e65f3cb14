import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension IncidentReport {
    /// The report as one JSON object (times RFC 3339 UTC, amounts per currency, never summed across
    /// currencies): `{"id", "app", "severity", "over", "firstBadMinute", "startsAt", "endsAt", "readAt",
    /// "status", "cost", "owed", "acknowledgement", "timeline", "actions", "chargesNotGrantedInTime", "refunds", "storeCoverage",
    /// "alerts"}`; `cost` as
    /// ``PurchaseSLIAnalysis/AlertCost/json(isOver:)`` writes it, as `incidents --format json` does; `storeCoverage` (``PurchaseSLIAnalysis/StoreCoverage``)
    /// says what of its span the stores' notifications cover, which the charges and refunds rest on.
    public var json: String {
        func quoted(_ text: String?) -> String { text.map(JSONText.quoted) ?? "null" }
        func time(_ seconds: Int64?) -> String { quoted(seconds.map { RFC3339.format(seconds: $0) }) }
        /// Each charge (or refund, with its cause) as an object.
        func charges(_ list: [(charge: ChargeLedger.Charge, cause: RefundCause?)]) -> String {
            "["
                + list.map { charge, cause in
                    let notification = charge.notification
                    return "{\"store\":\(quoted(notification.store.rawValue)),\"transactionID\":\(quoted(notification.transactionID)),"
                        + "\"productID\":\(quoted(charge.productID)),\"type\":\(quoted(notification.type)),"
                        + "\"at\":\(quoted(RFC3339.format(millis: charge.eventMillis))),"
                        + "\"price\":\(notification.price.map(JSONText.number) ?? "null"),\"currency\":\(quoted(notification.currency)),"
                        + "\"grantedAt\":\(quoted(charge.grantedMillis.map { RFC3339.format(millis: $0) }))"
                        + (charge.settlement.map {
                            ",\"settlement\":{\"kind\":\(quoted($0.kind.rawValue)),\"at\":\(quoted(RFC3339.format(millis: $0.millis)))}"
                        } ?? "")
                        + (cause.map { ",\"cause\":\(quoted($0.rawValue)),\"ours\":\($0.isOurs)" } ?? "") + "}"
                }.joined(separator: ",") + "]"
        }
        let costJSON = cost.json(isOver: isOver)
        let moments = timeline.map {
            "{\"at\":\(time($0.seconds)),\"what\":\(quoted($0.label)),\"text\":\(quoted($0.text.rendered(.terminal)))}"
        }
        let actions = impacts.map { impact in
            let counts = impact.counts
            let shares = impact.concentration.map {
                "{\"dimension\":\(quoted($0.slice.dimension.rawValue)),\"value\":\(quoted($0.slice.value)),"
                    + "\"failureShare\":\(JSONText.number($0.share)),\"trafficShare\":\(JSONText.number($0.trafficShare))}"
            }
            let errors = impact.topErrors.map {
                "{\"resultType\":\(quoted($0.result)),\"errorDescription\":\(quoted($0.description)),\"events\":\($0.events)}"
            }
            return "{\"actionType\":\(quoted(impact.actionType)),\"attempts\":\(counts.attempts),\"valid\":\(counts.valid),"
                + "\"success\":\(counts.success),\"alreadyGranted\":\(counts.alreadyGranted),\"failure\":\(counts.failure),"
                + "\"cancel\":\(counts.cancel),\"pending\":\(counts.pending),\"concentration\":[\(shares.joined(separator: ","))],"
                + "\"topErrors\":[\(errors.joined(separator: ","))]}"
        }
        let alertObjects = alerts.map { report in
            let finding = report.finding
            return "{\"kind\":\(quoted(finding.kind.rawValue)),\"severity\":\(quoted(report.severity.rawValue)),"
                + "\"labels\":{\(report.labelPairs.map { "\(JSONText.quoted($0.0)):\(JSONText.quoted($0.1))" }.joined(separator: ","))},"
                + "\"startsAt\":\(time(report.startsAt)),\"endsAt\":\(time(report.endsAt)),"
                + "\"summary\":\(quoted(finding.evidence.summary(of: finding).rendered(.terminal))),"
                + "\"lookNext\":\(quoted(report.lookNextCommand(now: readAtSeconds)))}"
        }
        return "{\"id\":\(quoted(incident.id)),\"app\":\(quoted(app)),\"severity\":\(quoted(incident.peakSeverity.rawValue)),"
            + "\"over\":\(isOver),\"firstBadMinute\":\(time(incident.firstBadSeconds)),\"startsAt\":\(time(incident.startsAt)),"
            + "\"endsAt\":\(time(incident.endsAt)),\"readAt\":\(time(readAtSeconds)),\"status\":\(quoted(record.status.rawValue)),"
            + "\"cost\":\(costJSON),\"owed\":\(record.owed.map(\.json) ?? "null"),\"acknowledgement\":"
            + (record.acknowledgement?.json ?? "null") + ","
            + "\"timeline\":[\(moments.joined(separator: ","))],\"actions\":[\(actions.joined(separator: ","))],"
            + "\"chargesNotGrantedInTime\":\(charges(lateCharges.map { ($0, nil) })),\"refunds\":\(charges(refunds.map { ($0.refund, $0.cause) })),"
            + "\"storeCoverage\":\(storeCoverage.json(period: "this incident's span")),"
            + "\"alerts\":[\(alertObjects.joined(separator: ","))]}\n"
    }
}
