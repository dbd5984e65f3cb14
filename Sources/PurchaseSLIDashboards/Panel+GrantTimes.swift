import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// How long the last day's charges took to be granted (`rows`), against the time-to-grant objective:
    /// each store, then its products and granting app versions with the most charges late first; empty
    /// without the objective.
    /// Its note on what notifications the day has is the panel's (`coverage`), not repeated.
    func grantTimesSection(_ rows: [GrantTimes.Row]?, coverage: StoreCoverage, limit: Int = 8) -> HTML {
        guard let objective = policy.reconciliation.timeToGrant, let rows else { return "" }
        let heading: HTML = "<h4>Time to grant, last 24 h (objective: \(objective.text))</h4>"
        guard !rows.isEmpty else {
            let none =
                coverage.isEmpty ? "No store notifications for the last 24 h." : "No charge expecting a grant whose time to grant is known yet."
            return "\(heading)<p class=\"muted\">\(none)</p>"
        }
        return heading + GrantTimesTable.html(rows, objective: objective, slicesPerStore: limit)
    }
}

extension DashboardFrame {
    /// One card per store whose charges' time to grant is known over the objective's window: the share
    /// granted on time in the last hour (the firing alert's short window while it burns) against the
    /// time-to-grant objective, the 1 h / 6 h / 24 h / 7 d shares and burn rates, the error budget left,
    /// and a status as an action's card has (the TimeToGrantBurn alert firing on the store; else BELOW
    /// OBJECTIVE beyond chance, UNDER OBJECTIVE on too few charges to tell, OK). Empty without the objective.
    func grantTimeCards(_ data: GrantTimeCardsData, firing: [AlertFinding]) -> HTML {
        guard let objective = policy.reconciliation.timeToGrant else { return "" }
        let target = objective.objective
        let budgetSeconds = atSeconds - target.window.period(at: atSeconds).startSeconds
        let (budgetCounts, coverage, windows) = (data.budgetCounts, data.coverage, data.counts)
        let within = NumberText.elapsed(millis: objective.withinSeconds * .millisPerSecond)
        let cards = budgetCounts.keys.sorted().map { store -> HTML in
            let labels = GrantTimes.labels(store: store)
            let severity = firing.filter { $0.kind == .timeToGrantBurn && $0.labels == labels }.map(\.severity).max()
            // The store's charges not granted are late too (they cover its time-to-grant alert): named here.
            var others: [(kind: AlertFinding.Kind, severity: Severity)] = []
            for alert in firing.filter({ $0.kind == .chargedNotGranted && $0.labels.store == store.rawValue }).sorted(by: {
                $0.severity > $1.severity
            })
            where !others.contains(where: { $0.kind == alert.kind }) {
                others.append((alert.kind, alert.severity))
            }
            let lastHour = windows[.secondsPerHour]?[store] ?? OutcomeCounts()
            let failingNow = policy.missesObjectiveBeyondChance(lastHour, objective: target)
            let budgetLeft = target.budgetSpent(budgetCounts[store] ?? OutcomeCounts()).map { 1 - $0 }
            let quiet: HTML? =
                if lastHour.valid == 0 { "<span class=\"status none\">NO CHARGES IN THE LAST HOUR</span>" } else if failingNow {
                    "<span class=\"status bad\">BELOW OBJECTIVE</span>"
                } else if (target.burnRate(lastHour) ?? 0) > 2 { "<span class=\"status warn\">UNDER OBJECTIVE</span>" } else { nil }
            let (status, alsoFiring) = Self.cardStatus(own: severity, others: others, quiet: quiet, budgetSpent: (budgetLeft ?? 0) < 0)
            let burn = firing.first { $0.kind == .timeToGrantBurn && $0.labels == labels }?.evidence(as: BurnEvidence.self)
            let headline: (share: Double?, caption: String) =
                burn.map {
                    (
                        $0.shortWindow.successRate,
                        "granted within \(within) over the last \(TimeStep(seconds: $0.shortWindowSeconds)) "
                            + "(\(NumberText.count($0.shortWindow.valid)) charges), as the alert reads"
                    )
                }
                ?? (lastHour.successRate, "granted within \(within), last hour (\(NumberText.count(lastHour.valid)) charges)")
            let tone =
                severity == .page || failingNow
                ? "bad" : severity == .ticket ? "warn" : (headline.share ?? 0) >= target.target && others.isEmpty ? "ok" : ""
            let rows = ObjectivesPanelData.windows.map { window -> HTML in
                let counts = windows[window.seconds]?[store] ?? OutcomeCounts()
                return "<tr><td>\(window.label)</td><td>\(NumberText.percent(counts.successRate))</td>"
                    + "<td>\(target.burnRate(counts).map { String(format: "%.1f×", $0) } ?? "n/a")</td><td>\(NumberText.count(counts.valid))</td></tr>"
            }
            let basis = coverage.budgetBasis(of: store, window: target.window, windowStart: atSeconds - budgetSeconds)
            let budget: HTML = budgetLeft.map { Self.budgetLine(left: $0, window: target.window, basis: basis) } ?? ""
            return """
                <div class="card"><h3>time to grant, \(store.displayName) \(status)</h3>\(alsoFiring)
                <div class="big \(tone)">\(NumberText.percent(headline.share))</div>
                <div class="meta">\(headline.caption) · objective \(NumberText.percent(target.target)) within \(within) over \(target.window.description)</div>
                <table><tr><th>window</th><th>within \(within)</th><th>burn rate</th><th>charges</th></tr>\(HTML.joined(rows))</table>\(budget)</div>
                """
        }
        return HTML.joined(cards)
    }
}

