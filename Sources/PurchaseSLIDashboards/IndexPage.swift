import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
public import PurchaseSLIRendering

/// `index.html`: what each page is, the range they cover, when they were made, and what fires now.
public struct IndexPage: Sendable {
    /// One linked page.
    public struct Entry: Sendable {
        /// Its title.
        public var title: String
        /// Its file name.
        public var file: String
        /// What it is for.
        public var summary: String

        /// Creates an entry.
        public init(title: String, file: String, summary: String) {
            self.title = title
            self.file = file
            self.summary = summary
        }
    }

    /// The pages linked.
    public let entries: [Entry]
    /// The range and time of the dashboards.
    public let frame: DashboardFrame
    /// The alerts firing at that time, and how recent the data is.
    public let alerts: AlertSnapshot
    /// The page that shows the alerts, which the index links each firing alert to.
    public var alertPage = "oncall.html"

    /// Each firing alert, most urgent first, linked to its text on the alert page: severity, name, labels,
    /// since when, its incident.
    private var firingList: HTML {
        HTML.joined(
            alerts.firing.map { report in
                let labels = report.labelPairs.map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
                let severity = report.severity
                return "<li><span class=\"status \(severity == .page ? "bad" : "warn")\">\(severity.rawValue.uppercased())</span> "
                    + "<a href=\"\(alertPage)#\(report.finding.identity.anchor)\">\(report.finding.kind.rawValue) \(labels)</a> "
                    + "since \(frame.zone.timestamp(report.startsAt)) (\(NumberText.duration(frame.atSeconds - report.startsAt)))"
                    + (report.incident.map { incident in
                        " · incident "
                            + (report.incidentURL.map { HTML(trusted: "<a href=\"\(HTML.escape($0))\">\(incident.id)</a>") } ?? "\(incident.id)")
                    } ?? "")
                    + (report.costText.map { " · \(HTML(trusted: $0.rendered(.html, zone: frame.zone)))" } ?? "")
                    + (report.incidentRecord?.acknowledgementText.map { " · \(HTML(trusted: $0.rendered(.html, zone: frame.zone)))" } ?? "")
                    + "</li>"
            })
    }

    /// The page.
    public func document(navigation: [(title: String, href: String)], generatedAtSeconds: Int64) -> HTMLDocument {
        let pages = HTML.joined(entries.map { "<li><a href=\"\($0.file)\">\($0.title)</a> — \($0.summary)</li>" })
        let firing = alerts.firing
        let pageCount = firing.filter { $0.severity == .page }.count
        let status: HTML =
            firing.isEmpty
            ? (alerts.alertsCannotSeeThePresent
                ? alerts.staleBanner(zone: frame.zone)
                : "<div class=\"banner\"><strong>No alert firing</strong> at \(frame.zone.timestamp(frame.atSeconds)).</div>")
            : "<div class=\"banner \(pageCount > 0 ? "bad" : "warn")\"><strong>\(firing.count) alert\(firing.count == 1 ? "" : "s") firing</strong> "
                + "(\(pageCount) page\(pageCount == 1 ? "" : "s")) at \(frame.zone.timestamp(frame.atSeconds)):<ul>\(firingList)</ul></div>"
        return HTMLDocument(
            title: "purchase-sli dashboards",
            subtitle: "\(frame.zone.timestamp(frame.fromSeconds)) to \(frame.zone.timestamp(frame.atSeconds)) "
                + "(\(NumberText.duration(frame.rangeSeconds))) · \(FreshnessText.line(alerts.freshness, zone: frame.zone))",
            navigation: navigation,
            body: alerts.deliveryBanner(zone: frame.zone) + status + alerts.owingBanner(zone: frame.zone)
                + alerts.incompleteBanner(zone: frame.zone)
                + "<section><h2>Pages</h2><ul>\(pages)</ul></section>",
            generatedAtSeconds: generatedAtSeconds, zone: frame.zone)
    }
}
