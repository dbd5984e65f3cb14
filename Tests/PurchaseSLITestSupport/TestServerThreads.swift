import Foundation
public import Hummingbird
public import HummingbirdTesting
import NIOCore
import Synchronization

/// Runs `app` live on a free port with its tasks (connections, handlers) on threads of their own, and
/// `test` with its client on Swift's cooperative pool, as `app.test(.live)` does otherwise.
///
/// The suite runs hundreds of tests at once on a pool of one thread per core; a test evaluating weeks of
/// minutes keeps a pool thread for seconds. A stand-in server whose handlers waited for the pool behind
/// such tests answered after the client's 10 s timeout now and then (a redirect test saw "no answer within
/// 10 s", make-whole posted a charge three times), so the servers tests talk to over sockets run here,
/// where only servers queue; the test itself, its client and the code under test, stays on the pool.
///
/// HummingbirdTesting opens one connection of its own before the test and closes it after; under load the
/// server may have closed it first, and closing it again throws "I/O on closed channel" once the test has
/// passed. That error, after the test's value is in hand, is not the test's.
public func testLive<App: ApplicationProtocol, Value: Sendable>(
    _ app: App, _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Value
) async throws -> Value {
    let finished = Mutex<Value?>(nil)
    do {
        return try await withTaskExecutorPreference(DedicatedExecutor.servers) {
            try await app.test(.live) { client in
                let value = try await withTaskExecutorPreference(globalConcurrentExecutor) { try await test(client) }
                finished.withLock { $0 = value }
                return value
            }
        }
    } catch ChannelError.ioOnClosedChannel {
        guard let value = finished.withLock({ $0 }) else { throw ChannelError.ioOnClosedChannel }
        return value
    }
}

/// Runs `work` (an async command of the CLI, whose `run` reads SQLite and renders for seconds between its
/// suspensions) on threads of its own, where it keeps no thread of Swift's cooperative pool from the
/// tests and clients waiting there.
public func offCooperativePool<Value: Sendable>(_ work: @Sendable () async throws -> Value) async throws -> Value {
    try await withTaskExecutorPreference(DedicatedExecutor.commands) { try await work() }
}

/// A task executor on threads of its own: jobs run in the order they were enqueued, each to its next
/// suspension.
final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    /// The one executor every live test server shares.
    static let servers = DedicatedExecutor(threads: 2, name: "purchase-sli test server")
    /// The one executor the CLI's async commands run on in tests (``offCooperativePool(_:)``).
    static let commands = DedicatedExecutor(threads: 2, name: "purchase-sli test command")

    private let condition = NSCondition()
    /// Jobs not started yet, guarded by `condition`.
    private var jobs: [UnownedJob] = []
    /// The position of the next job to start in `jobs`.
    private var next = 0

    private init(threads: Int, name: String) {
        for index in 0..<threads {
            let thread = Thread { [self] in run() }
            thread.name = "\(name) \(index + 1)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come, for the life of the process.
    private func run() {
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            if next > 1024 {
                jobs.removeFirst(next)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
