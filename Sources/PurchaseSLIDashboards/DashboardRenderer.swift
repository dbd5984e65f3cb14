import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage

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

    /// Creates a renderer.
    public init(definitions: [DashboardDefinition], context: DashboardContext) {
        self.definitions = definitions
        self.context = context
    }

    /// Step of the backtest that finds the alert episodes shaded on the charts.
    static let episodeStepSeconds: Int64 = 300

    /// Each dashboard, the weekly review of the last whole ISO week before the context's time, and
    /// `index.html` linking them all.
    public func render(generatedAtSeconds: Int64) throws -> [File] {
        // One 5-minute backtest covers the range (its episodes shade the charts) and the reviewed week
        // (its incidents), which may start before the range.
        let week = ISOWeek(containing: context.atSeconds).previous
        let alertContext = AlertContext(store: context.store, policy: context.policy)
        let alerts = AlertSnapshot(
            firing: try alertContext.firingReports(at: context.atSeconds),
            episodes: try alertContext.episodeReports(
                from: min(context.fromSeconds, week.startSeconds), to: context.atSeconds, stepSeconds: Self.episodeStepSeconds),
            freshness: try alertContext.freshness(at: context.atSeconds))
        let weeklyReport = try WeeklyReport(week: week, store: context.store, policy: context.policy, episodes: alerts.episodes)
        let otherPages = [IndexPage.Entry(
            title: "Weekly review \(weeklyReport.week)", file: weeklyReport.fileName,
            summary: "SLO attainment, week-over-week changes, incidents and a summary for the review notes (\(weeklyReport.dateRange)).")]
        let navigation = [(title: "Index", href: "index.html")] + definitions.map { (title: $0.title, href: $0.file) }
            + otherPages.map { (title: $0.title, href: $0.file) }
        var files = try definitions.map { definition in
            let page = DashboardPage(definition: definition, context: context, alerts: alerts)
            return File(name: definition.file, html: try page.document(navigation: navigation, generatedAtSeconds: generatedAtSeconds).rendered)
        }
        files.append(File(name: weeklyReport.fileName, html: weeklyReport.document(
            navigation: navigation, generatedAtSeconds: generatedAtSeconds).rendered))
        let entries = definitions.map { IndexPage.Entry(title: $0.title, file: $0.file, summary: $0.summary) } + otherPages
        let index = IndexPage(entries: entries, context: context, alerts: alerts)
        files.append(File(name: "index.html", html: index.document(navigation: navigation, generatedAtSeconds: generatedAtSeconds).rendered))
        return files
    }
}
