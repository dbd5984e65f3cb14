import NIOPosix

/// Runs work that may block (store reads and commits not yet async, decoding, rendering) off Swift's
/// cooperative thread pool: `work` runs with ``BlockingWork/executor`` as its task executor, so each of
/// its jobs (and those of its child tasks) runs on ``BlockingWork/pool``, and a blocking call in it holds
/// a thread of that pool, never a cooperative one. Every blocking call of the service and its scheduled
/// rounds goes this one way.
package func runBlocking<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
    try await withTaskExecutorPreference(BlockingWork.executor) { try await work() }
}

/// The threads `serve` runs its blocking work on: a pool of its own, bounded, so that a burst of work
/// queues instead of starting threads without end, with room beyond the most reads all clients together
/// may have in progress (``maximumConcurrentReads``) so that slow reads never hold up ingestion, the
/// health routes or the scheduled rounds. Started at first use; it lives as long as the process.
package enum BlockingWork {
    /// The most reads (queries, pages) all clients together may have in progress: what the server's read
    /// limit admits, so that they never take every thread of the pool.
    package static let maximumConcurrentReads = 16

    /// Threads beyond the reads' limit.
    static let sparedThreads = 8

    /// The pool.
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: maximumConcurrentReads + sparedThreads)
        pool.start()
        return pool
    }()

    /// The task executor whose jobs run on ``pool``.
    static let executor = ThreadPoolTaskExecutor(pool: pool)
}

/// A task executor that runs each job on a thread of a NIO thread pool: a task that prefers it may block
/// in a job without taking a thread of Swift's cooperative pool.
final class ThreadPoolTaskExecutor: TaskExecutor {
    private let pool: NIOThreadPool

    init(pool: NIOThreadPool) {
        self.pool = pool
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.submit { _ in job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
