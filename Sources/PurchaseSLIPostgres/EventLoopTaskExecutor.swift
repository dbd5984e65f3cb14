#if PostgreSQL
import NIOCore

/// A task executor that runs jobs on one event loop (SE-0417's executor preference).
///
/// A write transaction runs with its connection's event loop as its preferred executor, as
/// EventLoopFuture chains would: each statement's answer resumes the transaction on the loop that read it,
/// without waiting in Swift's cooperative pool behind the requests being decoded there. With one writer per
/// node that wait is on the path of every commit (``PostgresBucketStore/transaction(timeout:_:)``; the
/// A/B is in docs/benchmarks.md, "PostgreSQL").
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    /// An executor running jobs on `eventLoop`.
    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
#endif
