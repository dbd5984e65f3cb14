import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// Each app version's share of events per step over the range: the phased-release curve, the six
    /// busiest versions in their `colours`.
    func adoptionPanel(_ adoption: AdoptionPanelData, colours: [String: Int]) -> HTML {
        let data = adoption.series
        let step = data.stepSeconds
        let totals = (0..<data.steps).map { index in data.byKey.values.reduce(Int64(0)) { $0 + $1[index].total } }
        // The six busiest versions, oldest first.
        let versions = data.byKey.filter { colours[$0.key[0] ?? "(none)"] != nil }
            .sorted { colours[$0.key[0] ?? "(none)"]! < colours[$1.key[0] ?? "(none)"]! }
        var chart = TimeSeriesChart(
            startSeconds: data.startSeconds, stepSeconds: step,
            series: versions.map { key, steps in
                TimeSeriesChart.Series(
                    label: key[0] ?? "(none)",
                    values: steps.indices.map { totals[$0] > 0 ? Double(steps[$0].total) / Double(totals[$0]) : nil },
                    colour: colours[key[0] ?? "(none)"])
            },
            yLabel: "share of events (%)", format: { NumberText.percent($0) }, yDomain: 0...1, zone: zone)
        chart.markers = releaseMarkers(adoption.releases, from: data.startSeconds, to: atSeconds)
        return "<section class=\"card\"><h3>App version adoption: share of events per \(NumberText.duration(step))</h3>\(chart.html)</section>"
    }

    /// What `serve` did to the stores' releases over the 7 days before the page's time, as a banner.
    func rolloutActionsBanner() -> HTML {
        RolloutOutput.actionsBanner(rolloutActions(from: atSeconds - 7 * .secondsPerDay), zone: zone)
    }

    /// The `rollout` verdict for the candidate against the baseline with every comparison, a success-rate
    /// chart per action with the versions in their `colours`, and the release's history.
    func rolloutPanel(_ rollout: RolloutPanelData, colours: [String: Int]) -> HTML {
        switch rollout {
        case .noCandidate:
            return
                "<section class=\"card\"><h3>Rollout</h3><p class=\"muted\">Only one app version has events in the range: nothing to compare.</p></section>"
        case let .unavailable(candidate, reason):
            return "<section class=\"card\"><h3>Rollout of \(candidate)</h3><p class=\"muted\">\(reason)</p></section>"
        case let .compared(report, inputs):
            // The steps the release appears to reach and the pauses of the store releases are marked.
            let pauses = pauseMarkers(from: inputs.fromSeconds, to: atSeconds)
            let charts = policy.rollout.actions.map { successChart(inputs, action: $0, colours: colours, pauses: pauses) }
            return "<section class=\"card\"><h3>Rollout of \(inputs.candidate) against \(report.baseline)</h3>"
                + "\(RolloutOutput.html(report, minimumEffect: policy.rollout.minimumEffect, zone: zone))\(HTML.joined(charts))"
                + "\(RolloutOutput.historyHTML(report, zone: zone))</section>"
        }
    }

    /// The success rate of `action` on both versions over the compared hours, about 48 points, each with
    /// its 95 % interval shaded: a point of a handful of events shows as the wide guess it is.
    private func successChart(_ inputs: RolloutInputs, action: String, colours: [String: Int], pauses: [TimeSeriesChart.Marker]) -> HTML {
        let hours = inputs.hourly[SeriesLabels(actionType: action)] ?? []
        let first = inputs.fromSeconds - inputs.fromSeconds.floorDividedBy(.secondsPerHour).remainder
        let span = max(.secondsPerHour, inputs.toSeconds - first)
        let step = max(1, (span / 48 + 3599) / .secondsPerHour) * .secondsPerHour
        let steps = Int((span + step - 1) / step)
        var sums = [(candidate: OutcomeCounts, baseline: OutcomeCounts)](repeating: (OutcomeCounts(), OutcomeCounts()), count: steps)
        for hour in hours {
            let index = Int((hour.startSeconds - first) / step)
            guard sums.indices.contains(index) else { continue }
            sums[index].candidate += hour.candidate
            sums[index].baseline += hour.baseline
        }
        func series(_ label: String, _ side: KeyPath<(candidate: OutcomeCounts, baseline: OutcomeCounts), OutcomeCounts>) -> TimeSeriesChart.Series {
            let points = sums.map { RateMetric.successRate.badEvents($0[keyPath: side]) }
            return TimeSeriesChart.Series(
                label: label, values: points.map { $0.trials == 0 ? nil : Double($0.trials - $0.count) / Double($0.trials) },
                intervals: points.map {
                    $0.trials == 0 ? nil : RolloutComparison.Side(count: $0.trials - $0.count, trials: $0.trials).interval
                }, colour: colours[label])
        }
        let objective = policy.objectives.first { $0.actionType == action }
        var chart = TimeSeriesChart(
            startSeconds: first, stepSeconds: step,
            series: [series(inputs.candidate, \.candidate), series(inputs.baseline, \.baseline)],
            yLabel: "\(action) success rate (%)", format: { NumberText.percent($0) },
            threshold: objective.map { ($0.target, "objective \(NumberText.percent($0.target))") }, yLimits: 0...1, zone: zone)
        chart.markers = (inputs.release.map { stepMarkers($0, candidate: inputs.candidate) } ?? []) + pauses
        return "<h4>\(action) success rate per \(NumberText.duration(step)), \(inputs.candidate) against \(inputs.baseline)</h4>\(chart.html)"
    }
}
