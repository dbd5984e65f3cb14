public import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

/// Renders every dashboard of a set, and the index that links them, for one time and range.
public struct DashboardRenderer: Sendable {
    /// One rendered file.
    public struct File: Sendable {
        /// Its name in the output directory.
        public var name: String
        /// Its contents.
        public var html: String

        /// Creates a file.
        public init(name: String, html: String) {
            self.name = name
            self.html = html
        }
    }

    /// The dashboards, in index order.
    public let definitions: [DashboardDefinition]
    /// Store, policy, time and range.
    public let context: DashboardContext
    /// What the pages link to, and whether they reload themselves.
    public var links: PageLinks
    /// The alert rules the pages show (nil: the standard ones).
    public let rules: [any AlertRule]?
    /// The notification receivers that have failed every delivery for a while, each with its stand-in
    /// (``NotificationDeliveries/outages(at:)``): the index and the alert page say that nobody was notified,
    /// or through which fallback.
    public var deliveryOutages: [NotificationDeliveries.Outage] = []

    /// Creates a renderer of the alerts of `rules` (by default the standard ones).
    public init(
        definitions: [DashboardDefinition], context: DashboardContext, links: PageLinks = PageLinks(), rules: [any AlertRule]? = nil
    ) {
        self.definitions = definitions
        self.context = context
        self.links = links
        self.rules = rules
    }

    /// The files of one directory: the top set, or one app's below `apps/`.
    public struct PageSet: Sendable {
        /// Its directory below the output directory: empty for the top set, `apps/<dir>` for an app's
        /// (``PurchaseSLIApplication/AppSlug/of(_:)`` writes `<dir>`).
        public var directory: String
        /// Its files.
        public var files: [File]
    }

    /// Each dashboard (a definition with `app:` shows that app alone), the weekly review of the last whole
    /// ISO week before the context's time, the report of each incident they show
    /// (``PurchaseSLIApplication/IncidentReport/fileName(ofID:app:)``), and `index.html` linking them all.
    public func render(generatedAtSeconds: Int64) async throws -> [File] {
        try await renderSet(generatedAtSeconds: generatedAtSeconds, apps: [], up: nil).files
    }

    /// The set ``render(generatedAtSeconds:)`` writes, and one set per app of `apps` in `apps/<dir>/`: the
    /// dashboards without `app:` (and those naming the app) showing that app alone, its weekly review, its
    /// incidents and its index, which links back to the top; the top index lists every app with what fires
    /// for it. Apps' sets first, so that a reader of the top index finds them written. Alert text of each
    /// app links into its own directory (``PageLinks/appsWithPages``), wherever it is shown. An app given
    /// twice is written once; without apps, the set of ``render(generatedAtSeconds:)`` alone.
    public func render(eachApp apps: [String], generatedAtSeconds: Int64) async throws -> [PageSet] {
        var links = links
        links.appsWithPages.formUnion(apps)
        var sets: [PageSet] = []
        var entries: [IndexPage.AppEntry] = []
        for app in apps.enumerated().filter({ !apps[..<$0.offset].contains($0.element) }).map(\.element) {
            var context = context
            context.app = app
            var renderer = DashboardRenderer(
                definitions: definitions.filter { $0.app == nil || $0.app == app }, context: context, links: links, rules: rules)
            renderer.deliveryOutages = deliveryOutages
            let directory = DashboardRenderer.directory(of: app)
            let rendered = try await renderer.renderSet(
                generatedAtSeconds: generatedAtSeconds, apps: [], up: (title: "All apps", href: "../../index.html"))
            sets.append(PageSet(directory: directory, files: rendered.files))
            entries.append(IndexPage.AppEntry(app: app, directory: directory, alertPage: rendered.alertPage, alerts: rendered.alerts))
        }
        var top = self
        top.links = links
        return sets + [PageSet(directory: "", files: try await top.renderSet(generatedAtSeconds: generatedAtSeconds, apps: entries, up: nil).files)]
    }

    /// The directory of `app`'s page set below the output directory: `apps/<AppSlug>`.
    public static func directory(of app: String) -> String {
        "apps/" + AppSlug.of(app)
    }

