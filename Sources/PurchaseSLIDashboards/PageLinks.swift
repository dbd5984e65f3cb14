public import PurchaseSLIApplication

/// What rendered pages, and the alert text on them, point to, and whether the pages reload themselves.
public struct PageLinks: Sendable, Hashable {
    /// Where the pages are served (`https://sli.example.com`, no trailing slash), or nil.
    public var baseURL: String?
    /// The database the alert text's "look next" queries name (`--db`), or nil.
    public var databasePath: String?
    /// How often a page served by `serve` reloads itself (a meta refresh, no script), or nil for a page
    /// written once.
    public var refreshSeconds: Int64?
    /// The apps whose pages are written apart below `baseURL` (``DashboardRenderer/directory(of:)``): the
    /// alert text of each links to its own pages there.
    public var appsWithPages: Set<String> = []

    /// Creates links.
    public init(baseURL: String? = nil, databasePath: String? = nil, refreshSeconds: Int64? = nil) {
        self.baseURL = baseURL
        self.databasePath = databasePath
        self.refreshSeconds = refreshSeconds
    }

    /// `context` with reports that name the database and link to the page among `definitions` that shows
    /// the context's app's alerts (``DashboardDefinition/alertPage(in:for:)``) and to the incidents' pages,
    /// in the app's own directory when its pages are written apart.
    public func linking(_ context: AlertContext, definitions: [DashboardDefinition]) -> AlertContext {
        var linked = context
        let pagesURL = baseURL.map { base in
            context.app.flatMap { appsWithPages.contains($0) ? "\(base)/\(DashboardRenderer.directory(of: $0))" : nil } ?? base
        }
        linked.databasePath = databasePath
        linked.alertPageURL = pagesURL.map { "\($0)/\(DashboardDefinition.alertPage(in: definitions, for: context.app))" }
        linked.pagesURL = pagesURL
        return linked
    }
}
