import NIOPosix

/// Runs CPU-heavy work (an evaluation round, a page render, the grouping of a large answer) with
/// ``ComputeExecutor/shared`` as its task executor: nothing in it blocks, but it computes for seconds
/// between its suspensions, and on Swift's cooperative threads (one per core) that would keep the request
/// handlers, the committer and `/healthz` waiting. On the compute threads it takes turns with them at the
/// operating system's pace instead. The store's own work runs on the store's queues either way.
package func onComputePool<Value: Sendable>(_ work: @Sendable () async throws -> Value) async throws -> Value {
    try await withTaskExecutorPreference(ComputeExecutor.shared) { try await work() }
}

/// A task executor over a thread pool for CPU-heavy work: each job runs on one of its threads.
final class ComputeExecutor: TaskExecutor {
    /// The executor of ``onComputePool(_:)``: a pool of ``threads`` threads, started at first use and kept
    /// for the life of the process, as NIO's own singletons are. More threads than cores, so that a long
    /// round never queues the rounds and reads of other apps and clients behind it.
    static let shared: ComputeExecutor = {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return ComputeExecutor(pool: pool)
    }()

    /// The pool's threads.
    static let threads = 8

    private let pool: NIOThreadPool

    /// An executor over `pool`, which its creator starts and shuts down.
    init(pool: NIOThreadPool) {
        self.pool = pool
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.submit { _ in job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Runs `work` with a thread of its own as its task executor, so that every step of it runs on that one
/// thread: what it allocates is freed on the thread that allocated it, which malloc does fastest (`ingest`'s
/// parsing). Not an event loop's thread: seconds of parsing there would stall every connection of that
/// loop (PostgreSQL's, the HTTP client's). The thread is NIO's pool's, shut down when `work` ends.
public func onOneThread<Value: Sendable>(_ work: () async throws -> Value) async throws -> Value {
    let pool = NIOThreadPool(numberOfThreads: 1)
    pool.start()
    do {
        let value = try await withTaskExecutorPreference(ComputeExecutor(pool: pool)) { try await work() }
        try await pool.shutdownGracefully()
        return value
    } catch {
        try? await pool.shutdownGracefully()
        throw error
    }
}
