import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
public import PurchaseSLIRendering

extension IncidentReport {
    /// The report as a self-contained page.
    public func document(navigation: [(title: String, href: String)], generatedAtSeconds: Int64) -> HTMLDocument {
        let tone = incident.severity == .page ? "bad" : "warn"
        var body: HTML =
            "<div class=\"banner \(tone)\"><strong>\(status)</strong>"
            + "<p>\(spanText), from the first bad minute.</p><p>\(HTML(trusted: cost.text(isOver: isOver).rendered(.html, zone: zone)))</p>"
            + (record.owedText.map { "<p>\(HTML(trusted: $0.rendered(.html, zone: zone)))</p>" } ?? "")
            + (record.acknowledgementText.map { "<p>\(HTML(trusted: $0.rendered(.html, zone: zone)))</p>" } ?? "") + "</div>"
        let moments = timeline.map { moment -> HTML in
            "<tr><td>\(zone.timestamp(moment.seconds))</td><td class=\"text\">\(moment.label)</td>"
                + "<td class=\"text\">\(HTML(trusted: moment.text.rendered(.html, zone: zone)))</td></tr>"
        }
        body +=
            "<section><h2>Timeline</h2><div class=\"scroll\"><table><tr><th>time (\(zone.shortName))</th><th class=\"text\">what</th><th class=\"text\"></th></tr>"
            + HTML.joined(moments) + "</table></div></section>"
        body += impactsSection + chargesSection
        body += "<section><h2>Alerts</h2>\(AlertOutput.html(alerts, now: readAtSeconds, zone: zone))</section>"
        return HTMLDocument(
            title: title, subtitle: "postmortem draft · read at \(zone.timestamp(readAtSeconds))", navigation: navigation, body: body,
            generatedAtSeconds: generatedAtSeconds, zone: zone)
    }

    private var impactsSection: HTML {
        guard !impacts.isEmpty else {
            return
                "<section><h2>What it did</h2><p class=\"muted\">Its alerts were not about the rate of events (charges or refunds only).</p></section>"
        }
        let parts = impacts.map { impact -> HTML in
            var part: HTML = "<h3>\(impact.heading)</h3><p>\(impactLine(impact))</p>" + chart(of: impact)
            if impact.concentration.isEmpty {
                part += "<p class=\"muted\">No slice carried its failures beyond its share of traffic.</p>"
            } else {
                let rows = impact.concentration.map { share -> HTML in
                    "<tr><td class=\"text\">\(share.slice.dimension.rawValue)=\(share.slice.value ?? "(none)")</td>"
                        + "<td>\(NumberText.percent(share.share))</td><td>\(NumberText.percent(share.trafficShare))</td></tr>"
                }
                part +=
                    "<div class=\"scroll\"><table><tr><th class=\"text\">slice</th><th>share of failures</th><th>share of traffic</th></tr>"
                    + HTML.joined(rows) + "</table></div>"
            }
            if !impact.topErrors.isEmpty {
                let rows = impact.topErrors.map { error -> HTML in
                    "<tr><td class=\"text\">\(error.result)</td><td class=\"text\">\(String(error.description.prefix(120)))</td>"
                        + "<td>\(NumberText.count(error.events))</td></tr>"
                }
                part +=
                    "<div class=\"scroll\"><table><tr><th class=\"text\">result</th><th class=\"text\">error</th><th>events</th></tr>"
                    + HTML.joined(rows) + "</table></div>"
            }
            return part
        }
        return "<section><h2>What it did</h2>\(HTML.joined(parts))</section>"
    }

    /// The action's successes per attempt around the incident, its alerts shaded, its objective drawn.
    private func chart(of impact: ActionImpact) -> HTML {
        guard impact.trend.contains(where: { $0 != nil }) else { return "" }
        // One band per stretch of one severity: a page that fell back to a ticket shows red, then amber.
        let bands = alerts.filter { $0.finding.labels.actionType == impact.actionType || $0.finding.evidence.costMeasure != .lostSuccesses }
            .flatMap { alert in
                let changes =
                    alert.severityChanges.isEmpty ? [SeverityChange(atSeconds: alert.startsAt, severity: alert.severity)] : alert.severityChanges
                return changes.enumerated().map { index, change in
                    let end = index + 1 < changes.count ? changes[index + 1].atSeconds : alert.endsAt ?? readAtSeconds
                    let name = "\(change.severity.rawValue.uppercased()) \(alert.finding.kind.rawValue)"
                    return TimeSeriesChart.Band(
                        startSeconds: change.atSeconds, endSeconds: end, label: name, caption: index == 0 ? name : "",
                        isPage: change.severity == .page)
                }
            }
        let target = alerts.compactMap { $0.finding.evidence.objective }.first { $0.actionType == impact.actionType }?.target
        let chart = TimeSeriesChart(
            startSeconds: impact.trendStartSeconds, stepSeconds: impact.trendStepSeconds,
            series: [.init(label: "successes per attempt", values: impact.trend)], yLabel: "success (%)", format: { NumberText.percent($0) },
            threshold: target.map { ($0, "objective \(NumberText.percent($0))") }, bands: bands, yLimits: 0...1, zone: zone)
        return "<p class=\"meta\">Successes per attempt every \(NumberText.duration(impact.trendStepSeconds)), "
            + "its alerts shaded.</p>\(chart.html)"
    }

    private var chargesSection: HTML {
        func table(_ charges: [ChargeLedger.Charge], last: String, value: (ChargeLedger.Charge) -> HTML) -> HTML {
            // What a person acts on first (the id, whether granted, the amount), so that a phone shows it.
            let rows = charges.map { charge -> HTML in
                let notification = charge.notification
                return "<tr><td class=\"text\">\(notification.transactionID ?? "(none)")</td><td class=\"text\">\(value(charge))</td>"
                    + "<td>\(amountText(charge))</td>"
                    + "<td class=\"text\">\(charge.productID)</td><td>\(zone.timestamp((charge.eventMillis) / .millisPerSecond))</td></tr>"
            }
            return "<div class=\"scroll\"><table><tr><th class=\"text\">transaction</th><th class=\"text\">\(last)</th><th>amount</th>"
                + "<th class=\"text\">product</th><th>time</th></tr>\(HTML.joined(rows))</table></div>"
        }
        let late: HTML =
            lateCharges.isEmpty
            ? "<p class=\"muted\">\(noLateChargesText)</p>"
            : table(lateCharges, last: "granted") { charge in
                charge.grantedMillis == nil && charge.settlement == nil ? "<span class=\"status bad\">not granted</span>" : "\(grantText(charge))"
            }
        let causes = Dictionary(refunds.map { ($0.refund.notification.notificationID, $0.cause) }, uniquingKeysWith: { first, _ in first })
        let refunded: HTML =
            refunds.isEmpty
            ? "<p class=\"muted\">\(noRefundsText)</p>"
            : "<p>\(refundSentence)</p>"
                + table(refunds.map(\.refund), last: "cause") { refund in
                    let cause = causes[refund.notification.notificationID] ?? .chargeNotKnown
                    return cause.isOurs ? "<span class=\"status bad\">\(cause.rawValue)</span>" : "\(cause.rawValue)"
                }
        let coverage: HTML = partialCoverageLine.map { "<p class=\"coverage\">\($0)</p>" } ?? ""
        return "<section><h2>Charges not granted in time</h2>\(coverage)\(late)</section>"
            + "<section><h2>Refunds of charges taken during it (within 14 days)</h2>\(coverage)\(refunded)</section>"
    }
}
