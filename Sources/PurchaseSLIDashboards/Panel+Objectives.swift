import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// One card per action with an objective: the success rate against the objective (the firing burn
    /// alert's short window and figure while it burns, else the last hour's), the 1 h / 6 h / 24 h / 7 d
    /// success and burn rates, the error budget left, the trend, and a status (the most urgent burn alert
    /// firing against the objective; else STALE or NO DATA when its newest event is older than the
    /// loss-of-signal window; else BELOW OBJECTIVE when the last hour fails the objective beyond chance;
    /// else UNDER OBJECTIVE when it fails more than twice the error budget on too few events to tell; only
    /// then OK), with a badge for each other alert firing on the action ("PAGE: ChargedNotGranted").
    func objectivesPanel(_ data: ObjectivesPanelData, firing: [AlertFinding], freshness: DataFreshness) -> HTML {
        let (windows, trend) = (data.counts, data.trend)
        let maintenance = maintenance()
        let cards = policy.objectives.map { objective -> HTML in
            let action = objective.actionType
            // The card's status is its objective's: the burn alerts spending its budget. Other alerts on the
            // action (charges not granted, a cancel spike, a silence) are named beside it, so that a rate
            // above the objective is not shown red for them, nor their page hidden.
            // Alerts about a store's records (its charges, their time to grant) have cards of their own too.
            // The store's alerts on the action (its charges not granted) are named too, never shown as OK beside.
            let onAction = firing.filter { $0.labels.actionType == action }
            let severity = onAction.filter { $0.labels.store == nil && $0.evidence.objective?.actionType == action }.map(\.severity).max()
            var others: [(kind: AlertFinding.Kind, severity: Severity)] = []
            for alert in onAction.filter({ $0.labels.store != nil || $0.evidence.objective?.actionType != action })
                .sorted(by: { $0.severity > $1.severity })
            where !others.contains(where: { $0.kind == alert.kind }) {
                others.append((alert.kind, alert.severity))
            }
            let isFresh = !freshness.isStale(action)
            let lastHour = windows[.secondsPerHour]?[action] ?? OutcomeCounts()
            // Inside a maintenance window the figures leave out what happens now: never shown as OK.
            let inMaintenance = !maintenance.excludedRanges(of: action, from: atSeconds - .secondsPerMinute, to: atSeconds).isEmpty
            let hourTouched = !maintenance.excludedRanges(of: action, from: atSeconds - .secondsPerHour, to: atSeconds).isEmpty
            // Failing now beyond chance reads as such even when no rule fires (yet, or on thin traffic).
            let failingNow = isFresh && policy.missesObjectiveBeyondChance(lastHour, objective: objective)
            let budgetCounts = windows[atSeconds - objective.window.period(at: atSeconds).startSeconds]?[action] ?? OutcomeCounts()
            let budgetLeft = objective.budgetSpent(budgetCounts).map { 1 - $0 }
            let quiet: HTML? =
                if !isFresh { "<span class=\"status none\">\(FreshnessText.status(freshness, action: action))</span>" } else if inMaintenance {
                    "<span class=\"status none\">MAINTENANCE</span>"
                } else if failingNow { "<span class=\"status bad\">BELOW OBJECTIVE</span>" }
                // Far under the objective on too few events to be sure is not OK either: 81.8 % of 11 retries
                // against 95 % reads as a warning, not green.
                else if (objective.burnRate(lastHour) ?? 0) > 2 { "<span class=\"status warn\">UNDER OBJECTIVE</span>" } else { nil }
            let (status, alsoFiring) = Self.cardStatus(own: severity, others: others, quiet: quiet, budgetSpent: (budgetLeft ?? 0) < 0)
            // While the action burns, the headline is the alert's own window and figure; else the last hour.
            let burn = firing.first { $0.labels == SeriesLabels(actionType: action) }?.evidence(as: BurnEvidence.self)
            let headline: (rate: Double?, caption: String) =
                burn.map { burn -> (rate: Double?, caption: String) in
                    (
                        burn.shortWindow.successRate,
                        "success rate over the last \(TimeStep(seconds: burn.shortWindowSeconds)) "
                            + "(\(NumberText.count(burn.shortWindow.valid)) valid), as the alert reads"
                    )
                }
                ?? (
                    lastHour.successRate,
                    (objective.weight == .revenue ? "revenue success rate, last hour" : "success rate, last hour")
                        + (hourTouched ? " outside maintenance" : "")
                        + " (\(NumberText.count(lastHour.valid))\(objective.weight == .revenue ? " effective" : "") valid)"
                )
            let rate = headline.rate
            // Coloured by what fires or fails now: a rate below the objective on thin traffic is not yet news;
            // old data is not good news.
            let tone =
                severity == .page || failingNow
                ? "bad"
                : severity == .ticket
                    ? "warn"
                    // Never green while another alert fires on the action: the rate is not the whole story.
                    : (rate ?? 0) >= objective.target && isFresh && !inMaintenance && others.isEmpty ? "ok" : ""
            let rows = ObjectivesPanelData.windows.map { window -> HTML in
                let counts = windows[window.seconds]?[action] ?? OutcomeCounts()
                let burn = objective.burnRate(counts)
                // The unformatted numbers go with the cells, for the table's CSV (``TableCSV``).
                return
                    "<tr><td>\(window.label)</td><td\(Self.dataValue(counts.successRate.map { $0 * 100 }))>\(NumberText.percent(counts.successRate))</td>"
                    + "<td\(Self.dataValue(burn))>\(burn.map { String(format: "%.1f×", $0) } ?? "n/a")</td>"
                    + "<td data-value=\"\(counts.valid)\">\(NumberText.count(counts.valid))</td></tr>"
            }
            var budgetText: HTML = "<p class=\"muted\">no valid events over \(objective.window.description)</p>"
            if let budgetLeft {
                budgetText = Self.budgetLine(left: budgetLeft, window: objective.window, basis: data.budgetBases[action])
            }
            let budget: HTML =
                budgetText
                + maintenanceNote(
                    maintenance.bands(from: objective.window.period(at: atSeconds).startSeconds, to: atSeconds).filter {
                        $0.window.covers(action: action)
                    })
            let spark = Sparkline(
                values: (trend.byKey[[action]] ?? []).map(\.successRate), caption: "success rate per \(NumberText.duration(trend.stepSeconds))",
                format: { NumberText.percent($0) }, higherIsWorse: false)
            return """
                <div class="card"><h3>\(action) \(status)</h3>\(alsoFiring)
                <div class="big \(tone)">\(NumberText.percent(rate))</div>
                <div class="meta">\(headline.caption) · objective \
                \(NumberText.percent(objective.target))\(objective.weight == .revenue ? " of revenue" : "") over \(objective.window.description) · \
                \(FreshnessText.line(freshness, action: action, zone: zone))</div>
                <table><tr><th>window</th><th data-value="success rate (%)">success rate</th><th>burn rate</th><th>valid</th></tr>\(HTML.joined(rows))</table>
                \(budget)<div>\(spark.html) <span class="meta">\(NumberText.duration(rangeSeconds)) trend</span></div></div>
                """
        }
        return
            "<section><h2>Objectives</h2><div class=\"grid\">\(HTML.joined(cards))\(data.grantTimes.map { grantTimeCards($0, firing: firing) } ?? "")</div></section>"
    }

    /// A card's one status: its own alert's severity (PAGE, TICKET); else the most urgent other alert firing
    /// on what it measures ("PAGE: ChargedNotGranted": a rate above its objective is no all-clear while
    /// money is not delivered); else `quiet` (stale, maintenance, below objective); else BUDGET SPENT when
    /// the budget is spent; else OK. The other alerts the status does not name are listed under it.
    static func cardStatus(
        own: Severity?, others: [(kind: AlertFinding.Kind, severity: Severity)], quiet: HTML?, budgetSpent: Bool
    ) -> (status: HTML, alsoFiring: HTML) {
        func badge(_ severity: Severity, _ text: String) -> HTML {
            "<span class=\"status \(severity == .page ? "bad" : "warn")\">\(text)</span>"
        }
        var unnamed = others
        let status: HTML
        if let own {
            status = badge(own, own.rawValue.uppercased())
        } else if let top = others.first {
            status = badge(top.severity, "\(top.severity.rawValue.uppercased()): \(top.kind.rawValue)")
            unnamed.removeFirst()
        } else if let quiet {
            status = quiet
        } else if budgetSpent {
            status = "<span class=\"status warn\">BUDGET SPENT</span>"
        } else {
            status = "<span class=\"status ok\">OK</span>"
        }
        let also: HTML =
            unnamed.isEmpty
            ? ""
            : "<p class=\"meta\">also firing: "
                + HTML.joined(unnamed.map { "\($0.kind.rawValue) (\($0.severity.rawValue))" }, separator: ", ") + "</p>"
        return (status, also)
    }

    /// "Maintenance left out of these figures: …" naming up to three of the windows' occurrences (newest
    /// first), or nothing.
    func maintenanceNote(_ bands: [MaintenanceCalendar.Band]) -> HTML {
        guard !bands.isEmpty else { return "" }
        let named = bands.reversed().prefix(3).map { band in
            "\(band.window.reason) (\(zone.minute(band.range.lowerBound)) "
                + "for \(NumberText.duration(band.range.upperBound - band.range.lowerBound)))"
        }
        let more = bands.count > 3 ? " and \(bands.count - 3) more" : ""
        return "<p class=\"meta\">Maintenance left out of these figures: \(named.joined(separator: "; "))\(more)</p>"
    }

    /// ` data-value="99.31"`: a cell's unformatted number for its table's CSV; empty without one.
    static func dataValue(_ value: Double?) -> HTML {
        value.map { HTML(trusted: " data-value=\"\(String($0))\"") } ?? ""
    }

    /// "error budget left over 28d: 72.1 %" (or "overspent by …") with its bar; "over 28d (2 days of data)"
    /// when its data holds less of the window than all of it.
    static func budgetLine(left: Double, window: SLOWindow, basis: BudgetBasis? = nil) -> HTML {
        "<p>error budget left over \(StoreCoverageText.window(window, basis: basis)): <strong class=\"\(left < 0 ? "bad" : left < 0.25 ? "warn" : "ok")\">"
            + "\(left >= 0 ? NumberText.percent(left) : "overspent by " + NumberText.percent(-left))</strong> "
            + IntervalBar(value: max(0, left), scale: 1, isBad: left < 0.25, caption: "error budget left").html + "</p>"
    }
}