extension DashboardFrame {
    /// "App Store notifications cover only … of the last 24 h." as a muted paragraph, or nothing when
    /// they cover all of it (``StoreCoverageText``).
    func coverageNote(_ coverage: StoreCoverage, period: String) -> HTML {
        StoreCoverageText.line(coverage, period: period, zone: zone).map { "<p class=\"muted coverage\">\($0)</p>" } ?? ""
    }
}

/// The table of time-to-grant rows the pages and the weekly review show.
enum GrantTimesTable {
    /// Each store's row and its first `slicesPerStore` slices: charges, the share on time (marked when
    /// under the objective), charges late or not granted, median and 95th percentile.
    static func html(_ rows: [GrantTimes.Row], objective: SLOPolicy.TimeToGrantObjective, slicesPerStore: Int) -> HTML {
        let lines = shown(rows, slicesPerStore: slicesPerStore).map { row -> HTML in
            let summary = row.summary
            let share = NumberText.percent(summary.onTimeShare)
            // Under the objective is marked; the store's row is what the objective judges.
            let shareCell: HTML = (summary.onTimeShare ?? 1) < objective.objective.target ? "<td class=\"bad\">\(share)</td>" : "<td>\(share)</td>"
            return "<tr><td class=\"text\">\(row.scopeText)</td>\(shareCell)<td>\(NumberText.count(Int64(summary.late)))</td>"
                + "<td>\(summary.median?.text ?? "")</td><td>\(summary.p95?.text ?? "")</td><td>\(NumberText.count(Int64(summary.charges)))</td></tr>"
        }
        let within = NumberText.elapsed(millis: objective.withinSeconds * .millisPerSecond)
        return """
            <div class="scroll"><table><tr><th class="text">charges of</th><th>granted within \(within)</th><th>late or not granted</th>\
            <th>median</th><th>95th percentile</th><th>charges</th></tr>\
            \(HTML.joined(lines))</table></div><p class="muted">A charge's app version is the granting event's: charges not granted \
            have none. Slices are listed with the most charges late first.</p>
            """
    }

    /// Each store's row and, under it, its first `slicesPerStore` slices with charges late (slices with
    /// every charge on time say nothing the store's row does not).
    static func shown(_ rows: [GrantTimes.Row], slicesPerStore: Int) -> [GrantTimes.Row] {
        var shown: [GrantTimes.Row] = []
        var slicesShown: [Store: Int] = [:]
        for row in rows {
            if row.slice != nil {
                guard row.summary.late > 0, slicesShown[row.store, default: 0] < slicesPerStore else { continue }
                slicesShown[row.store, default: 0] += 1
            }
            shown.append(row)
        }
        return shown
    }
}
