import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// The maintenance windows an alert context leaves out: the policy's and the stored ones, each of every
/// app or of the app evaluated, read when the context is made and again when it is reloaded.
@Suite struct AlertContextMaintenanceTests {
    private func window(_ id: String, app: String = "", source: MaintenanceWindow.Source = .stored) -> MaintenanceWindow {
        MaintenanceWindow(id: id, app: app, startSeconds: 1_795_000_000, endSeconds: 1_795_003_600, reason: id, source: source)
    }

    @Test func anAppSeesItsOwnAndEveryAppsWindowsAndNoOtherAppsOnes() async throws {
        let store = InMemoryBucketStore()
        let stored = MaintenanceWindowRepository(store.sql)
        for (id, app) in [("mw-every", ""), ("mw-coins", "com.example.coins"), ("mw-premium", "com.example.premium")] {
            try await stored.record(window(id, app: app))
        }
        var policy = SLOPolicy.default
        policy.maintenance = [window("policy-1", source: .policy), window("policy-2", app: "com.example.premium", source: .policy)]
        let coins = try await AlertContext(store: store, policy: policy, app: "com.example.coins")
        #expect(Set(coins.maintenance().windows.map(\.id)) == ["policy-1", "mw-every", "mw-coins"])
        let everyApp = try await AlertContext(store: store, policy: policy)
        #expect(Set(everyApp.maintenance().windows.map(\.id)) == ["policy-1", "mw-every"], "one app's window is no window of every app's counts")
        // Given every app's windows, a context still keeps only those its app sees.
        let given = AlertContext(store: store, storedMaintenance: try await stored.windows(), policy: policy, app: "com.example.premium")
        #expect(Set(given.maintenance().windows.map(\.id)) == ["policy-1", "policy-2", "mw-every", "mw-premium"])
    }

    @Test func aReloadedContextSeesTheWindowsDeclaredSinceOfEveryApp() async throws {
        let store = InMemoryBucketStore()
        let context = try await AlertContext(store: store, policy: .default)
        try await MaintenanceWindowRepository(store.sql).record(window("mw-1"))
        try await MaintenanceWindowRepository(store.sql).record(window("mw-coins", app: "com.example.coins"))
        #expect(context.maintenance().windows.isEmpty)
        #expect(try await context.reloaded().maintenance().windows.map(\.id) == ["mw-1"])
    }
}
