#if PostgreSQL
import Dispatch
import NIOCore
import PurchaseSLIStorage
import Synchronization

/// Runs the store's async PostgreSQL work for its blocking callers (the ``PurchaseSLIStorage/BucketStore``
/// protocol is synchronous; `serve` calls it on threads of its own).
///
/// The work runs with an event loop as its task executor, not on Swift's cooperative threads: a caller
/// that blocks one of those (an async command, a test) cannot then starve the work it waits for.
final class BlockingBridge: Sendable {
    /// Where the store's PostgreSQL work runs: an event loop, not Swift's cooperative threads.
    let executor: EventLoopTaskExecutor

    init(eventLoop: any EventLoop) {
        executor = EventLoopTaskExecutor(eventLoop: eventLoop)
    }

    /// Starts `work` and waits for it at most `timeout`; after that it is cancelled and
    /// ``PurchaseSLIStorage/StorageError/unavailable(_:)`` thrown (the work may still finish: a commit that did is
    /// deduplicated when the client sends the batch again).
    func wait<Value: Sendable>(timeout: Duration, _ work: @escaping @Sendable () async throws -> Value) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task(executorPreference: executor) {
            let result: Result<Value, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        guard done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else {
            task.cancel()
            throw StorageError.unavailable("no answer from PostgreSQL within \(timeout.components.seconds) s")
        }
        return try outcome.withLock { $0! }.get()
    }

    /// Starts `work` on the bridge's executor without waiting for it (the client's `run()`).
    func start(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: executor) { await work() }
    }
}

/// A task executor that runs jobs on one event loop.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
#endif
