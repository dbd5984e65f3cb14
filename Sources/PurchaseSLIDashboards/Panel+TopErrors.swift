import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// The most frequent failure descriptions over the last window, with the window before for
    /// comparison.
    func topErrorsPanel(_ errors: TopErrorsPanelData) -> HTML {
        let (actionType, windowSeconds, limit, now, before) = (errors.actionType, errors.windowSeconds, errors.limit, errors.now, errors.before)
        let ranked = now.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(limit)
        let largest = ranked.first?.value ?? 1
        let rows = ranked.map { description, events -> HTML in
            let previous = before[description] ?? 0
            let change = previous == 0 ? "new" : NumberText.signedPercent(Double(events) / Double(previous) - 1)
            return "<tr><td class=\"text\">\(description)</td><td>\(NumberText.count(events))</td><td>\(NumberText.count(previous))</td>"
                + "<td>\(change)</td><td>\(IntervalBar(value: Double(events), scale: Double(largest), isBad: previous == 0 || events > 2 * previous, caption: "\(events) failures").html)</td></tr>"
        }
        let window = NumberText.duration(windowSeconds)
        return """
            <section class="card"><h3>Top failure reasons\(actionType.map { " of \($0)" } ?? ""), last \(window)</h3>
            \(rows.isEmpty ? "<p class=\"muted\">No failure with a description in the last \(window).</p>" as HTML : """
            <div class="scroll"><table><tr><th class="text">errorDescription</th><th>failures</th><th>the \(window) before</th>\
            <th>change</th><th></th></tr>\(HTML.joined(rows))</table></div>
            """)</section>
            """
    }
}
