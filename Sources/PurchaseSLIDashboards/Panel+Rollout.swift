import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardContext {
    /// Each app version's share of events per step over the range: the phased-release curve.
    func adoptionPanel(stepSeconds: Int64?) throws -> HTML {
        let step = stepSeconds ?? defaultStepSeconds
        let data = try series(step: step, groupBy: [.appVersion])
        let totals = (0..<data.steps).map { index in data.byKey.values.reduce(Int64(0)) { $0 + $1[index].total } }
        // The six busiest versions, oldest first.
        let versions = data.byKey.sorted { $0.value.reduce(0) { $0 + $1.total } > $1.value.reduce(0) { $0 + $1.total } }
            .prefix(6).sorted { ($0.key[0] ?? "").compare($1.key[0] ?? "", options: .numeric) == .orderedAscending }
        let chart = TimeSeriesChart(
            startSeconds: data.start, stepSeconds: step,
            series: versions.map { key, steps in
                TimeSeriesChart.Series(
                    label: key[0] ?? "(none)",
                    values: steps.indices.map { totals[$0] > 0 ? Double(steps[$0].total) / Double(totals[$0]) : nil })
            },
            yLabel: "share of events (%)", format: { NumberText.percent($0) }, yDomain: 0...1)
        return "<section class=\"card\"><h3>App version adoption: share of events per \(NumberText.duration(step))</h3>\(chart.html)</section>"
    }

    /// The `rollout` verdict for the candidate (default: the newest version in the range) against the
    /// baseline (default: the busiest other version), from the candidate's first hour in the range.
    func rolloutPanel(candidate: String?, baseline: String?) throws -> HTML {
        let query = RolloutQuery(store: store)
        guard let candidate = try candidate ?? query.newestVersion(from: fromSeconds, to: atSeconds) else {
            return "<section class=\"card\"><h3>Rollout</h3><p class=\"muted\">Only one app version has events in the range: nothing to compare.</p></section>"
        }
        let report: RolloutReport
        do {
            let inputs = try query.inputs(candidate: candidate, baseline: baseline, since: nil, end: atSeconds)
            report = RolloutEvaluator(policy: policy).evaluate(
                inputs, freshness: try AlertContext(store: store, policy: policy).freshness(at: atSeconds))
        } catch let failure as RolloutQuery.Failure {
            return "<section class=\"card\"><h3>Rollout of \(candidate)</h3><p class=\"muted\">\(failure.description)</p></section>"
        }
        return "<section class=\"card\"><h3>Rollout of \(candidate) against \(report.baseline)</h3>"
            + "\(RolloutOutput.html(report, minimumEffect: policy.rollout.minimumEffect))</section>"
    }
}
