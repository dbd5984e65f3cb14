import NIOPosix

/// Runs blocking work (store reads and commits, decoding, rendering) off Swift's cooperative thread pool,
/// on ``BlockingWork/pool``: every blocking call of the service and its scheduled rounds goes this one way.
package func runBlocking<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await BlockingWork.pool.runIfActive(work)
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
}
