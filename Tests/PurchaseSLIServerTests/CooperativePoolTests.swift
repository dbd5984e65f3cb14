import Foundation
import HummingbirdTesting
import PurchaseSLICore
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Synchronization
import Testing

/// Reads that wait at a gate until the test opens it, as a slow disk or a long scan would: suspended,
/// as a store's async read is, holding no thread.
private final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiting = 0
        var held: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Suspends the caller until the gate opens.
    func pass() async {
        await withCheckedContinuation { continuation in
            let passes = state.withLock { state in
                state.waiting += 1
                if !state.isOpen { state.held.append(continuation) }
                return state.isOpen
            }
            if passes { continuation.resume() }
        }
    }

    func open() {
        let held = state.withLock { state in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    var waitingCount: Int { state.withLock { $0.waiting } }

    var opened: Bool { state.withLock { $0.isOpen } }
}

/// The SQLite store, but every read and readiness check waits at `gate`.
private struct GatedStore: SQLiteForwarding {
    let base: SQLiteBucketStore
    let gate: Gate

    /// Every query starts with this lookup.
    func seriesTable(_ dimensions: [EventDimension]) async throws -> SeriesTable {
        await gate.pass()
        return try await base.seriesTable(dimensions)
    }

    func checkWritable() async throws {
        await gate.pass()
        try await base.checkWritable()
    }
}

/// `serve` keeps answering while its store is slow: every store call is async, so four reads waiting for
/// the store stall neither ingestion nor the health and metrics routes. Were a read to hold a thread of
/// Swift's cooperative pool (two on this machine) while it waits, the requests below would wait for the gate.
@Suite struct CooperativePoolTests {
    @Test func slowStoreReadsHoldUpNoOtherRequest() async throws {
        let directory = try TemporaryDirectory()
        let gate = Gate()
        let store = GatedStore(base: try SQLiteBucketStore(path: directory.file("db.sqlite")), gate: gate)
        // A fail-safe, not a measurement: should the service be stuck after all (every cooperative thread
        // waiting at the gate, so that nothing else in the process can run), the gate opens after 15
        // minutes so that the test fails (below) instead of hanging. A working service answers as soon as
        // the cooperative threads are free, however busy the other tests keep them.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 15 * 60)
            gate.open()
        }
        let app = makeApp(store: store, databasePath: directory.file("db.sqlite"))
        try await app.test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for uri in [
                    "/v1/query?from=now-1h&to=now", "/v1/query?from=now-1d&to=now&by=productID",
                    "/v1/query?from=now-1d&to=now&by=errorDescription", "/readyz",
                ] {
                    group.addTask {
                        try await client.execute(uri: uri, method: .get) { #expect($0.status == .ok, "\(uri)") }
                    }
                }
                while gate.waitingCount < 4 && !gate.opened { try await Task.sleep(for: .milliseconds(10)) }
                try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body([eventLine("a")])) {
                    #expect($0.status == .accepted)
                }
                try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
                try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .ok) }
                #expect(!gate.opened, "the service answered only once the stuck reads were let go")
                gate.open()
                try await group.waitForAll()
            }
        }
    }
}
