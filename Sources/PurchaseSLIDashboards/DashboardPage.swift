public import PurchaseSLIApplication
import PurchaseSLICore
public import PurchaseSLIRendering

/// Turns a page's data into the page: each panel rendered from its data and the page's frame, in order.
public struct DashboardPage: Sendable {
    /// The definition and each panel's data.
    public let data: DashboardPageData
    /// The policy, app, time, range and zone.
    public let frame: DashboardFrame
    /// The alerts at the page's time and over its range.
    public let alerts: AlertSnapshot

    /// Creates a page of `data`.
    public init(data: DashboardPageData, frame: DashboardFrame, alerts: AlertSnapshot) {
        self.data = data
        self.frame = frame
        self.alerts = alerts
    }

    /// The alerts firing, with their text, and for each action and metric they are about, its last 6 hours
    /// at 1-minute steps (`charts`) with the episodes named on the bands; on a phone the panel comes first.
    private func alertsPanel(_ charts: [ChartPanelData]) -> HTML {
        let drawn = charts.map { chart in
            frame.chartPanel(chart, colours: data.versionColours, bands: alerts.bands(for: chart.actionType, until: frame.atSeconds))
        }
        return "<section class=\"firing-first\"><h2>Alerts firing</h2>\(alerts.deliveryBanner(zone: frame.zone))"
            + "\(AlertOutput.html(alerts.firing, now: frame.atSeconds, zone: frame.zone))"
            + alerts.owingBanner(zone: frame.zone)
            + "\(HTML.joined(drawn))</section>"
    }

    /// The page, with links to the others.
    public func document(navigation: [(title: String, href: String)], generatedAtSeconds: Int64) -> HTMLDocument {
        // Labelled as the alerts are: with the highest severity of their episode, so that a page calmed to a
        // ticket reads PAGE on its card as in the alert list and at the receiver.
        let firing = alerts.firing.map { report in
            var finding = report.finding
            finding.severity = report.severity
            return finding
        }
        let definition = data.definition
        var body: HTML =
            alerts.staleBanner(zone: frame.zone) + alerts.incompleteBanner(zone: frame.zone) + frame.maintenanceBanner()
            + frame.rolloutActionsBanner() + data.overflow.banner(app: frame.app)
            + (definition.summary.isEmpty ? "" : "<p class=\"muted\">\(definition.summary)</p>")
        // What fires comes first at every width, then the objectives and the rest in the definition's order.
        func isAlerts(_ panel: PanelData) -> Bool {
            if case .alerts = panel { return true }
            return false
        }
        for panel in data.panels.filter(isAlerts) + data.panels.filter({ !isAlerts($0) }) {
            switch panel {
            case .objectives(let objectives):
                body += frame.objectivesPanel(objectives, firing: firing, freshness: alerts.freshness)
            case .alerts(let charts):
                body += alertsPanel(charts)
            case .chart(let chart):
                body += frame.chartPanel(
                    chart, colours: data.versionColours, bands: alerts.bands(for: chart.actionType, until: frame.atSeconds))
            case .signals(let signals):
                body += frame.signalsPanel(signals, firing: firing)
            case .table(let table):
                body += frame.tablePanel(table)
            case .topErrors(let errors):
                body += frame.topErrorsPanel(errors)
            case .adoption(let adoption):
                body += frame.adoptionPanel(adoption, colours: data.versionColours)
            case .rollout(let rollout):
                body += frame.rolloutPanel(rollout, colours: data.versionColours)
            case .reconciliation(let reconciliation):
                body += frame.reconciliationPanel(reconciliation)
            case .budget(let cards):
                body += frame.budgetPanel(cards)
            }
        }
        return HTMLDocument(
            title: definition.title(showing: frame.app),
            subtitle: "\(frame.zone.timestamp(frame.fromSeconds)) to \(frame.zone.timestamp(frame.atSeconds)) "
                + "(\(NumberText.duration(frame.rangeSeconds))) · \(FreshnessText.line(alerts.freshness, zone: frame.zone))",
            navigation: navigation, body: body, generatedAtSeconds: generatedAtSeconds, zone: frame.zone)
    }
}
