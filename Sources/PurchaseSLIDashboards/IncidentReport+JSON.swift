import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension IncidentReport {
    /// The report as one JSON object (times RFC 3339 UTC, amounts per currency, never summed across
    /// currencies): `{"id", "app", "severity", "over", "firstBadMinute", "startsAt", "endsAt", "readAt",
    /// "status", "cost", "owed", "acknowledgement", "timeline", "actions", "chargesNotGrantedInTime", "refunds", "storeCoverage", "alerts"}`; `storeCoverage` (``PurchaseSLIAnalysis/StoreCoverage``)
    /// says what of its span the stores' notifications cover, which the charges and refunds rest on.
    public var json: String {
        func quoted(_ text: String?) -> String { text.map(JSONText.quoted) ?? "null" }
        func time(_ seconds: Int64?) -> String { quoted(seconds.map { RFC3339.format(seconds: $0) }) }
        func money(_ worth: [String: Double]) -> String {
            "{"
                + worth.sorted { $0.key < $1.key }.map { "\(JSONText.quoted($0.key)):\(JSONText.number(($0.value * 100).rounded() / 100))" }
                .joined(separator: ",") + "}"
        }
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
        let lost = cost.lost.sorted { ActionType.isListedBefore($0.key, $1.key) }.map { action, estimate in
            let basis: String =
                switch estimate.basis {
                case .previousDays(let days): "{\"previousDays\":\(days)}"
                case .objective(let target): "{\"objective\":\(JSONText.number(target))}"
                }
            return "\(JSONText.quoted(action)):{\"purchases\":\(JSONText.number((estimate.purchases * 10).rounded() / 10)),"
                + "\"low\":\(JSONText.number(estimate.interval.lowerBound.rounded())),\"high\":\(JSONText.number(estimate.interval.upperBound.rounded())),"
                + "\"basis\":\(basis),\"worth\":\(money(estimate.worth))}"
        }
        func tally(_ tally: ChargeTally?) -> String { tally.map { "{\"count\":\($0.count),\"worth\":\(money($0.worth))}" } ?? "null" }
        let costJSON =
            "{\"lost\":{\(lost.joined(separator: ","))},\"ungranted\":\(tally(cost.ungranted)),\"refunded\":\(tally(cost.refunded)),"
            + "\"worth\":\(money(cost.worth)),\"text\":\(quoted(cost.text(isOver: isOver).rendered(.terminal)))}"
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
            + "\"cost\":\(costJSON),\"owed\":\(tally(record.owed)),\"acknowledgement\":"
            + (record.acknowledgement.map {
                "{\"owner\":\(quoted($0.owner)),\"note\":\(quoted($0.note)),\"at\":\(time($0.atSeconds))}"
            } ?? "null") + ","
            + "\"timeline\":[\(moments.joined(separator: ","))],\"actions\":[\(actions.joined(separator: ","))],"
            + "\"chargesNotGrantedInTime\":\(charges(lateCharges.map { ($0, nil) })),\"refunds\":\(charges(refunds.map { ($0.refund, $0.cause) })),"
            + "\"storeCoverage\":\(storeCoverage.json(period: "this incident's span")),"
            + "\"alerts\":[\(alertObjects.joined(separator: ","))]}\n"
    }
}
