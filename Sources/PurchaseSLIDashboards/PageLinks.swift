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

    /// Creates links.
    public init(baseURL: String? = nil, databasePath: String? = nil, refreshSeconds: Int64? = nil) {
        self.baseURL = baseURL
        self.databasePath = databasePath
        self.refreshSeconds = refreshSeconds
    }

    /// `context` with reports that name the database and link to the page among `definitions` that shows
    /// the context's app's alerts (``DashboardDefinition/alertPage(in:for:)``) and to the incidents' pages.
    public func linking(_ context: AlertContext, definitions: [DashboardDefinition]) -> AlertContext {
        var linked = context
        linked.databasePath = databasePath
        linked.alertPageURL = baseURL.map { "\($0)/\(DashboardDefinition.alertPage(in: definitions, for: context.app))" }
        linked.pagesURL = baseURL
        return linked
    }
}
