import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// The maintenance use case that `purchase-sli maintenance` and `/v1/maintenance` both call.
@Suite struct MaintenanceSchedulingTests {
    private let now: Int64 = 1_796_000_000
    private let policyWindow = MaintenanceWindow(
        id: "policy-1", startSeconds: 1_796_100_000, endSeconds: 1_796_103_600, reason: "the policy's", source: .policy)

    @Test func aDeclarationIsListedWithThePolicysInOrderAndRemovedOnce() async throws {
        let scheduling = MaintenanceScheduling(store: InMemoryBucketStore(), policyWindows: [policyWindow])
        let declared = try await scheduling.declare(
            MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", to: "2026-12-01T04:00:00Z", reason: "grant server migration"),
            id: "mw-1", nowSeconds: now)
        #expect(declared.id == "mw-1" && declared.createdSeconds == now && declared.source == .stored)
        #expect(try await scheduling.windows().map(\.id) == ["mw-1", "policy-1"])
        #expect(try await scheduling.remove(id: "mw-1") == declared)
        #expect(try await scheduling.remove(id: "mw-1") == nil)
        #expect(try await scheduling.remove(id: "policy-1") == nil, "a policy's window is removed from its file")
        #expect(try await scheduling.windows().map(\.id) == ["policy-1"])
    }

    @Test func aTakenIdAFieldAtFaultAndTooManyWindowsAreRefusedAndKeepNothing() async throws {
        let store = InMemoryBucketStore()
        let scheduling = MaintenanceScheduling(store: store, policyWindows: [])
        let declaration = MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", duration: "1h", reason: "deploy")
        _ = try await scheduling.declare(declaration, id: "mw-1", nowSeconds: now)
        await #expect(throws: MaintenanceRefusal.idTaken("mw-1")) { try await scheduling.declare(declaration, id: "mw-1", nowSeconds: now) }
        await #expect(throws: MaintenanceWindowError.self) {
            try await scheduling.declare(
                MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", to: "2026-12-01T01:00:00Z", reason: "backwards"), id: "mw-2", nowSeconds: now)
        }
        let windows = MaintenanceWindowRepository(store.sql)
        for index in 1..<MaintenanceScheduling.maximumStoredWindows {
            try await windows.record(
                MaintenanceWindow(id: "old-\(index)", startSeconds: Int64(index) * 3600, endSeconds: Int64(index) * 3600 + 60, reason: "old"))
        }
        await #expect(throws: MaintenanceRefusal.tooManyWindows(MaintenanceScheduling.maximumStoredWindows)) {
            try await scheduling.declare(declaration, id: "mw-3", nowSeconds: now)
        }
        #expect(try await windows.windows().count == MaintenanceScheduling.maximumStoredWindows)
    }

    @Test func moreThanAQuarterOfTwentyEightDaysNeedsForce() async throws {
        let scheduling = MaintenanceScheduling(store: InMemoryBucketStore(), policyWindows: [])
        let daily = MaintenanceDeclaration(from: "2026-12-01T00:00:00Z", duration: "8h", rrule: "FREQ=DAILY", reason: "nightly batch")
        await #expect {
            try await scheduling.declare(daily, id: "mw-1", nowSeconds: now)
        } throws: { error in
            (error as? MaintenanceRefusal)?.isOverridable == true
        }
        var forced = daily
        forced.force = true
        #expect(try await scheduling.declare(forced, id: "mw-1", nowSeconds: now).recurrence != nil)
    }
}
