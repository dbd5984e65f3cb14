import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
public import PurchaseSLIRendering

extension WeeklyReport {
    /// The report as a self-contained page.
    public func document(navigation: [(title: String, href: String)], generatedAtSeconds: Int64) -> HTMLDocument {
        var body: HTML =
            freshness.isStale()
            ? "<div class=\"banner warn\"><strong>\(FreshnessText.status(freshness))</strong> at the week's end: "
                + "\(FreshnessText.sentence(freshness, zone: zone)); the week's last stretch has no data.</div>" : ""
        // The box is only green for a week without alerts: amber with tickets, red with a page.
        let severities = Set(episodes.map(\.severity))
        let tone = severities.contains(.page) ? " bad" : severities.isEmpty ? "" : " warn"
        body += "<div class=\"banner\(tone)\"><strong>Summary</strong><p>\(HTML(trusted: summary(escaping: .html)))</p></div>"
        body += overflow.banner(app: app)
        body += attainmentSection + attainmentHistorySection + maintenanceSection + costSection + moneySection + refundsSection + grantTimesSection
        body += changesSection + slicesSection + errorsSection + trendSection + incidentsSection
        return HTMLDocument(
            title: "Weekly quality review \(week)" + (app.map { " · \($0)" } ?? ""),
            subtitle: "\(dateRange) (\(zone.timestamp(week.startSeconds)) to \(zone.timestamp(week.endSeconds))), "
                + "against \(week.previous.description) · at the week's end, \(FreshnessText.line(freshness, zone: zone))",
            navigation: navigation, body: body, generatedAtSeconds: generatedAtSeconds, zone: zone)
    }

    /// The file name of the page: `report-2026-W46.html`.
    public var fileName: String { "report-\(week).html" }

    private var attainmentSection: HTML {
        let rows = actions.filter { $0.objective != nil }.map { action -> HTML in
            let spent = action.budgetSpent
            let met: HTML =
                switch action.metObjective {
                case true?: "<span class=\"status ok\">met</span>"
                case false?: "<span class=\"status bad\">missed</span>"
                case nil: "<span class=\"status none\">no data</span>"
                }
            let byRevenue = action.objective?.weight == .revenue
            return "<tr><td>\(action.actionType)</td><td>\(NumberText.percent(action.judged.successRate))\(byRevenue ? " of revenue" : "")</td>"
                + "<td>\(NumberText.percent(action.objective?.target))</td><td>\(met)</td>"
                + "<td>\(NumberText.percent(spent)) \(IntervalBar(value: min(spent ?? 0, 1), scale: 1, isBad: (spent ?? 0) > 1, caption: "budget spent").html)</td>"
                + "<td>\(NumberText.count(action.current.valid))</td><td>\(arrow(action.comparisons[0]))</td></tr>"
        }
        return """
            <section><h2>SLO attainment</h2><div class="scroll"><table><tr><th>action</th><th>success rate</th>\
            <th>objective</th><th></th><th>error budget spent</th><th>valid</th><th>vs \(week.previous.description)</th></tr>\
            \(HTML.joined(rows))</table></div><p class="meta">Budget spent: failures ÷ (error budget × valid events) \
            over the week; above 100 % the week alone overspent the budget.</p></section>
            """
    }

    /// Each objective over the last 4 ISO weeks and 3 calendar months, as a service-level report.
    private var attainmentHistorySection: HTML {
        guard !attainmentHistory.isEmpty else { return "" }
        let tables = attainmentHistory.map { entry -> HTML in
            "<div class=\"card\"><h3>\(entry.actionType)</h3><div class=\"scroll\">\(AttainmentTable.html(entry.periods))</div></div>"
        }
        return "<section><h2>Attainment by week and month</h2><div class=\"grid\">\(HTML.joined(tables))</div></section>"
    }

    /// What failures cost: the incidents together, and the slices whose purchases failed beyond the objective.
    private var costSection: HTML {
        let rows = purchasesLost.prefix(12).map { loss -> HTML in
            "<tr><td class=\"text\">\(loss.slice.dimension.rawValue)=\(loss.slice.value ?? "")</td><td>\(NumberText.count(loss.counts.valid))</td>"
                + "<td>\(NumberText.percent(loss.counts.successRate))</td><td>\(lostText(loss.lost))</td><td>\(Self.money(loss.lost.worth))</td></tr>"
        }
        let table: HTML =
            rows.isEmpty
            ? ""
            : "<div class=\"scroll\"><table><tr><th class=\"text\">slice</th><th>valid</th><th>success rate</th>"
                + "<th>purchases lost beyond the objective</th><th>worth</th></tr>\(HTML.joined(Array(rows)))</table></div>"
                + "<p class=\"meta\">Per product, plan, offer and app version: valid purchase events × the objective − successes, "
                + "with a 95 % interval, priced at each product's latest price; only slices whose interval is above zero.</p>"
        return "<section><h2>What failures cost</h2><p>\(HTML(trusted: costSentence(escaping: .html)))</p>\(table)</section>"
    }

