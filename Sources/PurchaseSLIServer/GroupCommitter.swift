import Foundation
import PurchaseSLIApplication
public import PurchaseSLICore
public import PurchaseSLIStorage
public import ServiceLifecycle

/// The store's single writer: commits the events of concurrent requests together, one transaction for
/// all that are waiting, and answers each request once its own events are durable.
///
/// SQLite allows one writer at a time and a commit costs an fsync, so committing requests one by one
/// would cap throughput at the disk's fsync rate; grouping them amortises it. The writes run on a thread
/// of their own because SQLite blocks, and Swift's cooperative pool must not. As a `Service` it drains the
/// queue on graceful shutdown before returning.
public final class GroupCommitter: Service, @unchecked Sendable {
    /// What one request's events came to.
    public struct Outcome: Sendable, Hashable {
        /// Events counted for the first time.
        public var accepted: Int
        /// Events whose eventID had been counted before.
        public var duplicates: Int
    }

    /// The committer no longer takes events (the service is shutting down).
    public struct ShuttingDown: Error {}

    private struct Submission {
        var prepared: PreparedEvents
        var continuation: CheckedContinuation<Outcome, any Error>
    }

    private let store: any BucketStore
    private let maximumEventsPerCommit: Int
    private let nowMillis: @Sendable () -> Int64
    private let onCommit: @Sendable (_ outcome: RecordOutcome, _ requests: Int, _ seconds: Double) -> Void
    private let condition = NSCondition()
    private var queue: [Submission] = []
    private var isStopping = false
    private var isStopped = false
    /// When the latest commit failed and why, cleared by the next that succeeds (guarded by `condition`).
    private var lastFailure: (atMillis: Int64, error: String)?

    /// Creates a committer writing to `store`.
    /// - Parameters:
    ///   - nowMillis: the receiving clock, for the dedup horizon.
    ///   - onCommit: called after each commit with its size and duration (for metrics).
    public init(
        store: any BucketStore, maximumEventsPerCommit: Int, nowMillis: @escaping @Sendable () -> Int64,
        onCommit: @escaping @Sendable (_ outcome: RecordOutcome, _ requests: Int, _ seconds: Double) -> Void = { _, _, _ in }
    ) {
        self.store = store
        self.maximumEventsPerCommit = maximumEventsPerCommit
        self.nowMillis = nowMillis
        self.onCommit = onCommit
    }

    /// Commits `events` with whatever else is waiting and returns once they are durable.
    ///
    /// The caller's task prepares the events' keys and, holding `events` until the end, frees them
    /// afterwards: work that would otherwise fall to the single writer that every request waits for.
    /// - Parameter clientDroppedEvents: events the sender dropped unsent, stored with the batch when it
    ///   counts something new.
    /// - Throws: the store's error when the transaction failed (nothing of this request was counted),
    ///   or ``ShuttingDown``.
    public func commit(_ events: [PurchaseEvent], clientDroppedEvents: Int = 0) async throws -> Outcome {
        var prepared = PreparedEvents(events)
        prepared.clientDroppedEvents = clientDroppedEvents
        // Events from the HTTP API: a bulk of late ones is told apart before a rollout action rests on it.
        prepared.tracksLateArrivals = true
        defer { withExtendedLifetime(events) {} }
        return try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            defer { condition.unlock() }
            guard !isStopping else {
                continuation.resume(throwing: ShuttingDown())
                return
            }
            queue.append(Submission(prepared: prepared, continuation: continuation))
            condition.signal()
        }
    }

    /// The error of the latest commit when it failed within `seconds` before `nowMillis` and none has
    /// succeeded since (a full disk fails every batch though a tiny probe write may still fit), else nil.
    public func recentFailure(withinSeconds seconds: Int64, nowMillis: Int64) -> String? {
        condition.lock()
        defer { condition.unlock() }
        guard let lastFailure, nowMillis - lastFailure.atMillis <= seconds * 1000 else { return nil }
        return lastFailure.error
    }

    private func setLastFailure(_ failure: (atMillis: Int64, error: String)?) {
        condition.lock()
        lastFailure = failure
        condition.unlock()
    }

    /// Runs the writer thread until graceful shutdown, then commits what is queued and returns.
    public func run() async throws {
        let thread = Thread { [self] in writeLoop() }
        thread.name = "purchase-sli committer"
        thread.start()
        try? await gracefulShutdown()
        stop()
        // Waiting for the writer is blocking work like any other: on the service's pool, not a thread of its own.
        try? await runBlocking { [self] in waitUntilStopped() }
    }

    /// Blocks until the writer has committed what was queued and stopped.
    private func waitUntilStopped() {
        condition.lock()
        while !isStopped { condition.wait() }
        condition.unlock()
    }

    /// Refuses new submissions and wakes the writer to drain the queue.
    private func stop() {
        condition.lock()
        isStopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func writeLoop() {
        while true {
            condition.lock()
            while queue.isEmpty && !isStopping { condition.wait() }
            if queue.isEmpty {
                isStopped = true
                condition.broadcast()
                condition.unlock()
                return
            }
            var taken: [Submission] = []
            var eventCount = 0
            while let next = queue.first, taken.isEmpty || eventCount + next.prepared.events.count <= maximumEventsPerCommit {
                taken.append(queue.removeFirst())
                eventCount += next.prepared.events.count
            }
            condition.unlock()
            write(consume taken)
        }
    }

    /// Commits the submissions together and answers each. The writer lets go of their events before it
    /// answers, so that each request's own task, not the writer, frees them.
    private func write(_ submissions: consuming [Submission]) {
        let started = ContinuousClock.now
        var answers: [(continuation: CheckedContinuation<Outcome, any Error>, result: Result<Outcome, any Error>)] = []
        do {
            let outcome = try store.record(submissions.map(\.prepared), receivedAtMillis: nowMillis())
            let elapsed = ContinuousClock.now - started
            onCommit(outcome, submissions.count, Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
            var duplicates = outcome.duplicateIndexes[...]
            var offset = 0
            for submission in submissions {
                let end = offset + submission.prepared.events.count
                var duplicateCount = 0
                while let first = duplicates.first, first < end {
                    duplicateCount += 1
                    duplicates = duplicates.dropFirst()
                }
                let accepted = submission.prepared.events.count - duplicateCount
                answers.append((submission.continuation, .success(Outcome(accepted: accepted, duplicates: duplicateCount))))
                offset = end
            }
            setLastFailure(nil)
        } catch {
            setLastFailure((nowMillis(), "\(error)"))
            answers = submissions.map { ($0.continuation, .failure(error)) }
        }
        submissions = []
        for answer in answers { answer.continuation.resume(with: answer.result) }
    }
}
