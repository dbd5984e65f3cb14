public import PurchaseSLICore
public import PurchaseSLIStorage

/// The low-volume records every app's pages show beside the buckets, read once for a rendering: the
/// panels are given them, and read no store for them.
public struct DashboardRecords: Sendable {
    /// Every app's stored maintenance windows.
    public var maintenance: [MaintenanceWindow]
    /// Everything done to the stores' releases (every app's), oldest first.
    public var rolloutActions: [RolloutAction]

    /// The records given.
    public init(maintenance: [MaintenanceWindow], rolloutActions: [RolloutAction]) {
        self.maintenance = maintenance
        self.rolloutActions = rolloutActions
    }

    /// None: a store that keeps no window and has acted on no release.
    public static let empty = DashboardRecords(maintenance: [], rolloutActions: [])

    /// The records `store` keeps now.
    public static func read(from store: any SQLRecordStore) async throws -> DashboardRecords {
        async let maintenance = MaintenanceWindowRepository(store.sql).windows()
        async let actions = RolloutActionRepository(store.sql).actions(fromSeconds: .min)
        return DashboardRecords(maintenance: try await maintenance, rolloutActions: try await actions)
    }
}
