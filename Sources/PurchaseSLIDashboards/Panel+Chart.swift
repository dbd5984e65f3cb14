import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// A time series of a metric over the range: one line for the action (or all events), or one per
    /// value of the dimension (the five busiest, the rest as "other"), with the objective for success rates
    /// and the alert episodes (`bands`) and maintenance windows shaded, each app version's release and each
    /// store release paused marked (``releaseMarkers(_:from:to:)``); with the week before, the same hours of
    /// it as a dashed line. App versions take their `colours` of the page.
    func chartPanel(_ chart: ChartPanelData, colours: [String: Int], bands: [TimeSeriesChart.Band]) -> HTML {
        let data = chart.series
        let step = data.stepSeconds
        let (title, metric, actionType, dimension) = (chart.title, chart.metric, chart.actionType, chart.dimension)
        // The busiest first, equal ones by label: the five shown are the same whatever order the keys came in.
        var keyed = data.byKey.map { (label: $0.key.first.map { $0 ?? "(none)" } ?? (actionType ?? "all events"), steps: $0.value) }
            .map { (entry: $0, total: $0.steps.reduce(0) { $0 + $1.total }) }
            .sorted { ($0.total, $1.entry.label) > ($1.total, $0.entry.label) }.map(\.entry)
        if keyed.count > 6 {
            let rest = keyed[5...].reduce(into: Array(repeating: OutcomeCounts(), count: data.steps)) { sum, entry in
                for index in sum.indices { sum[index] += entry.steps[index] }
            }
            keyed = Array(keyed.prefix(5)) + [(label: "other", steps: rest)]
        }
        if keyed.isEmpty {  // no event over the range: the action's line at zero (a dead feed reads 0), over the whole range
            keyed = [(label: actionType ?? "all events", steps: Array(repeating: OutcomeCounts(), count: data.steps))]
        }
        // By app version: oldest first, each version in its colour of the page (``DashboardPageData/versionColours``), "other" in one left free.
        let colours = dimension == .appVersion ? colours : [:]
        if dimension == .appVersion {
            keyed.sort {
                $0.label == "other" ? false : $1.label == "other" ? true : $0.label.compare($1.label, options: .numeric) == .orderedAscending
            }
        }
        let spareColour = (0..<6).first { colour in !keyed.contains { colours[$0.label] == colour } }
        let value: (OutcomeCounts) -> Double?
        let format: @Sendable (Double) -> String
        let yLabel: String
        var threshold: (value: Double, label: String)?
        var limits: ClosedRange<Double>?
        var domain: ClosedRange<Double>?
        switch metric {
        case .events:
            value = { Double($0.valid) }
            format = { NumberText.count(Int64($0.rounded())) }
            yLabel = "valid events per \(NumberText.duration(step))"
            if keyed.allSatisfy({ $0.steps.allSatisfy { $0.valid == 0 } }) { domain = 0...1 }  // none at all: an axis of 0 and 1
        case .rate(let rate):
            value = { rate.rate($0) }
            format = { NumberText.percent($0) }
            yLabel = "\(rate.title) (%)"
            limits = 0...1
            if rate == .successRate, let objective = policy.objectives.first(where: { $0.actionType == actionType }) {
                threshold = (objective.target, "objective \(NumberText.percent(objective.target))")
            }
        }
        var lines = keyed.map {
            TimeSeriesChart.Series(
                label: $0.label, values: $0.steps.map(value), colour: dimension == .appVersion ? colours[$0.label] ?? spareColour : nil)
        }
        if let steps = chart.previousWeek {
            lines.append(
                TimeSeriesChart.Series(label: "\(lines.first?.label ?? "") a week before", values: steps.map(value), colour: 0, isDashed: true))
        }
        var drawn = TimeSeriesChart(
            startSeconds: data.startSeconds, stepSeconds: step,
            series: lines,
            yLabel: yLabel, format: format, threshold: threshold,
            bands: bands + maintenanceBands(for: actionType, from: data.startSeconds, to: atSeconds), yDomain: domain,
            yLimits: limits ?? 0...Double.infinity, zone: zone)
        drawn.markers = releaseMarkers(chart.releases, from: data.startSeconds, to: atSeconds)
        let heading =
            (title ?? "\(yLabel.replacingOccurrences(of: " (%)", with: "")) of \(actionType ?? "all actions")"
                + (dimension.map { " by \($0.rawValue)" } ?? "")) + ", per \(NumberText.duration(step))"
        return "<section class=\"card\"><h3>\(heading)</h3>\(drawn.html)</section>"
    }
}
