import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension WeeklyReport {
    /// The heading of each column of the maintenance table.
    private static let maintenanceHeader = ["from", "to", "reason", "actions", "valid events left out", "failures left out"]

    /// One row per occurrence in the week, each cell made safe for `escaping` (the reason is a person's text).
    private func maintenanceRows(escaping: TextEscaping) -> [[String]] {
        maintenance.map { entry in
            let window = entry.band.window
            return [
                zone.timestamp(entry.band.range.lowerBound), zone.timestamp(entry.band.range.upperBound),
                escaping.escape(window.reason)
                    + (window.isCorrection ? " (correction, declared \(zone.date(window.createdSeconds ?? 0)))" : ""),
                window.actions.isEmpty ? "every action" : window.actions.map(escaping.escape).joined(separator: ", "),
                NumberText.count(entry.leftOut.valid), NumberText.count(entry.leftOut.failure),
            ]
        }
    }

    /// "Maintenance windows": the week's occurrences, what each left out of the budgets; nothing without one.
    var maintenanceSection: HTML {
        guard !maintenance.isEmpty else { return "" }
        let header = HTML.joined(
            Self.maintenanceHeader.enumerated().map { index, name -> HTML in "<th\(Self.textClass(index))>\(name)</th>" })
        let rows = maintenanceRows(escaping: .html).map { cells -> HTML in
            "<tr>"
                + HTML.joined(
                    cells.enumerated().map { index, cell -> HTML in "<td\(Self.textClass(index))>\(HTML(trusted: cell))</td>" })
                + "</tr>"
        }
        return "<section><h2>Maintenance windows</h2><div class=\"scroll\"><table><tr>\(header)</tr>\(HTML.joined(rows))</table></div>"
            + "<p class=\"meta\">Their minutes count for no objective: attainment, budgets and burn-rate alerts leave them out "
            + "(the spikes and charges not granted do not).</p></section>"
    }

    /// ` class="text"` for the columns of text (from, to, reason, actions), left-aligned.
    private static func textClass(_ column: Int) -> HTML { column < 4 ? " class=\"text\"" : "" }

    /// The same as a Markdown table; nothing without one.
    var maintenanceMarkdown: [String] {
        guard !maintenance.isEmpty else { return [] }
        return [
            "", "## Maintenance windows", "", "| " + Self.maintenanceHeader.joined(separator: " | ") + " |",
            "|" + String(repeating: "---|", count: 6),
        ]
            + maintenanceRows(escaping: .markdown).map { "| " + $0.joined(separator: " | ") + " |" }
    }
}
