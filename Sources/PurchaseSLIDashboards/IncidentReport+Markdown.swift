import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension IncidentReport {
    /// The title: "Incident 20261112-0703-3fa2c1 · com.example.app · TICKET · ongoing, paged" (the app
    /// when one).
    public var title: String { "Incident \(incident.id)" + (app.map { " · \($0)" } ?? "") + " · " + status }

    /// "PAGE · resolved" once its alerts stopped (its highest severity, and its record's status: resolved
    /// while charges are still owed or it may go on, then settled); while it goes on, its severity now,
    /// "· ongoing", and ", paged" when it paged before.
    public var status: String {
        guard !isOver else { return incident.peakSeverity.rawValue.uppercased() + " · " + record.status.rawValue }
        let paged = incident.peakSeverity == .page && incident.severity != .page
        return "\(incident.severity.rawValue.uppercased()) · ongoing" + (paged ? ", paged" : "")
    }

    /// "2026-11-12T07:03:00Z to 2026-11-12T09:41:00Z (2 h 38 min)", or "… to now (…)" while it goes on.
    public var spanText: String {
        "\(zone.timestamp(incident.firstBadSeconds)) to "
            + (incident.endsAt.map { zone.timestamp($0) } ?? "now, \(zone.timestamp(readAtSeconds))")
            + " (\(NumberText.duration(untilSeconds - incident.firstBadSeconds)))"
    }

    /// The report as Markdown, a postmortem draft for a wiki; event data cannot inject markup.
    public var markdown: String {
        let escape = TextEscaping.markdown.escape
        var lines = [
            "# Incident \(incident.id)" + (app.map { " · " + escape($0) } ?? "") + " · " + status,
            "", "- **span**: \(spanText), from the first bad minute",
            "- **\(isOver ? "cost" : "cost so far")**: " + (cost.summary() + cost.basisText).rendered(.markdown, zone: zone),
        ]
        if let owed = record.owedText { lines.append("- **owed**: " + owed.rendered(.markdown, zone: zone)) }
        if let acknowledged = record.acknowledgementText { lines.append("- **owner**: " + acknowledged.rendered(.markdown, zone: zone)) }
        lines += [
            "- **alerts**: \(alerts.count), read at \(zone.timestamp(readAtSeconds))",
            "", "## Timeline", "", "| time (\(zone.shortName)) | what | |", "|---|---|---|",
        ]
        for moment in timeline {
            lines.append("| \(zone.timestamp(moment.seconds)) | \(moment.label) | \(moment.text.rendered(.markdown, zone: zone)) |")
        }
        lines += ["", "## What it did", ""]
        if impacts.isEmpty { lines.append("Its alerts were not about the rate of events (charges or refunds only).") }
        for impact in impacts {
            lines.append("### " + escape(impact.heading))
            lines.append("")
            lines.append(impactLine(impact))
            if !impact.concentration.isEmpty {
                lines += ["", "| slice | share of failures | share of traffic |", "|---|---:|---:|"]
                for share in impact.concentration {
                    lines.append(
                        "| \(share.slice.dimension.rawValue)=\(escape(share.slice.value ?? "(none)")) | \(NumberText.percent(share.share)) | "
                            + "\(NumberText.percent(share.trafficShare)) |")
                }
            } else {
                lines += ["", "No slice carried its failures beyond its share of traffic."]
            }
            if !impact.topErrors.isEmpty {
                lines += ["", "| result | error | events |", "|---|---|---:|"]
                for error in impact.topErrors {
                    lines.append("| \(escape(error.result)) | \(escape(String(error.description.prefix(120)))) | \(NumberText.count(error.events)) |")
                }
            }
            lines.append("")
        }
        lines += chargesMarkdown
        lines += ["", "## Alerts", "", AlertOutput.markdown(alerts, now: readAtSeconds)]
        return lines.joined(separator: "\n") + "\n"
    }

    /// "162 attempts: 58 succeeded, 96 failed, 8 cancelled, 0 pending; success rate 37.7 % of 154 valid events":
    /// the outcomes of its attempts (of its events where they count no attempts), then the success rate as
    /// every surface defines it, (success + alreadyGranted) / valid.
    func impactLine(_ impact: ActionImpact) -> String {
        let counts = impact.counts
        return "\(NumberText.count(counts.attempts > 0 ? counts.attempts : counts.valid + counts.cancel + counts.pending)) "
            + "\(counts.attempts > 0 ? "attempts" : "events"): \(NumberText.count(counts.good)) succeeded, "
            + "\(NumberText.count(counts.failure)) failed, \(NumberText.count(counts.cancel)) cancelled, \(NumberText.count(counts.pending)) pending; "
            + "success rate \(NumberText.percent(counts.successRate)) of \(NumberText.count(counts.valid)) valid events"
    }

    /// "App Store notifications cover only … of this incident's span." or "No store notifications for this
    /// incident's span.": what its store sections rest on, nil when the notifications cover all of it.
    var storeCoverageLine: String? { StoreCoverageText.line(storeCoverage, period: "this incident's span", zone: zone) }

    /// ``storeCoverageLine`` when the notifications cover part of the span: the line its store sections
    /// start with (with none, their "unknown" says it).
    var partialCoverageLine: String? { storeCoverage.isEmpty ? nil : storeCoverageLine }

    /// What the section of charges not granted says when it lists none: that none were, or that it cannot
    /// be told without notifications.
    var noLateChargesText: String {
        storeCoverage.isEmpty ? "Unknown: no store notifications for this incident's span." : "None of the products its alerts named."
    }

    /// What the section of refunds says when it lists none.
    var noRefundsText: String { storeCoverage.isEmpty ? "Unknown: no store notifications for this incident's span." : "None so far." }

    /// The charges left ungranted and the refunds, as Markdown sections, each after the line on what store
    /// data it rests on when the notifications do not cover the whole span.
    private var chargesMarkdown: [String] {
        let coverage = partialCoverageLine.map { [$0, ""] } ?? []
        var lines = ["## Charges not granted in time", ""] + coverage
        if lateCharges.isEmpty {
            lines.append(noLateChargesText)
        } else {
            lines += ["| transaction | product | charged | amount | granted |", "|---|---|---|---:|---|"]
            for charge in lateCharges { lines.append(row(charge, grant: true)) }
        }
        lines += ["", "## Refunds of charges taken during it (within 14 days)", ""] + coverage
        if refunds.isEmpty {
            lines.append(noRefundsText)
        } else {
            lines += [refundSentence, "", "| transaction | product | refunded | amount | type | cause |", "|---|---|---|---:|---|---|"]
            for refund in refunds { lines.append(row(refund.refund, grant: false) + " \(refund.cause.rawValue) |") }
        }
        return lines
    }

    private func row(_ charge: ChargeLedger.Charge, grant: Bool) -> String {
        let escape = TextEscaping.markdown.escape
        let notification = charge.notification
        let last = grant ? grantText(charge) : escape(notification.type)
        return "| \(escape(notification.transactionID ?? "(none)")) | \(escape(charge.productID)) | "
            + "\(zone.timestamp((charge.eventMillis) / .millisPerSecond)) | \(amountText(charge)) | \(last) |"
    }

    /// "3 refunds we caused (14.97 USD): 2 never granted, 1 granted late; 1 other refund (0.99 USD)."
    var refundSentence: String {
        let tally = RefundTally(refunds)
        let ours = tally.ours
        let causes = RefundCause.allCases.filter(\.isOurs).compactMap { cause in tally.byCause[cause].map { "\($0.count) \(cause.rawValue)" } }
        let others = tally.others
        func money(_ amounts: [String: Double]) -> String {
            amounts.isEmpty
                ? "" : " (" + amounts.sorted { $0.key < $1.key }.map { NumberText.money($0.value, currency: $0.key) }.joined(separator: " + ") + ")"
        }
        return "\(ours.count) refund\(ours.count == 1 ? "" : "s") we caused\(money(ours.amounts))"
            + (causes.isEmpty ? "" : ": " + causes.joined(separator: ", ")) + "; \(others.count) other\(money(others.amounts))."
    }

    /// "4.99 USD", or "–" for a charge the store gave no price for.
    func amountText(_ charge: ChargeLedger.Charge) -> String {
        charge.notification.price.map { NumberText.money($0, currency: charge.notification.currency ?? "") } ?? "–"
    }

    /// "2026-11-19T17:02:11Z (1 h 1 min later)", "refunded 2026-11-19T19:22:10Z, never granted", or "not granted".
    func grantText(_ charge: ChargeLedger.Charge) -> String {
        guard let granted = charge.grantedMillis else {
            return charge.settlement.map { "\($0.kind.rawValue) \(zone.timestamp($0.millis / .millisPerSecond)), never granted" } ?? "not granted"
        }
        return "\(zone.timestamp((granted) / .millisPerSecond)) (\(NumberText.duration((granted - charge.eventMillis) / .millisPerSecond)) later)"
    }
}
