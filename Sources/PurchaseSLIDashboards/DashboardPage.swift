public import PurchaseSLIRendering
import PurchaseSLICore

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

    /// The page, with links to the others.
    public func document(navigation: [(title: String, href: String)], generatedAtSeconds: Int64) throws -> HTMLDocument {
        let firing = alerts.firing.map(\.finding)
        var body: HTML = alerts.staleBanner + (definition.summary.isEmpty ? "" : "<p class=\"muted\">\(definition.summary)</p>")
        for panel in definition.panels {
            switch panel {
            case .objectives:
                body += try context.objectivesPanel(firing: firing, freshness: alerts.freshness)
            case .alerts:
                body += "<section><h2>Alerts firing</h2>\(AlertOutput.html(alerts.firing, now: context.atSeconds))</section>"
            case let .chart(title, metric, actionType, by, step):
                body += try context.chartPanel(
                    title: title, metric: metric, actionType: actionType, by: by, stepSeconds: step,
                    bands: alerts.bands(for: actionType, until: context.atSeconds))
            case .signals:
                body += try context.signalsPanel(firing: firing)
            case let .table(title, by, actionType, limit):
                body += try context.tablePanel(title: title, by: by, actionType: actionType, limit: limit)
            case let .topErrors(actionType, window, limit):
                body += try context.topErrorsPanel(actionType: actionType, windowSeconds: window, limit: limit)
            case .adoption(let step):
                body += try context.adoptionPanel(stepSeconds: step)
            case let .rollout(candidate, baseline):
                body += try context.rolloutPanel(candidate: candidate, baseline: baseline)
            }
        }
        return HTMLDocument(
            title: definition.title,
            subtitle: "\(RFC3339.format(seconds: context.fromSeconds)) to \(RFC3339.format(seconds: context.atSeconds)) "
                + "(\(NumberText.duration(context.rangeSeconds))) · \(FreshnessText.line(alerts.freshness))",
            navigation: navigation, body: body, generatedAtSeconds: generatedAtSeconds)
    }
}