    /// The files of ``render(generatedAtSeconds:)``, with `apps` listed on the index and `up` first in every
    /// page's navigation; with the alerts they show of the context's app and the page that shows them.
    private func renderSet(
        generatedAtSeconds: Int64, apps: [IndexPage.AppEntry], up: (title: String, href: String)?
    ) async throws -> (files: [File], alerts: AlertSnapshot, alertPage: String) {
        // One backtest at a minute's step per app shown (as `alerts` and `report` evaluate, so the review says
        // the same whichever wrote it) covers the range (its episodes shade the charts), the reviewed week (its
        // incidents), which may start before the range, and what fires at the page's time.
        let week = ISOWeek(containing: context.atSeconds, in: context.zone).previous
        var snapshots: [String?: AlertSnapshot] = [:]
        var incidentPages: [String: HTMLDocument] = [:]
        func alerts(of app: String?) async throws -> AlertSnapshot {
            if let known = snapshots[app] { return known }
            let alertContext = links.linking(
                AlertContext(
                    store: context.everyApp, storedMaintenance: context.records.maintenance, policy: context.frame.everyAppPolicy, app: app,
                    rules: rules),
                definitions: definitions)
            let snapshot = try await alertContext.snapshotAndIncidentReports(from: min(context.fromSeconds, week.startSeconds), at: context.atSeconds)
            // Each incident shown gets its report beside the pages, which its alerts link to.
            func linked(_ report: AlertReport) -> AlertReport {
                guard let incident = report.incident, let incidentReport = snapshot.incidents[incident.id] else { return report }
                var report = report
                let name = IncidentReport.fileName(ofID: incident.id, app: app)
                if report.incidentURL == nil { report.incidentURL = name }
                if incidentPages[name] == nil {
                    var written = incidentReport
                    written.zone = context.zone
                    incidentPages[name] = written.document(navigation: [], generatedAtSeconds: generatedAtSeconds)
                }
                return report
            }
            var shown = await AlertSnapshot(
                firing: snapshot.firing.map(linked), episodes: snapshot.episodes.map(linked),
                freshness: try alertContext.freshness(at: context.atSeconds),
                rules: alertContext.rules)
            shown.deliveryOutages = deliveryOutages
            snapshots[app] = shown
            return shown
        }
        let shown = try await alerts(of: context.app)
        let weeklyReport = try await WeeklyReport(week: week, context: context.alerting(), episodes: shown.episodes)
        let otherPages = [
            IndexPage.Entry(
                title: "Weekly review \(weeklyReport.week)", file: weeklyReport.fileName,
                summary: "SLO attainment, week-over-week changes, incidents and a summary for the review notes (\(weeklyReport.dateRange)).")
        ]
        let navigation =
            (up.map { [$0] } ?? []) + [(title: "Index", href: "index.html")] + definitions.map { (title: $0.title, href: $0.file) }
            + otherPages.map { (title: $0.title, href: $0.file) }
        func file(_ name: String, _ document: HTMLDocument) -> File {
            var document = document
            document.refreshSeconds = links.refreshSeconds
            return File(name: name, html: document.rendered)
        }
        var files: [File] = []
        for definition in definitions {
            var pageContext = context
            pageContext.app = definition.app ?? context.app
            let page = try await DashboardPage.load(definition: definition, context: pageContext, alerts: try await alerts(of: pageContext.app))
            files.append(file(definition.file, page.document(navigation: navigation, generatedAtSeconds: generatedAtSeconds)))
        }
        files.append(file(weeklyReport.fileName, weeklyReport.document(navigation: navigation, generatedAtSeconds: generatedAtSeconds)))
        for (name, document) in incidentPages.sorted(by: { $0.key < $1.key }) {
            var page = document
            page.navigation = navigation
            files.append(file(name, page))
        }
        let entries =
            definitions.map { definition in
                IndexPage.Entry(
                    title: definition.title(showing: definition.app ?? context.app), file: definition.file,
                    summary: definition.summary)
            } + otherPages
        var index = IndexPage(entries: entries, frame: context.frame, alerts: shown)
        index.alertPage = DashboardDefinition.alertPage(in: definitions, for: context.app)
        index.app = context.app
        index.apps = apps
        files.append(file("index.html", index.document(navigation: navigation, generatedAtSeconds: generatedAtSeconds)))
        return (files, shown, index.alertPage)
    }
}
