import PurchaseSLIAnalysis
import PurchaseSLICore

extension AlertOutput {
    /// The alerts as HTML blocks, most urgent first: severity and summary, then the details (since when,
    /// counts, budget, slices, top errors, the query to run next); or a line saying none fire.
    public static func html(_ reports: [AlertReport], now: Int64) -> HTML {
        guard !reports.isEmpty else {
            return "<div class=\"banner\"><strong>No alert firing</strong> at \(RFC3339.format(seconds: now)).</div>"
        }
        return HTML.joined(reports.map { report in
            let narrative = AlertNarrative(report: report, escaping: .html, now: now)
            let severity = report.severity
            let details = HTML.joined(narrative.details.map { "<li>\(HTML(trusted: $0))</li>" })
            return "<div class=\"alert \(severity.rawValue)\"><p><span class=\"status \(severity == .page ? "bad" : "warn")\">"
                + "\(severity.rawValue.uppercased())</span> <strong>\(report.finding.kind.rawValue)</strong> "
                + "\(HTML(trusted: narrative.summary))</p><ul>\(details)</ul></div>"
        })
    }
}
