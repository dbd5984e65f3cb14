import PurchaseSLIAnalysis
public import PurchaseSLIApplication
public import PurchaseSLICore

extension AlertOutput {
    /// The alerts as HTML blocks, most urgent first, each with its anchor (``AlertFinding/Identity/anchor``):
    /// severity and summary, then the details (since when, counts, budget, slices, top errors), the query
    /// to run next, and the owner and runbook link; or a line saying none fire.
    public static func html(_ reports: [AlertReport], now: Int64, zone: TimeZoneOffsets = .utc) -> HTML {
        guard !reports.isEmpty else {
            return "<div class=\"banner\"><strong>No alert firing</strong> at \(zone.timestamp(now)).</div>"
        }
        return HTML.joined(
            reports.map { report in
                let narrative = AlertNarrative(report: report, escaping: .html, now: now, zone: zone)
                let severity = report.severity
                var lines = narrative.details.map { HTML(trusted: $0) } + [HTML(trusted: narrative.lookNextLine)]
                if let owner = report.owner { lines.append("owner: \(owner)") }
                if let runbook = report.runbookURL { lines.append("runbook: <a href=\"\(runbook)\" rel=\"noreferrer\">\(runbook)</a>") }
                return "<div class=\"alert \(severity.rawValue)\" id=\"\(report.finding.identity.anchor)\"><p><span class=\"status "
                    + "\(severity == .page ? "bad" : "warn")\">\(severity.rawValue.uppercased())</span> <strong>\(report.finding.kind.rawValue)</strong> "
                    + "\(HTML(trusted: narrative.summary))</p><ul>\(HTML.joined(lines.map { "<li>\($0)</li>" }))</ul></div>"
            })
    }
}
