public import PurchaseSLIAnalysis
import PurchaseSLICore

extension RolloutOutput {
    /// The verdict as a banner (what to do with the phased release, and why) and the comparisons as a
    /// table with each rate's 95 % interval drawn: every action, and the products and plans that
    /// regressed or whose change is at least the minimum effect.
    public static func html(_ report: RolloutReport, minimumEffect: Double) -> HTML {
        let narrative = RolloutNarrative(report: report, escaping: .html)
        let tone = switch report.verdict {
        case .rollback: "bad"
        case .hold: "warn"
        case .proceed: "ok"
        case .insufficientData: "none"
        case .stale: "warn"
        }
        let reasonLimit = 5
        var reasons = HTML.joined(narrative.reasons.prefix(reasonLimit).map { "<li>\(HTML(trusted: $0))</li>" })
        if narrative.reasons.count > reasonLimit {
            reasons += "<li>and \(narrative.reasons.count - reasonLimit) more, marked in the table below</li>"
        }
        let shown = report.comparisons.filter { comparison in
            comparison.slice.slice == nil || comparison.isRegression || abs(comparison.effect ?? 0) >= minimumEffect && comparison.isTested
        }
        let scale = shown.flatMap { [$0.candidate.interval.upperBound, $0.baseline.interval.upperBound] }.max() ?? 1
        let rows = shown.map { comparison -> HTML in
            func bar(_ side: RolloutComparison.Side, bad: Bool) -> HTML {
                IntervalBar(value: side.rate ?? 0, interval: side.interval, scale: scale, isBad: bad,
                            caption: "\(NumberText.percent(side.rate)) of \(side.trials), 95 % interval "
                                + "\(NumberText.percent(side.interval.lowerBound)) to \(NumberText.percent(side.interval.upperBound))").html
            }
            return "<tr><td>\(comparison.isRegression ? "<span class=\"status bad\">worse</span> " as HTML : "")\(comparison.metric.title)</td>"
                + "<td class=\"text\">\(HTML(trusted: narrative.sliceName(comparison.slice)))</td>"
                + "<td>\(NumberText.percent(comparison.candidate.rate)) <span class=\"meta\">of \(NumberText.count(comparison.candidate.trials))</span></td>"
                + "<td>\(bar(comparison.candidate, bad: comparison.isRegression))</td>"
                + "<td>\(NumberText.percent(comparison.baseline.rate)) <span class=\"meta\">of \(NumberText.count(comparison.baseline.trials))</span></td>"
                + "<td>\(bar(comparison.baseline, bad: false))</td>"
                + "<td>\(comparison.effect.map(NumberText.points) ?? "n/a")</td>"
                + "<td>\(comparison.adjustedPValue.map(NumberText.pValue) ?? "too few to test")</td></tr>"
        }
        return """
            <div class="banner \(tone)"><strong>\(HTML(trusted: narrative.headline))</strong>
            <div class="meta">\(HTML(trusted: narrative.scope))</div><ul>\(reasons)</ul></div>
            <div class="scroll"><table><tr><th>metric</th><th class="text">slice</th><th>\(report.candidate)</th><th></th>\
            <th>\(report.baseline)</th><th></th><th>change</th><th>p (Holm)</th></tr>\(HTML.joined(rows))</table></div>
            <p class="meta">Bars: each rate with its 95 % Wilson interval, on one scale. Shown: every action, and the \
            products and plans that are significantly worse or changed by at least \(NumberText.magnitude(minimumEffect)); \
            `purchase-sli rollout --format json` lists all \(report.comparisons.count) comparisons.</p>
            """
    }
}
