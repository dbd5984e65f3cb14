import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// Per objective, a card: its error budget left day by day over the last 28 days, carried on at the
    /// last 7 days' burn rate to the day it runs out (within one window, or by the month's end), and its
    /// attainment over each of the last 4 ISO weeks and 3 calendar months against the objective.
    func budgetPanel(_ cards: [BudgetCardData]) -> HTML {
        let cards = cards.map { card -> HTML in
            let (objective, burnDown) = (card.objective, card.burnDown)
            let maintenance = maintenanceBands(
                for: objective.actionType, from: burnDown.points.first?.timeSeconds ?? atSeconds, to: atSeconds)
            return
                "<section class=\"card\"><h3>\(objective.actionType): error budget over \(StoreCoverageText.window(objective.window, basis: card.basis))</h3>"
                + "\(burnDownChart(burnDown, maintenance: maintenance))<p>\(burnDownSentence(burnDown, at: atSeconds))</p>"
                + "<div class=\"scroll\">\(AttainmentTable.html(card.attainment))</div></section>"
        }
        return "<section><h2>Error budget burn-down and attainment</h2>\(HTML.joined(cards))</section>"
    }

    /// The budget left per day, and the projection from the last point on; `maintenance` shaded.
    private func burnDownChart(_ burnDown: BudgetBurnDown, maintenance: [TimeSeriesChart.Band]) -> HTML {
        let past = burnDown.points.map(\.left)
        let projected = burnDown.projection.map(\.left)
        let start = burnDown.points.first?.timeSeconds ?? 0
        var series = [TimeSeriesChart.Series(label: "budget left", values: past + projected.map { _ in nil }, colour: 0)]
        if !projected.isEmpty {
            // Joined to the last point, so the projection carries the line on in its own colour.
            let values = past.dropLast().map { _ in Double?.none } + [past.last ?? nil] + projected
            series.append(TimeSeriesChart.Series(label: "at the last \(BudgetBurnDown.recentDays) d's burn rate", values: values, colour: 3))
        }
        return TimeSeriesChart(
            // Whole percents: an overspent budget reads −400 %, short enough for the axis.
            startSeconds: start, stepSeconds: .secondsPerDay, series: series, yLabel: "error budget left (%)",
            format: { String(format: "%.0f %%", $0 * 100).replacingOccurrences(of: "-", with: "−") },
            threshold: (0, "budget spent"), bands: maintenance, zone: zone
        ).html
    }

    /// "Budget left 13.9 %; at the last 7 days' burn rate (1.1×) it runs out on 2026-11-29, in 12 d."
    /// A line that starts late says why: "The line starts once its window holds a day of data."
    private func burnDownSentence(_ burnDown: BudgetBurnDown, at time: Int64) -> String {
        let late = burnDown.pointsWithTooLittleData > 0 ? " The line starts once its window holds a day of data." : ""
        return burnDownState(burnDown, at: time) + late
    }

    /// What the budget is and where it goes, in a sentence.
    private func burnDownState(_ burnDown: BudgetBurnDown, at time: Int64) -> String {
        guard let left = burnDown.points.last?.left else {
            return burnDown.pointsWithTooLittleData > 0
                ? "Its window holds under a day of data: too little to judge a budget." : "No valid events over the window: no budget to read."
        }
        let now = left >= 0 ? "Budget left \(NumberText.percent(left))" : "Budget overspent by \(NumberText.percent(-left))"
        guard let rate = burnDown.recentBurnRate else { return "\(now); no valid events over the last \(BudgetBurnDown.recentDays) days to project." }
        let pace = "at the last \(BudgetBurnDown.recentDays) days' burn rate (\(String(format: "%.1f×", rate)))"
        if let exhaustion = burnDown.exhaustionSeconds {
            return "\(now); \(pace) it runs out on \(zone.date(exhaustion)), in \(NumberText.duration(exhaustion - time))."
        }
        if left < 0 {
            let recovers = burnDown.projection.first { ($0.left ?? -1) >= 0 }
            return "\(now); \(pace) "
                + (recovers.map { "it is back above zero on \(zone.date($0.timeSeconds))." }
                    ?? "it stays spent over the window.")
        }
        let horizon = burnDown.objective.window == .calendarMonth ? "to the month's end" : "over the next \(burnDown.objective.window.description)"
        return "\(now); \(pace) it lasts \(horizon)."
    }
}

/// The service-level report's table: a row per ISO week and calendar month, MET, MISSED or NO EVENTS.
enum AttainmentTable {
    static func html(_ periods: [AttainmentPeriod]) -> HTML {
        let rows = periods.map { period -> HTML in
            let status: HTML =
                switch period.met {
                case nil: "<span class=\"status none\">NO EVENTS</span>"
                case true?: "<span class=\"status ok\">MET</span>"
                case false?: "<span class=\"status bad\">MISSED</span>"
                }
            let soFar: HTML = period.isPartial ? " <span class=\"meta\">so far</span>" : ""
            return "<tr><td class=\"text\">\(period.label)\(soFar)</td>"
                + "<td\(DashboardFrame.dataValue(period.counts?.successRate.map { $0 * 100 }))>\(NumberText.percent(period.counts?.successRate))</td>"
                + "<td data-value=\"\(period.counts?.valid ?? 0)\">\(NumberText.count(period.counts?.valid ?? 0))</td><td>\(status)</td></tr>"
        }
        return "<table><tr><th class=\"text\">attainment</th><th data-value=\"success rate (%)\">success rate</th><th>valid</th>"
            + "<th>vs \(NumberText.percent(periods.first?.target))</th></tr>\(HTML.joined(rows))</table>"
    }

    /// The same as Markdown lines, for `action`.
    static func markdown(_ periods: [AttainmentPeriod], action: String) -> [String] {
        ["| \(action) | success rate | valid | vs \(NumberText.percent(periods.first?.target)) |", "|---|---:|---:|---|"]
            + periods.map { period in
                let met = period.met.map { $0 ? "met" : "missed" } ?? "no events"
                return "| \(period.label)\(period.isPartial ? " (so far)" : "") | \(NumberText.percent(period.counts?.successRate)) | "
                    + "\(NumberText.count(period.counts?.valid ?? 0)) | \(met) |"
            }
    }
}
