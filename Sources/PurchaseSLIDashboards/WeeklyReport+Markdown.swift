import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension WeeklyReport {
    /// The report as Markdown for a wiki or a review document; event data cannot inject markup.
    public var markdown: String {
        let escape = TextEscaping.markdown.escape
        var lines = [
            "# Weekly quality review \(week)" + (app.map { " · " + escape($0) } ?? "") + " (\(dateRange))", "",
            "At the week's end: " + TextEscaping.markdown.escape(FreshnessText.line(freshness, zone: zone)) + ".", "",
            summary(escaping: .markdown), "",
        ]
        if let capped = overflow.markdown(app: app) { lines += [capped, ""] }
        lines += [
            "## SLO attainment", "",
            "| action | success rate | objective | met | budget spent | valid | vs \(week.previous) |", "|---|---:|---:|---|---:|---:|---|",
        ]
        for action in actions where action.objective != nil {
            let met = action.metObjective.map { $0 ? "yes" : "**no**" } ?? "no data"
            lines.append(
                "| \(escape(action.actionType)) | \(NumberText.percent(action.judged.successRate))"
                    + "\(action.objective?.weight == .revenue ? " of revenue" : "") | "
                    + "\(NumberText.percent(action.objective?.target)) | \(met) | \(NumberText.percent(action.budgetSpent)) | "
                    + "\(NumberText.count(action.current.valid)) | \(change(action.comparisons[0])) |")
        }
        lines += ["", "## Week over week", "", "| action | rate | \(week) | \(week.previous) | change |", "|---|---|---:|---:|---|"]
        for action in actions {
            for comparison in action.comparisons {
                lines.append(
                    "| \(escape(action.actionType)) | \(comparison.metric.title) | \(NumberText.percent(comparison.current)) | "
                        + "\(NumberText.percent(comparison.previous)) | \(change(comparison)) |")
            }
        }
        lines += [
            "", "## Products and plans (largest drops first)", "", "| action | slice | valid | success rate | \(week.previous) | change |",
            "|---|---|---:|---:|---:|---|",
        ]
        for slice in slices.prefix(20) {
            lines.append(
                "| \(escape(slice.slice.actionType)) | \(slice.slice.slice!.dimension.rawValue)=\(escape(slice.slice.slice!.value ?? "")) | "
                    + "\(NumberText.count(slice.current.valid)) | \(NumberText.percent(slice.successRate.current)) | "
                    + "\(NumberText.percent(slice.successRate.previous)) | \(change(slice.successRate)) |")
        }
        lines += [
            "", "## Top failure reasons", "",
            "Those that rose beyond chance first (per valid event, one-sided exact test, Holm-corrected), then the most frequent.", "",
            "| errorDescription | \(week) | \(week.previous) | change | rise |", "|---|---:|---:|---:|---|",
        ]
        for error in errors {
            let words = errorChange(error)
            lines.append(
                "| \(escape(String(error.description.prefix(160)))) | \(NumberText.count(error.current)) | \(NumberText.count(error.previous)) | "
                    + "\(words.change) | \(words.note) |")
        }
        lines += ["", "## What failures cost", "", costSentence(escaping: .markdown)]
        if !purchasesLost.isEmpty {
            lines += [
                "", "| slice | valid | success rate | purchases lost beyond the objective | worth |", "|---|---:|---:|---:|---|",
            ]
            for loss in purchasesLost.prefix(12) {
                lines.append(
                    "| \(loss.slice.dimension.rawValue)=\(escape(loss.slice.value ?? "")) | \(NumberText.count(loss.counts.valid)) | "
                        + "\(NumberText.percent(loss.counts.successRate)) | \(lostText(loss.lost)) | \(Self.money(loss.lost.worth)) |")
            }
        }
        if moneyAtRisk.isEmpty, !storeCoverageLines.isEmpty {
            lines += ["", "## Money at risk", ""] + storeCoverageMarkdown.dropLast()
        }
        if !moneyAtRisk.isEmpty {
            lines +=
                ["", "## Money at risk", ""] + storeCoverageMarkdown + [
                    "Charges owed at the week's end (of the types the policy expects a grant for: neither granted nor refunded, made whole or "
                        + "written off), refunds, and grants no charge paid "
                        + "for (granted again, or without a charge).", "",
                    "| store | product | not granted | amount | refunds | refunded | granted again | without a charge | given away | "
                        + "\(week.previous): not granted | refunds | grants not paid for |",
                    "|---|---|---:|---|---:|---|---:|---:|---|---:|---:|---:|",
                ]
            for row in moneyAtRisk {
                lines.append(
                    "| \(row.store.displayName) | \(escape(row.productID)) | \(storeFigure("\(row.current.ungranted)")) | "
                        + "\(Self.money(row.current.ungrantedAmounts)) | \(storeFigure("\(row.current.refunds)")) | "
                        + "\(Self.money(row.current.refundedAmounts)) | \(row.unpaid.grantedAgain) | \(storeFigure("\(row.unpaid.withoutCharge)")) | "
                        + "\(Self.money(row.unpaid.worth)) | \(storeFigure("\(row.previous.ungranted)", previous: true)) | "
                        + "\(storeFigure("\(row.previous.refunds)", previous: true)) | \(row.previousUnpaid.total) |")
            }
        }
        lines += refundsMarkdown
        lines += grantTimesMarkdown
        if !attainmentHistory.isEmpty {
            lines += ["", "## Attainment by week and month"]
            for entry in attainmentHistory { lines += [""] + AttainmentTable.markdown(entry.periods, action: entry.actionType) }
        }
        lines += maintenanceMarkdown
        lines += ["", "## Incidents", ""]
        if incidents.isEmpty { lines.append(holdsNoEvent ? "No alert could fire: the week holds no event." : "No alert fired this week.") }
        for incident in incidents {
            let alerts = alerts(of: incident).map { "\($0.kind) \(escape($0.labels))" + ($0.episodes > 1 ? " (\($0.episodes) episodes)" : "") }
            let id = incident.id.map { id in incident.reportURL.map { "[\(id)](\($0))" } ?? id }
            let cost =
                incidentCostText(ofIncident: incident.id).map { "; " + $0.rendered(.markdown, zone: zone) } ?? ""
            lines.append(
                "- **\(incident.severity.rawValue.uppercased())** \(id.map { "incident \($0): " } ?? "")"
                    + "\(alerts.joined(separator: "; ")): bad from \(zone.timestamp(incident.firstBadSeconds)), alerted "
                    + "\(zone.timestamp(incident.startsAt)) to "
                    + "\(incident.endsAt.map { zone.timestamp($0) } ?? "still firing") (\(NumberText.duration(incident.duration)))"
                    + cost)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "149.70 USD + 12.00 EUR", or "–" for none.
    static func money(_ amounts: [String: Double]) -> String {
        amounts.isEmpty ? "–" : amounts.sorted { $0.key < $1.key }.map { NumberText.money($0.value, currency: $0.key) }.joined(separator: " + ")
    }

    /// "▼ −0.31 points (p = 0.002)" or "▲ +0.10 points (n.s.)".
    private func change(_ comparison: PeriodComparison) -> String {
        guard let words = changeWords(comparison) else { return "n/a" }
        let text = "\(words.change) (\(words.note))"
        return words.isSignificant && comparison.isWorse ? "**\(text)**" : text
    }
}
