import PurchaseSLICore
public import PurchaseSLIRendering

/// Turns a dashboard definition into a page: each panel read from the context, in order.
public struct DashboardPage: Sendable {
    /// The definition.
    public let definition: DashboardDefinition
    /// The store, policy, time and range.
    public let context: DashboardContext
    /// The alerts at the page's time and over its range.
    public let alerts: AlertSnapshot

    /// Creates a page.
    public init(definition: DashboardDefinition, context: DashboardContext, alerts: AlertSnapshot) {
        self.definition = definition
        self.context = context
        self.alerts = alerts
    }

    /// The alerts firing, with their text, and for each action and metric they are about, its last 6 hours
    /// at 1-minute steps with the episodes named on the bands; on a phone the panel comes first.
    private func alertsPanel() async throws -> HTML {
        var recent = context
        recent.rangeSeconds = 6 * .secondsPerHour
        var charted = Set<String>()
        var charts: [HTML] = []
        for report in alerts.firing {
            let action = report.finding.labels.actionType
            // The evidence says what chart shows it (the store's charges are no event series: their text lists them).
            let metric: DashboardDefinition.ChartMetric? =
                switch report.finding.evidence.chartMetric {
                case .rate(let rate): .rate(rate)
                case .events: .events
                case nil: nil
                }
            guard let metric, charted.insert("\(action) \(metric)").inserted else { continue }
            await charts.append(
                try recent.chartPanel(
                    title: "\(action): the last 6 h", metric: metric, actionType: action, by: nil, stepSeconds: .secondsPerMinute,
                    bands: alerts.bands(for: action, until: context.atSeconds)))
        }
        return "<section class=\"firing-first\"><h2>Alerts firing</h2>\(alerts.deliveryBanner(zone: context.zone))"
            + "\(AlertOutput.html(alerts.firing, now: context.atSeconds, zone: context.zone))"
            + alerts.owingBanner(zone: context.zone)
            + "\(HTML.joined(charts))</section>"
    }

    /// The page, with links to the others.
    public func document(navigation: [(title: String, href: String)], generatedAtSeconds: Int64) async throws -> HTMLDocument {
        // Labelled as the alerts are: with the highest severity of their episode, so that a page calmed to a
        // ticket reads PAGE on its card as in the alert list and at the receiver.
        let firing = alerts.firing.map { report in
            var finding = report.finding
            finding.severity = report.severity
            return finding
        }
        var body: HTML =
            alerts.staleBanner(zone: context.zone) + alerts.incompleteBanner(zone: context.zone) + context.maintenanceBanner()
            + context.rolloutActionsBanner()
            + (definition.summary.isEmpty ? "" : "<p class=\"muted\">\(definition.summary)</p>")
        // What fires comes first at every width, then the objectives and the rest in the definition's order.
        func isAlerts(_ panel: DashboardDefinition.Panel) -> Bool {
            if case .alerts = panel { return true }
            return false
        }
        for panel in definition.panels.filter(isAlerts) + definition.panels.filter({ !isAlerts($0) }) {
            switch panel {
            case .objectives:
                body += try await context.objectivesPanel(firing: firing, freshness: alerts.freshness)
            case .alerts:
                await body += try alertsPanel()
            case let .chart(title, metric, actionType, by, step, overlay):
                await body += try context.chartPanel(
                    title: title, metric: metric, actionType: actionType, by: by, stepSeconds: step, overlayPreviousWeek: overlay,
                    bands: alerts.bands(for: actionType, until: context.atSeconds))
            case .signals:
                await body += try context.signalsPanel(firing: firing)
            case let .table(title, by, actionType, limit):
                await body += try context.tablePanel(title: title, by: by, actionType: actionType, limit: limit)
            case let .topErrors(actionType, window, limit):
                await body += try context.topErrorsPanel(actionType: actionType, windowSeconds: window, limit: limit)
            case .adoption(let step):
                await body += try context.adoptionPanel(stepSeconds: step)
            case let .rollout(candidate, baseline):
                body += try await context.rolloutPanel(candidate: candidate, baseline: baseline)
            case .reconciliation:
                body += try await context.reconciliationPanel()
            case .budget:
                await body += try context.budgetPanel()
            }
        }
        return HTMLDocument(
            title: definition.title(showing: context.app),
            subtitle: "\(context.zone.timestamp(context.fromSeconds)) to \(context.zone.timestamp(context.atSeconds)) "
                + "(\(NumberText.duration(context.rangeSeconds))) · \(FreshnessText.line(alerts.freshness, zone: context.zone))",
            navigation: navigation, body: body, generatedAtSeconds: generatedAtSeconds, zone: context.zone)
    }
}
