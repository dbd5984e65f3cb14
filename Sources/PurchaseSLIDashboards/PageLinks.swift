public import PurchaseSLIAnalysis
public import PurchaseSLIApplication
public import PurchaseSLICore
public import PurchaseSLIStorage

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

    /// The alert context of `store` (`app`'s view of it when given) and `policy` whose reports name the
    /// database and link to the page among `definitions` that shows the app's alerts
    /// (``DashboardDefinition/alertPage(in:for:)``), evaluating `rules` (by default the standard ones), with
    /// the maintenance windows stored now.
    public func alertContext(
        store: any PurchaseStore, policy: SLOPolicy, app: String? = nil, definitions: [DashboardDefinition], rules: [any AlertRule]? = nil
    ) async throws -> AlertContext {
        alertContext(
            store: store, storedMaintenance: try await MaintenanceWindowRepository(store.sql, app: app).windows(), policy: policy, app: app,
            definitions: definitions, rules: rules)
    }

    /// The alert context ``alertContext(store:policy:app:definitions:rules:)`` makes, with the stored
    /// maintenance windows given.
    public func alertContext(
        store: any PurchaseStore, storedMaintenance: [MaintenanceWindow], policy: SLOPolicy, app: String? = nil,
        definitions: [DashboardDefinition], rules: [any AlertRule]? = nil
    ) -> AlertContext {
        AlertContext(
            store: store, storedMaintenance: storedMaintenance, policy: policy, app: app, databasePath: databasePath,
            alertPageURL: baseURL.map { "\($0)/\(DashboardDefinition.alertPage(in: definitions, for: app))" }, pagesURL: baseURL,
            rules: rules)
    }
}