    /// Money at risk: per store and product, the charges not granted and the refunds, against the week before,
    /// after what the stores' notifications cover of both weeks when not all (only that without a figure).
    private var moneySection: HTML {
        guard !moneyAtRisk.isEmpty else {
            return storeCoverageLines.isEmpty ? "" : "<section><h2>Money at risk</h2>\(storeCoverageHTML)</section>"
        }
        let rows = moneyAtRisk.map { row -> HTML in
            // A week without store notifications has no count to compare: "no data", not 0 or "new".
            func change(_ now: Int64, _ before: Int64) -> String {
                storeFigure(
                    storeFigure(before == 0 ? (now == 0 ? "–" : "new") : NumberText.signedPercent(Double(now) / Double(before) - 1)), previous: true)
            }
            func count(_ value: Int64, fromStore: Bool = true) -> HTML {
                guard !fromStore || !storeCoverage.current.isEmpty else { return "<td>no data</td>" }
                return value > 0 ? "<td class=\"bad\">\(NumberText.count(value))</td>" : "<td>0</td>"
            }
            let notGranted = count(row.current.ungranted)
            return """
                <tr><td class="text">\(row.store.displayName)</td><td class="text">\(row.productID)</td>\(notGranted)\
                <td>\(Self.money(row.current.ungrantedAmounts))</td><td>\(change(row.current.ungranted, row.previous.ungranted))</td>\
                <td>\(storeFigure(NumberText.count(row.current.refunds)))</td><td>\(Self.money(row.current.refundedAmounts))</td>\
                <td>\(change(row.current.refunds, row.previous.refunds))</td>\(count(row.unpaid.grantedAgain, fromStore: false))\(count(row.unpaid.withoutCharge))\
                <td>\(Self.money(row.unpaid.worth))</td><td>\(change(row.unpaid.total, row.previousUnpaid.total))</td></tr>
                """
        }
        return """
            <section><h2>Money at risk</h2>\(storeCoverageHTML)<div class="scroll"><table><tr><th class="text">store</th><th class="text">product</th>\
            <th>not granted</th><th>amount</th><th>vs \(week.previous.description)</th><th>refunds</th><th>refunded</th>\
            <th>vs \(week.previous.description)</th><th>granted again</th><th>without a charge</th><th>given away</th>\
            <th>vs \(week.previous.description)</th></tr>\(HTML.joined(rows))</table></div>
            <p class="meta">Charges the store made this week that no success or alreadyGranted event named by the week's end \
            (of the types the policy expects a grant for, past the grace time), refunds and revocations, and the week's grants no \
            charge paid for: a transaction granted again, or a grant no store charge names by the week's end.</p></section>
            """
    }

    private var changesSection: HTML {
        let rows = actions.flatMap { action in
            action.comparisons.map { comparison -> HTML in
                "<tr><td>\(action.actionType)</td><td class=\"text\">\(comparison.metric.title)</td>"
                    + "<td>\(NumberText.percent(comparison.current)) <span class=\"meta\">of \(NumberText.count(comparison.currentTrials))</span></td>"
                    + "<td>\(NumberText.percent(comparison.previous)) <span class=\"meta\">of \(NumberText.count(comparison.previousTrials))</span></td>"
                    + "<td>\(arrow(comparison))</td></tr>"
            }
        }
        return """
            <section><h2>Week over week</h2><div class="scroll"><table><tr><th>action</th><th class="text">rate</th>\
            <th>\(week.description)</th><th>\(week.previous.description)</th><th>change</th></tr>\(HTML.joined(rows))</table></div>
            <p class="meta">▲▼ in red: worse, in green: better; significant: two-sided Fisher exact test, p &lt; \
            \(String(Self.significance)) after Holm's correction over the report's comparisons; n.s.: not significant.</p></section>
            """
    }

    private var slicesSection: HTML {
        let rows = slices.prefix(20).map { slice -> HTML in
            let comparison = slice.successRate
            return
                "<tr><td>\(slice.slice.actionType)</td><td class=\"text\">\(slice.slice.slice!.dimension.rawValue)=\(slice.slice.slice!.value ?? "")</td>"
                + "<td>\(NumberText.count(slice.current.valid))</td><td>\(NumberText.percent(comparison.current))</td>"
                + "<td>\(NumberText.percent(comparison.previous))</td><td>\(arrow(comparison))</td></tr>"
        }
        return """
            <section><h2>Products and plans</h2><div class="scroll"><table><tr><th>action</th><th class="text">slice</th>\
            <th>valid</th><th>success rate</th><th>\(week.previous.description)</th><th>change</th></tr>\(HTML.joined(rows))</table></div>\
            \(slices.count > 20 ? "<p class=\"meta\">\(slices.count - 20) more, with smaller drops.</p>" as HTML : "")</section>
            """
    }

