import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLIRendering

extension WeeklyReport {
    /// "App Store notifications cover only 2026-11-18 to 2026-11-19 of this week." or "No store
    /// notifications for this week.", nil when they cover all of it: what the week's store figures rest on.
    var storeCoverageLine: String? { StoreCoverageText.line(storeCoverage.current, period: "this week", zone: zone) }

    /// The lines a section comparing store figures with the week before starts with: this week's coverage
    /// and the week before's, each when not whole.
    var storeCoverageLines: [String] {
        [storeCoverageLine, StoreCoverageText.line(storeCoverage.previous, period: week.previous.description, zone: zone)].compactMap { $0 }
    }

    /// ``storeCoverageLines`` as muted paragraphs.
    var storeCoverageHTML: HTML { HTML.joined(storeCoverageLines.map { "<p class=\"muted coverage\">\($0)</p>" as HTML }) }

    /// ``storeCoverageLines`` as Markdown paragraphs, each followed by an empty line.
    var storeCoverageMarkdown: [String] { storeCoverageLines.flatMap { [$0, ""] } }

    /// `text` (a store figure of this week, or of the week before when `previous`), or "no data" when that
    /// week has no store notification: its count is unknown, not 0.
    func storeFigure(_ text: String, previous: Bool = false) -> String {
        (previous ? storeCoverage.previous : storeCoverage.current).isEmpty ? "no data" : text
    }
}
