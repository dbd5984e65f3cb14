import Foundation

/// Runs `body` with its tasks (and the child tasks it starts: a live test server's connections and
/// handlers) on threads of their own instead of Swift's cooperative pool.
///
/// The suite runs hundreds of tests at once on a pool of one thread per core; a test evaluating weeks of
/// minutes keeps a pool thread for seconds at a time. A stand-in server whose handlers waited for the pool
/// behind such tests answered after the client's 10 s timeout now and then (a redirect test saw "no answer
/// within 10 s", make-whole posted a charge three times), so the servers tests talk to over sockets run
/// here, where nothing else queues.
public func withTestServerThreads<Value: Sendable>(_ body: () async throws -> Value) async rethrows -> Value {
    try await withTaskExecutorPreference(TestServerExecutor.shared, operation: body)
}

/// A task executor on two threads of its own: jobs run in the order they were enqueued, each to its next
/// suspension.
final class TestServerExecutor: TaskExecutor, @unchecked Sendable {
    /// The one executor every live test server shares.
    static let shared = TestServerExecutor(threads: 2)

    private let condition = NSCondition()
    /// Jobs not started yet, guarded by `condition`.
    private var jobs: [UnownedJob] = []
    /// The position of the next job to start in `jobs`.
    private var next = 0

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in run() }
            thread.name = "purchase-sli test server \(index + 1)"
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

/// Runs `body` on Swift's cooperative pool: inside ``withTestServerThreads(_:)``, the test's own code
/// (its client, the code under test) around a live server, so that only the server has the threads.
public func onCooperativePool<Value: Sendable>(_ body: () async throws -> Value) async rethrows -> Value {
    try await withTaskExecutorPreference(globalConcurrentExecutor, operation: body)
}
