import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// Per action (also one silent now): the 409, cancel and unfinished rates of the spike window (the last hour; for
    /// unfinished attempts the hour that ended `unfinishedAfter` ago) against the same window on the
    /// previous days, marked where a spike alert fires.
    func signalsPanel(_ signals: SignalsPanelData, firing: [AlertFinding]) -> HTML {
        let spikes = policy.spikes
        var rows: [HTML] = []
        for read in signals.metrics {
            let (metric, current, baseline) = (read.metric, read.current, read.baseline)
            // An action silent now but not before shows as zero rather than vanishing.
            for action in Set(current.keys).union(baseline.keys).sorted() {
                let counts = current[action] ?? OutcomeCounts()
                let rate = metric.rate(counts)
                let usual = baseline[action].flatMap(metric.rate)
                // The alert that charts this metric of the action, if one fires.
                let alert = firing.first { $0.evidence.chartMetric == .rate(metric) && $0.labels.actionType == action }
                let isFiring = alert != nil
                let ratio: String =
                    switch (rate, usual) {
                    case let (value?, usual?) where usual > 0: String(format: "%.1f×", value / usual)
                    case (let value?, _) where value > 0: "new"
                    default: "–"
                    }
                let (count, trials) = metric.badEvents(counts)
                rows.append(
                    "<tr><td>\(action)</td><td class=\"text\">\(metric.title)</td>"
                        + "<td class=\"\(isFiring ? "bad" : "")\">\(NumberText.percent(rate)) <span class=\"meta\">(\(NumberText.count(count)) of \(NumberText.count(trials)))</span></td>"
                        + "<td>\(NumberText.percent(usual))</td><td>\(ratio)</td>"
                        + "<td>\(alert.map { "<span class=\"status warn\">\($0.kind.rawValue)</span>" as HTML } ?? "")</td></tr>")
            }
        }
        return """
            <section class="card"><h3>409s, cancels and unfinished attempts: last \(NumberText.duration(spikes.windowSeconds)) \
            against the same \(NumberText.duration(spikes.windowSeconds)) on the previous \(spikes.baselineDays) days</h3>
            <div class="scroll"><table><tr><th>action</th><th class="text">rate</th><th>now</th><th>baseline</th><th>ratio</th>\
            <th>alert</th></tr>\(HTML.joined(rows))</table></div>
            <p class="meta">409 rate: 409s per valid event (a retry loop double-sending receipts). Cancel rate: cancels per \
            valid event or cancel (a payment-info detour may report a cancel though the user paid). Unfinished: attempts \
            without a terminal event \(NumberText.duration(spikes.unfinishedAfterSeconds)) later, per attempt (charged but \
            maybe not granted).</p></section>
            """
    }
}
