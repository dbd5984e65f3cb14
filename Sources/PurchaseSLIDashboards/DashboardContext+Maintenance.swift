import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardContext {
    /// The maintenance windows in force for the app shown (``AlertContext/maintenance()``).
    func maintenance() throws -> MaintenanceCalendar {
        try AlertContext(store: everyApp, policy: policy, app: app).maintenance()
    }

    /// A grey band per occurrence of a maintenance window over `[from, to)` that leaves out `actionType`'s
    /// minutes (any action's, for a chart of every action), named with its reason.
    func maintenanceBands(for actionType: String?, from: Int64, to: Int64) throws -> [TimeSeriesChart.Band] {
        try maintenance().bands(from: from, to: to).filter { band in actionType.map(band.window.covers(action:)) ?? true }.map { band in
            let window = band.window
            let actions = window.actions.isEmpty ? "every action" : window.actions.joined(separator: ", ")
            return TimeSeriesChart.Band(
                startSeconds: band.range.lowerBound, endSeconds: band.range.upperBound,
                label: "maintenance \(window.id): \(window.reason)\n\(RFC3339.format(seconds: band.range.lowerBound)) to "
                    + "\(RFC3339.format(seconds: band.range.upperBound)), \(actions) left out of the error budget",
                caption: "MAINTENANCE \(window.reason)", isPage: false, isMaintenance: true)
        }
    }
}
