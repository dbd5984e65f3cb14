public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

/// Every app's ``SLOSnapshot`` at one minute, as `/metrics/slo` exposes them: the stored maintenance windows
/// are read apart (``storedWindows()``), so that a caller keeping the last answer knows when a window added
/// or removed since makes it out of date, and each app is judged with them.
public struct SLOSnapshotting: Sendable {
    let store: any PurchaseStore
    let policy: SLOPolicy
    /// The apps judged apart (nil: every app's events together).
    public let apps: [String?]

    /// Snapshots of `store` under `policy`, one per app of `apps`.
    public init(store: any PurchaseStore, policy: SLOPolicy, apps: [String?]) {
        self.store = store
        self.policy = policy
        self.apps = apps
    }

    /// The maintenance windows stored now (the policy's are in ``SLOPolicy``).
    public func storedWindows() async throws -> [MaintenanceWindow] {
        try await MaintenanceWindowRepository(store.sql).windows()
    }

    /// Each app's snapshot at `minute`, in the order of ``apps``, with `windows` as the stored maintenance
    /// windows; computed on the compute pool, as an evaluation round is.
    public func snapshots(at minute: Int64, storedWindows windows: [MaintenanceWindow]) async throws -> [SLOSnapshot] {
        let (store, policy, apps) = (store, policy, apps)
        return try await onComputePool {
            var snapshots: [SLOSnapshot] = []
            for app in apps {
                snapshots.append(try await AlertContext(store: store, storedMaintenance: windows, policy: policy, app: app).sloSnapshot(at: minute))
            }
            return snapshots
        }
    }
}
