import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

#if PostgreSQL
import PurchaseSLIPostgres
#endif

/// What ``MaintenanceWindowRepository`` does on every backend: the one implementation over each
/// backend's ``SQLExecutor``, held to the same fixtures and expectations.
@Suite("Maintenance window contract")
struct MaintenanceWindowContractTests {
    private let weekly = MaintenanceWindow(
        id: "mw-0000000a", startSeconds: 1_795_000_000, endSeconds: 1_795_001_800,
        recurrence: try! RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=SU,WE;COUNT=10"), actions: ["purchase", "restore"],
        reason: "weekly deploy é", createdSeconds: 1_794_990_000)

    private func window(_ id: String, app: String = "", start: Int64 = 1_796_000_000, hours: Int64 = 1) -> MaintenanceWindow {
        MaintenanceWindow(id: id, app: app, startSeconds: start, endSeconds: start + hours * 3600, reason: "deploy of \(id)")
    }

    @Test("kept whole, replaced by id, listed by first start then id by bytes, removed once", arguments: Backend.all)
    func keptWhole(_ backend: Backend) async throws {
        let windows = MaintenanceWindowRepository(try await backend.store().sql)
        var once = MaintenanceWindow(
            id: "mw-0000000b", app: "com.example.app", startSeconds: 1_794_000_000, endSeconds: 1_794_007_200, reason: "store outage",
            createdSeconds: 1_794_100_000)
        try await windows.record(weekly)
        try await windows.record(once)
        once.reason = "App Store outage (Apple's notice)"
        try await windows.record(once)
        // Same start: "Z" (0x5A) sorts before "a" by bytes, where a case-blind or locale collation puts it after.
        try await windows.record(window("mw-a", start: 1_795_000_000))
        try await windows.record(window("mw-Z", start: 1_795_000_000))
        #expect(try await windows.windows().map(\.id) == ["mw-0000000b", "mw-0000000a", "mw-Z", "mw-a"])
        #expect(try await windows.windows().prefix(2) == [once, weekly])
        #expect(try await windows.remove(id: "mw-0000000b") == once)
        #expect(try await windows.remove(id: "mw-0000000b") == nil)
        #expect(try await windows.windows().map(\.id) == ["mw-0000000a", "mw-Z", "mw-a"])
    }

    @Test("one app's repository sees its own and every app's windows, and removes no other app's", arguments: Backend.all)
    func appScope(_ backend: Backend) async throws {
        let sql = try await backend.store().sql
        let everyApp = MaintenanceWindowRepository(sql)
        for (id, app) in [("mw-1", ""), ("mw-2", "com.example.coins"), ("mw-3", "com.example.premium")] {
            try await everyApp.record(window(id, app: app))
        }
        let coins = MaintenanceWindowRepository(sql, app: "com.example.coins")
        #expect(try await coins.windows().map(\.id) == ["mw-1", "mw-2"])
        #expect(try await coins.remove(id: "mw-3") == nil)
        #expect(try await coins.remove(id: "mw-2")?.id == "mw-2")
        #expect(try await everyApp.windows().map(\.id) == ["mw-1", "mw-3"])
    }

    @Test("a declaration is checked against every window kept, never replaces one, and writes nothing when refused", arguments: Backend.all)
    func declarations(_ backend: Backend) async throws {
        let sql = try await backend.store().sql
        let windows = MaintenanceWindowRepository(sql, app: "com.example.coins")
        try await MaintenanceWindowRepository(sql).record(window("mw-other", app: "com.example.premium"))
        try await windows.declare(window("mw-1")) { kept in #expect(kept.map(\.id) == ["mw-other"]) }
        await #expect(throws: MaintenanceWindowConflict(id: "mw-1")) { try await windows.declare(window("mw-1", start: 1)) { _ in } }
        await #expect(throws: MaintenanceWindowConflict(id: "mw-other")) { try await windows.declare(window("mw-other")) { _ in } }
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await windows.declare(window("mw-2")) { _ in throw Refused() } }
        #expect(try await MaintenanceWindowRepository(sql).windows().map(\.id) == ["mw-1", "mw-other"])
    }

    @Test("declarations at once are checked one after the other: a cap of 3 keeps exactly 3 of 12", arguments: Backend.all)
    func declarationsAtOnce(_ backend: Backend) async throws {
        let windows = MaintenanceWindowRepository(try await backend.store().sql)
        #expect(try await declareAtOnce(through: [windows]) == 3)
        #expect(try await windows.windows().count == 3)
    }

    /// Two stores on one database stand for two processes (a `maintenance add` beside `serve`, two serve nodes).
    @Test("two processes' declarations at once are checked one after the other too")
    func declarationsOfTwoProcesses() async throws {
        let directory = try TemporaryDirectory()
        let sqlite = try [SQLiteBucketStore(path: directory.file("db.sqlite")), SQLiteBucketStore(path: directory.file("db.sqlite"))]
        #expect(try await declareAtOnce(through: sqlite.map { MaintenanceWindowRepository($0.sql) }) == 3)
        #if PostgreSQL
        if TestPostgres.isEnabled {
            let url = try PostgresURL(try await TestPostgres.newDatabase())
            // A minute per call: twelve transactions in turn on a server the rest of the suite keeps busy.
            let nodes = try await [
                PostgresBucketStore(url: url, timeout: TestPostgres.callTimeout), PostgresBucketStore(url: url, timeout: TestPostgres.callTimeout),
            ]
            #expect(try await declareAtOnce(through: nodes.map { MaintenanceWindowRepository($0.sql) }) == 3)
        }
        #endif
    }

    /// Declares 12 windows at once, in turn through each of `repositories`, under a cap of 3; how many were kept.
    private func declareAtOnce(through repositories: [MaintenanceWindowRepository]) async throws -> Int {
        struct Full: Error {}
        return await withTaskGroup(of: Bool.self) { group in
            for index in 0..<12 {
                let windows = repositories[index % repositories.count]
                group.addTask {
                    do {
                        try await windows.declare(window("mw-\(index)", start: 1_796_000_000 + Int64(index) * 7200)) { kept in
                            guard kept.count < 3 else { throw Full() }
                        }
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
    }
}
