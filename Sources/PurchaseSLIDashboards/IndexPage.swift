import PurchaseSLIAnalysis
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
    public let context: DashboardContext
    /// The alerts firing at that time, and how recent the data is.
    public let alerts: AlertSnapshot

    /// The page.
    public func document(navigation: [(title: String, href: String)], generatedAtSeconds: Int64) -> HTMLDocument {
        let pages = HTML.joined(entries.map { "<li><a href=\"\($0.file)\">\($0.title)</a> — \($0.summary)</li>" })
        let firing = alerts.firing
        let pageCount = firing.filter { $0.severity == .page }.count
        let status: HTML = firing.isEmpty
            ? (alerts.alertsCannotSeeThePresent ? alerts.staleBanner
                : "<div class=\"banner\"><strong>No alert firing</strong> at \(RFC3339.format(seconds: context.atSeconds)).</div>")
            : "<div class=\"banner \(pageCount > 0 ? "bad" : "warn")\"><strong>\(firing.count) alert\(firing.count == 1 ? "" : "s") firing</strong> "
                + "(\(pageCount) page\(pageCount == 1 ? "" : "s")) at \(RFC3339.format(seconds: context.atSeconds)): see the pages below.</div>"
        return HTMLDocument(
            title: "purchase-sli dashboards",
            subtitle: "\(RFC3339.format(seconds: context.fromSeconds)) to \(RFC3339.format(seconds: context.atSeconds)) "
                + "(\(NumberText.duration(context.rangeSeconds))) · \(FreshnessText.line(alerts.freshness))",
            navigation: navigation, body: status + "<section><h2>Pages</h2><ul>\(pages)</ul></section>",
            generatedAtSeconds: generatedAtSeconds)
    }
}
