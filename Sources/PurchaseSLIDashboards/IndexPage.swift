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

    /// One app whose pages are written apart (`render --each-app`, `serve` for the apps it names).
    public struct AppEntry: Sendable {
        /// The app.
        public var app: String
        /// Its pages' directory, relative to the index (``DashboardRenderer/directory(of:)``).
        public var directory: String
        /// The page of its set that shows its alerts.
        public var alertPage: String
        /// What fires for it at the index's time, and how recent its data is.
        public var alerts: AlertSnapshot

        /// Creates an entry.
        public init(app: String, directory: String, alertPage: String, alerts: AlertSnapshot) {
            self.app = app
            self.directory = directory
            self.alertPage = alertPage
            self.alerts = alerts
        }

        /// What its line says first: the most urgent of what its own index shows.
        var standing: Standing {
            if alerts.firing.contains(where: { $0.severity == .page }) { return .paging }
            if !alerts.firing.isEmpty { return .ticketing }
            if alerts.alertsCannotSeeThePresent { return .blind }
            if alerts.freshness.isIncomplete { return .incomplete }
            return alerts.owing.isEmpty ? .fine : .owed
        }
    }

    /// What an app's line says first, the most urgent first.
    enum Standing: Int, Comparable {
        /// A page fires.
        case paging
        /// A ticket fires, no page.
        case ticketing
        /// No alert can fire: its data stopped (STALE) or never came (NO DATA).
        case blind
        /// Clients dropped a share of its events unsent.
        case incomplete
        /// An incident whose alerts stopped still owes charges.
        case owed
        /// None of these.
        case fine

        static func < (lhs: Standing, rhs: Standing) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The pages linked.
    public let entries: [Entry]
    /// The range and time of the dashboards.
    public let frame: DashboardFrame
    /// The alerts firing at that time, and how recent the data is.
    public let alerts: AlertSnapshot
    /// The page that shows the alerts, which the index links each firing alert to.
    public var alertPage = "oncall.html"
    /// The app the pages show alone (nil: every app), named in the title.
    public var app: String?
    /// The apps whose pages are written apart, each linked with what fires for it; none: no such list.
    public var apps: [AppEntry] = []

    /// Creates the index of `entries` for `frame`, showing `alerts`.
    public init(entries: [Entry], frame: DashboardFrame, alerts: AlertSnapshot) {
        self.entries = entries
        self.frame = frame
        self.alerts = alerts
    }

    /// Each app of ``apps``, the most urgent first (a page firing, a ticket, no recent data), linked to its
    /// index, with its firing alerts linked to its alert page and how recent its data is.
    private var appList: HTML {
        guard !apps.isEmpty else { return "" }
        let items = apps.enumerated().sorted { ($0.element.standing, $0.offset) < ($1.element.standing, $1.offset) }.map { _, entry -> HTML in
            let firing = entry.alerts.firing
            let pages = firing.filter { $0.severity == .page }.count
            let badge: HTML =
                switch entry.standing {
                case .paging: "<span class=\"status bad\">PAGE</span>"
                case .ticketing: "<span class=\"status warn\">TICKET</span>"
                case .blind: "<span class=\"status warn\">\(FreshnessText.status(entry.alerts.freshness))</span>"
                case .incomplete: "<span class=\"status warn\">INCOMPLETE</span>"
                case .owed: "<span class=\"status warn\">STILL OWED</span>"
                case .fine: "<span class=\"status ok\">OK</span>"
                }
            let alerts = HTML.joined(
                firing.map { report in
                    let labels = report.labelPairs.map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
                    return "<li>\(report.severity.rawValue) <a href=\"\(entry.directory)/\(entry.alertPage)#\(report.finding.identity.anchor)\">"
                        + "\(report.finding.kind.rawValue) \(labels)</a> since \(frame.zone.timestamp(report.startsAt))</li>"
                })
            let summary: HTML =
                firing.isEmpty
                ? "no alert firing" : "\(firing.count) alert\(firing.count == 1 ? "" : "s") firing (\(pages) page\(pages == 1 ? "" : "s"))"
            return "<li>\(badge) <a href=\"\(entry.directory)/index.html\">\(entry.app)</a> — \(summary) · "
                + "\(FreshnessText.line(entry.alerts.freshness, zone: frame.zone))\(firing.isEmpty ? "" as HTML : "<ul>\(alerts)</ul>")</li>"
        }
        return "<section><h2>Apps, each judged on its own events</h2><ul>\(HTML.joined(items))</ul></section>"
    }

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
        // With apps listed, the banner is of every app together, and says which apps fire on their own events.
        let together: HTML = apps.isEmpty ? "" : " for every app together"
        let appsFiring = apps.filter { $0.standing <= .ticketing }
        let appsLine: HTML =
            appsFiring.isEmpty
            ? ""
            : "<p>Firing on their own events: "
                + HTML.joined(
                    appsFiring.map { "<a href=\"\($0.directory)/index.html\">\($0.app)</a> (\($0.standing == .paging ? "page" : "ticket"))" },
                    separator: ", ") + " (Apps, below).</p>"
        let status: HTML =
            firing.isEmpty
            ? (alerts.alertsCannotSeeThePresent
                ? alerts.staleBanner(zone: frame.zone)
                : "<div class=\"banner\(appsFiring.isEmpty ? "" : appsFiring.contains { $0.standing == .paging } ? " bad" : " warn")\">"
                    + "<strong>No alert firing</strong>\(together) at \(frame.zone.timestamp(frame.atSeconds)).\(appsLine)</div>")
            : "<div class=\"banner \(pageCount > 0 || appsFiring.contains { $0.standing == .paging } ? "bad" : "warn")\">"
                + "<strong>\(firing.count) alert\(firing.count == 1 ? "" : "s") firing</strong>\(together) "
                + "(\(pageCount) page\(pageCount == 1 ? "" : "s")) at \(frame.zone.timestamp(frame.atSeconds)):<ul>\(firingList)</ul>\(appsLine)</div>"
        return HTMLDocument(
            title: "purchase-sli dashboards" + (app.map { " · \($0)" } ?? ""),
            subtitle: "\(frame.zone.timestamp(frame.fromSeconds)) to \(frame.zone.timestamp(frame.atSeconds)) "
                + "(\(NumberText.duration(frame.rangeSeconds))) · \(FreshnessText.line(alerts.freshness, zone: frame.zone))",
            navigation: navigation,
            body: alerts.deliveryBanner(zone: frame.zone) + status + alerts.owingBanner(zone: frame.zone)
                + alerts.incompleteBanner(zone: frame.zone)
                + appList + "<section><h2>Pages</h2><ul>\(pages)</ul></section>",
            generatedAtSeconds: generatedAtSeconds, zone: frame.zone)
    }
}
