import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// The values of a dimension over the range, worst first: sorted by excess failures (failures above
    /// what the action's overall failure rate would give them), with each value's success, 409 and cancel
    /// rates and its success-rate trend.
    func tablePanel(_ table: TablePanelData) -> HTML {
        let (title, dimension, actionType, limit) = (table.title, table.dimension, table.actionType, table.limit)
        let (data, totals, step) = (table.series, table.totals, table.series.stepSeconds)
        let overall = totals.values.reduce(OutcomeCounts(), +)
        let failureRate = overall.failureRate ?? 0
        // Equal ones by label: the rows shown, and their order, are the same whatever order the keys came in.
        typealias Ranked = (key: [String?], counts: OutcomeCounts, excess: Double)
        func precedes(_ lhs: Ranked, _ rhs: Ranked) -> Bool {
            if lhs.excess != rhs.excess { return lhs.excess > rhs.excess }
            if lhs.counts.total != rhs.counts.total { return lhs.counts.total > rhs.counts.total }
            return lhs.key.lexicographicallyPrecedes(rhs.key) { ($0 ?? "") < ($1 ?? "") }
        }
        let ranked = totals.map { (key: $0.key, counts: $0.value, excess: Double($0.value.failure) - failureRate * Double($0.value.valid)) }
            .sorted(by: precedes)
        let rows = ranked.prefix(limit).map { entry -> HTML in
            let counts = entry.counts
            let tone = entry.excess >= 5 && (counts.successRate ?? 1) < 1 - 2 * failureRate ? "bad" : ""
            let spark = Sparkline(
                values: (data.byKey[entry.key] ?? []).map(\.successRate), caption: "success rate per \(NumberText.duration(step))",
                format: { NumberText.percent($0) }, higherIsWorse: false)
            return "<tr><td class=\"text\">\(entry.key.first.map { $0 ?? "(none)" } ?? "")</td>"
                + "<td class=\"\(tone)\">\(NumberText.percent(counts.successRate))</td><td>\(NumberText.count(counts.failure))</td>"
                + "<td>\(String(format: "%+.1f", entry.excess))</td><td>\(NumberText.count(counts.valid))</td>"
                + "<td>\(NumberText.percent(RateMetric.conflictRate.rate(counts)))</td>"
                + "<td>\(NumberText.percent(RateMetric.cancelRate.rate(counts)))</td><td>\(spark.html)</td></tr>"
        }
        let hidden = ranked.count - rows.count
        let heading = title ?? "\(actionType ?? "All actions") by \(dimension.rawValue), worst first"
        return """
            <section class="card"><h3>\(heading)</h3><div class="scroll"><table><tr><th class="text">\(dimension.rawValue)</th>\
            <th>success rate</th><th>failures</th><th>excess failures</th><th>valid</th><th>409 rate</th><th>cancel rate</th>\
            <th>trend</th></tr>\(HTML.joined(rows))</table></div>\
            \(hidden > 0 ? "<p class=\"meta\">\(hidden) more values, each with fewer excess failures.</p>" as HTML : "")\
            <p class="meta">Over the last \(NumberText.duration(rangeSeconds)). Excess failures: failures beyond the \
            \(NumberText.percent(failureRate)) average failure rate.</p></section>
            """
    }
}
