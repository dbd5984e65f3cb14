import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// A grey band per occurrence of a maintenance window over `[from, to)` that leaves out `actionType`'s
    /// minutes (any action's, for a chart of every action), named with its reason.
    func maintenanceBands(for actionType: String?, from: Int64, to: Int64) -> [TimeSeriesChart.Band] {
        maintenance().bands(from: from, to: to).filter { band in actionType.map(band.window.covers(action:)) ?? true }.map { band in
            let window = band.window
            let actions = window.actions.isEmpty ? "every action" : window.actions.joined(separator: ", ")
            return TimeSeriesChart.Band(
                startSeconds: band.range.lowerBound, endSeconds: band.range.upperBound,
                label: "maintenance \(window.id): \(window.reason)\n\(zone.timestamp(band.range.lowerBound)) to "
                    + "\(zone.timestamp(band.range.upperBound)), \(actions) left out of the error budget",
                caption: "MAINTENANCE \(window.reason)", isPage: false, isMaintenance: true)
        }
    }

    /// A banner naming each maintenance window in progress at the page's time or starting within a day:
    /// what a person on call must know before reading a quiet page as a healthy one. Empty without any.
    func maintenanceBanner() -> HTML {
        let bands = maintenance().bands(from: atSeconds, to: atSeconds + .secondsPerDay)
        guard !bands.isEmpty else { return "" }
        let items = bands.map { band -> HTML in
            let window = band.window
            let actions = window.actions.isEmpty ? "every action" : window.actions.joined(separator: ", ")
            let end = window.occurrences(from: band.range.lowerBound, to: band.range.upperBound).first?.upperBound ?? band.range.upperBound
            let when =
                band.range.lowerBound <= atSeconds
                ? "in progress until \(zone.timestamp(end))"
                : "from \(zone.timestamp(band.range.lowerBound)) to \(zone.timestamp(end))"
            return "<li><strong>\(window.reason)</strong> (\(window.id)) \(when): \(actions) left out of the budgets and burn-rate alerts</li>"
        }
        return "<div class=\"banner none\"><strong>Maintenance</strong><ul>\(HTML.joined(items))</ul>"
            + "<p class=\"meta\">Spikes, loss of signal and charges not granted still alert.</p></div>"
    }
}