    private var errorsSection: HTML {
        guard !errors.isEmpty else {
            return "<section><h2>Top failure reasons</h2><p class=\"muted\">No failure carried a description.</p></section>"
        }
        let rows = errors.map { error -> HTML in
            let words = errorChange(error)
            return "<tr><td class=\"text\">\(error.description)</td><td>\(NumberText.count(error.current))</td>"
                + "<td>\(NumberText.count(error.previous))</td><td class=\"\(error.roseSignificantly ? "bad" : "")\">\(words.change)</td>"
                + "<td>\(words.note)</td></tr>"
        }
        return """
            <section><h2>Top failure reasons</h2><div class="scroll"><table><tr><th class="text">errorDescription</th>\
            <th>\(week.description)</th><th>\(week.previous.description)</th><th>change</th><th>rise</th></tr>\(HTML.joined(rows))</table></div>\
            <p class="meta">Those that rose beyond chance first (per valid event, one-sided exact test, Holm-corrected, \
            p &lt; \(String(WeeklyReport.significance))), then the most frequent.</p></section>
            """
    }

    /// One chart per action, each on its own scale: a retry's 409s (its grant already happened)
    /// run far higher than a purchase's and would flatten them.
    private var trendSection: HTML {
        let charts = conflictTrend.map { trend -> HTML in
            let chart = TimeSeriesChart(
                startSeconds: week.previous.startSeconds, stepSeconds: trendStepSeconds,
                series: [TimeSeriesChart.Series(label: trend.actionType, values: trend.values)],
                yLabel: "409 rate (%)", format: { NumberText.percent($0) }, yLimits: 0...1, zone: zone)
            return "<div class=\"card\"><h3>\(trend.actionType)</h3>\(chart.html)</div>"
        }
        return "<section><h2>409s per valid event, per \(NumberText.duration(trendStepSeconds)), \(week.previous.description) "
            + "and \(week.description)</h2>\(HTML.joined(charts))</section>"
    }

    private var incidentsSection: HTML {
        let incidents = self.incidents
        guard !incidents.isEmpty else {
            return
                "<section><h2>Incidents</h2><p class=\"muted\">\(holdsNoEvent ? "No alert could fire: the week holds no event." : "No alert fired this week.")</p></section>"
        }
        let rows = incidents.map { incident -> HTML in
            let severity = incident.severity
            let alerts = alerts(of: incident).map { alert -> HTML in
                "<strong>\(alert.kind)</strong> \(alert.labels)" + (alert.episodes > 1 ? " (\(alert.episodes) episodes)" : "")
            }
            return "<tr><td><span class=\"status \(severity == .page ? "bad" : "warn")\">\(severity.rawValue.uppercased())</span></td>"
                + "<td class=\"text\">\(incidentLink(incident))</td><td class=\"text\">\(HTML.joined(alerts, separator: "; "))</td>"
                + "<td>\(zone.timestamp(incident.firstBadSeconds))</td><td>\(zone.timestamp(incident.startsAt))</td>"
                + "<td>\(incident.endsAt.map { zone.timestamp($0) } ?? "still firing")</td>"
                + "<td>\(NumberText.duration(incident.duration))</td>"
                + "<td class=\"text\">\(HTML(trusted: incidentCostText(ofIncident: incident.id).map { $0.rendered(.html, zone: zone) } ?? "–"))</td></tr>"
        }
        return """
            <section><h2>Incidents</h2><div class="scroll"><table><tr><th>severity</th><th class="text">incident</th>\
            <th class="text">alerts</th><th>first bad minute</th><th>alerted</th><th>end</th><th>duration</th><th class="text">cost</th></tr>\
            \(HTML.joined(rows))</table></div><p class="meta">Cost: purchases lost against the same hours of the previous 7 \
            days (estimated), and charges not granted and refunds in full; each incident's id links to its report.</p></section>
            """
    }

    /// The incident's id, linked to its report when it has one.
    private func incidentLink(_ incident: WeekIncident) -> HTML {
        guard let id = incident.id else { return "" }
        return incident.reportURL.map { "<a href=\"\($0)\">\(id)</a>" } ?? "\(id)"
    }

    /// ▲ or ▼ coloured by whether the change is better or worse, the change in points, and significance.
    private func arrow(_ comparison: PeriodComparison) -> HTML {
        guard let words = changeWords(comparison) else { return "<span class=\"muted\">n/a</span>" }
        let tone = !words.isSignificant ? "muted" : comparison.isWorse ? "bad" : "ok"
        return "<span class=\"\(tone)\">\(words.change)</span> <span class=\"meta\">\(words.note)</span>"
    }
}
