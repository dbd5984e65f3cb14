public import PurchaseSLIAnalysis
public import PurchaseSLICore

extension RolloutOutput {
    /// The verdict as a banner (what to do with the phased release, and why) and the comparisons as a
    /// table with each rate's 95 % interval drawn: every action, and the products and plans that
    /// regressed or whose change is at least the minimum effect.
    public static func html(_ report: RolloutReport, minimumEffect: Double, zone: TimeZoneOffsets = .utc) -> HTML {
        let narrative = RolloutNarrative(report: report, escaping: .html, zone: zone)
        let tone = self.tone(report.verdict)
        let reasonLimit = 5
        var reasons = HTML.joined(narrative.reasons.prefix(reasonLimit).map { "<li>\(HTML(trusted: $0))</li>" })
        if narrative.reasons.count > reasonLimit {
            reasons += "<li>and \(narrative.reasons.count - reasonLimit) more, marked in the table below</li>"
        }
        let actions: HTML =
            narrative.actions.isEmpty
            ? ""
            : "<div class=\"meta\"><strong>Done</strong></div><ul>\(HTML.joined(narrative.actions.map { "<li>\(HTML(trusted: $0))</li>" }))</ul>"
                + "<div class=\"meta\"><strong>Why</strong></div>"
        let incidents: HTML =
            narrative.incidents.isEmpty
            ? ""
            : "<div class=\"meta\"><strong>Incidents</strong></div><ul>\(HTML.joined(narrative.incidents.map { "<li>\(HTML(trusted: $0))</li>" }))</ul>"
        let shown = report.comparisons.filter { comparison in
            comparison.slice.slice == nil || comparison.isRegression || abs(comparison.effect ?? 0) >= minimumEffect && comparison.isTested
        }
        let scale = shown.flatMap { [$0.candidate.interval.upperBound, $0.baseline.interval.upperBound] }.max() ?? 1
        let rows = shown.map { comparison -> HTML in
            func bar(_ side: RolloutComparison.Side, bad: Bool) -> HTML {
                IntervalBar(
                    value: side.rate ?? 0, interval: side.interval, scale: scale, isBad: bad,
                    caption: "\(NumberText.percent(side.rate)) of \(side.trials), 95 % interval "
                        + "\(NumberText.percent(side.interval.lowerBound)) to \(NumberText.percent(side.interval.upperBound))"
                ).html
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
            <div class="meta">\(HTML(trusted: narrative.scope))</div>\(actions)<ul>\(reasons)</ul>\(incidents)</div>
            <div class="scroll"><table><tr><th>metric</th><th class="text">slice</th><th>\(report.candidate)</th><th></th>\
            <th>\(report.baseline)</th><th></th><th>change</th><th>p (Holm)</th></tr>\(HTML.joined(rows))</table></div>
            <p class="meta">Bars: each rate with its 95 % Wilson interval, on one scale. Shown: every action, and the \
            products and plans that are significantly worse or changed by at least \(NumberText.magnitude(minimumEffect)); \
            `purchase-sli rollout --format json` lists all \(report.comparisons.count) comparisons.</p>
            """
    }

    /// The verdict over the release, one row per run of hourly checks that said the same at the same step,
    /// newest first: when it said what, and why.
    public static func historyHTML(_ report: RolloutReport, zone: TimeZoneOffsets = .utc) -> HTML {
        guard let first = report.checks.first else { return "" }
        let narrative = RolloutNarrative(report: report, escaping: .html, zone: zone)
        var runs: [(from: Int64, to: Int64, check: RolloutCheck)] = []
        var previousEnd = first.timeSeconds - .secondsPerHour
        for check in report.checks {
            if let last = runs.last, last.check.verdict == check.verdict, last.check.step == check.step {
                runs[runs.count - 1].to = check.timeSeconds
            } else {
                runs.append((from: previousEnd, to: check.timeSeconds, check: check))
            }
            previousEnd = check.timeSeconds
        }
        let shown = 12
        let rows = runs.reversed().prefix(shown).map { run -> HTML in
            let tone = self.tone(run.check.verdict)
            // "2026-11-10 14:00 to 11-11 06:00": short enough for a phone's column.
            let from = zone.minute(run.from)
            let to = String(zone.minute(run.to).dropFirst(5))
            return "<tr><td class=\"text\">\(from) to \(to)</td>"
                + "<td>\(run.check.step.map { "\($0) %" } ?? "n/a")</td>"
                + "<td><span class=\"status \(tone)\">\(run.check.verdict.rawValue)</span></td>"
                + "<td class=\"text\">\(HTML(trusted: run.check.reason.map(narrative.sentence) ?? ""))</td></tr>"
        }
        let more: HTML = runs.count > shown ? "<p class=\"meta\">\(runs.count - shown) earlier changes not shown.</p>" : ""
        return "<h4>The verdict over the release: \(report.checks.count) hourly checks</h4>"
            + "<div class=\"scroll\"><table><tr><th class=\"text\">checked (\(zone.shortName))</th><th>step</th><th>verdict</th><th class=\"text\">why (at the first check)</th></tr>"
            + HTML.joined(rows) + "</table></div>\(more)"
    }

    /// A banner of what `serve` did to the stores' releases (for the on-call page), nothing without actions.
    public static func actionsBanner(_ actions: [RolloutAction], zone: TimeZoneOffsets = .utc) -> HTML {
        guard !actions.isEmpty else { return "" }
        let live = actions.contains { !$0.isDryRun && $0.outcome == .paused }
        let items = HTML.joined(actions.map { "<li>\(HTML(trusted: RolloutNarrative.sentence($0, escaping: .html, zone: zone)))</li>" })
        return "<div class=\"banner \(live ? "bad" : "warn")\"><strong>Store releases acted on by the rollout verdicts "
            + "(last 7 days)</strong><ul>\(items)</ul></div>"
    }

    /// The status class a verdict is shown with.
    static func tone(_ verdict: RolloutReport.Verdict) -> String {
        switch verdict {
        case .rollback: "bad"
        case .hold, .stale: "warn"
        case .proceed: "ok"
        case .insufficientData, .gone: "none"
        }
    }
}
