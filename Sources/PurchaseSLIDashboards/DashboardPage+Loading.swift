public import PurchaseSLIApplication

extension DashboardPage {
    /// The page of `definition` with its data read through `context` (``DashboardContext/load(_:firing:)``)
    /// for `alerts`.
    public static func load(definition: DashboardDefinition, context: DashboardContext, alerts: AlertSnapshot) async throws -> DashboardPage {
        DashboardPage(data: try await context.load(definition, firing: alerts.firing), frame: context.frame, alerts: alerts)
    }
}
