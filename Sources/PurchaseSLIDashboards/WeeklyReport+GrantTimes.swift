import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension WeeklyReport.GrantTimesWeek {
    /// One sentence per store: "App Store: 98.7 % of 1,234 charges granted within 1 min (objective 99.0 %;
    /// 2026-W46: 99.3 %), median 0.9 s, 95th percentile 2.1 s, 16 late or not granted."
    func storeSentences(previousWeek: String) -> [String] {
        rows.filter { $0.slice == nil }.map { row in
            let summary = row.summary
            let before = previous[row.store].flatMap(\.onTimeShare).map { "; \(previousWeek): \(NumberText.percent($0))" } ?? ""
            return "\(row.store.displayName): \(NumberText.percent(summary.onTimeShare)) of \(NumberText.count(Int64(summary.charges))) charges "
                + "granted within \(NumberText.elapsed(millis: objective.withinSeconds * .millisPerSecond)) (objective "
                + "\(NumberText.percent(objective.objective.target))\(before)), median \(summary.median?.text ?? "n/a"), "
                + "95th percentile \(summary.p95?.text ?? "n/a"), \(NumberText.count(Int64(summary.late))) late or not granted."
        }
    }

    /// The slices shown under each store: those with charges late, most first.
    static let slicesPerStore = 10
}

extension WeeklyReport {
    /// "Time to grant": each store's sentence, then the table of stores, products and app versions.
    var grantTimesSection: HTML {
        guard let grantTimes else { return "" }
        guard !grantTimes.rows.isEmpty else {
            return "<section><h2>Time to grant</h2><p class=\"muted\">\(noGrantTimesText)</p></section>"
        }
        let sentences = grantTimes.storeSentences(previousWeek: week.previous.description).map { "<p>\($0)</p>" as HTML }
        return "<section><h2>Time to grant</h2>\(storeCoverageHTML)\(HTML.joined(sentences))"
            + GrantTimesTable.html(grantTimes.rows, objective: grantTimes.objective, slicesPerStore: GrantTimesWeek.slicesPerStore) + "</section>"
    }

    /// What the section says without a charge to time: that there was none, or, without notifications,
    /// that it cannot be told.
    var noGrantTimesText: String {
        storeCoverage.current.isEmpty ? "Unknown: no store notifications for this week." : "No store charge expecting a grant this week."
    }

    /// The same as Markdown lines.
    var grantTimesMarkdown: [String] {
        guard let grantTimes else { return [] }
        var lines = ["", "## Time to grant", ""]
        guard !grantTimes.rows.isEmpty else { return lines + [noGrantTimesText] }
        lines += storeCoverageMarkdown
        let escape = TextEscaping.markdown.escape
        // The sentences hold the tool's own words and numbers only (no event value).
        lines += grantTimes.storeSentences(previousWeek: week.previous.description).flatMap { [$0, ""] }
        lines += [
            "| charges of | granted within \(NumberText.elapsed(millis: grantTimes.objective.withinSeconds * .millisPerSecond)) | late or not granted | "
                + "median | 95th percentile | charges |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for row in GrantTimesTable.shown(grantTimes.rows, slicesPerStore: GrantTimesWeek.slicesPerStore) {
            let summary = row.summary
            lines.append(
                "| \(escape(row.scopeText)) | \(NumberText.percent(summary.onTimeShare)) | \(NumberText.count(Int64(summary.late))) | "
                    + "\(summary.median?.text ?? "") | \(summary.p95?.text ?? "") | \(NumberText.count(Int64(summary.charges))) |")
        }
        return lines
    }
}
