public import PurchaseSLICore
public import PurchaseSLIStorage
public import ServiceLifecycle
import Synchronization

/// The store's single writer: commits the events of concurrent requests together, one transaction for
/// all that are waiting, and answers each request once its own events are durable.
///
/// SQLite allows one writer at a time and a commit costs an fsync, so committing requests one by one
/// would cap throughput at the disk's fsync rate; grouping them amortises it. The writer is the service's
/// task, woken through an `AsyncStream` whenever requests wait; the store's async `record` blocks no
/// thread. As a `Service` it drains the queue on graceful shutdown before returning.
public final class GroupCommitter: Service, Sendable {
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

    /// What requests and the writer share: the submissions waiting, whether the committer stops, and the
    /// latest commit's failure.
    private struct Shared {
        var queue: [Submission] = []
        var isStopping = false
        /// When the latest commit failed and why, cleared by the next that succeeds.
        var lastFailure: (atMillis: Int64, error: String)?
    }

    private let store: any BucketStore
    private let maximumEventsPerCommit: Int
    private let nowMillis: @Sendable () -> Int64
    private let onCommit: @Sendable (_ outcome: RecordOutcome, _ requests: Int, _ seconds: Double) -> Void
    private let shared = Mutex(Shared())
    /// Wakes the writer: at most one wake-up waits, however many requests arrived since it last looked.
    private let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

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
        (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
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
            let queued = shared.withLock { shared in
                guard !shared.isStopping else { return false }
                shared.queue.append(Submission(prepared: prepared, continuation: continuation))
                return true
            }
            guard queued else { return continuation.resume(throwing: ShuttingDown()) }
            wake.yield()
        }
    }

    /// The error of the latest commit when it failed within `seconds` before `nowMillis` and none has
    /// succeeded since (a full disk fails every batch though a tiny probe write may still fit), else nil.
    public func recentFailure(withinSeconds seconds: Int64, nowMillis: Int64) -> String? {
        shared.withLock { shared in
            guard let failure = shared.lastFailure, nowMillis - failure.atMillis <= seconds * .millisPerSecond else { return nil }
            return failure.error
        }
    }

    /// Writes what requests submit until graceful shutdown (or cancellation), then commits what is still
    /// queued and returns: no request that was taken goes unanswered.
    public func run() async throws {
        await withGracefulShutdownHandler {
            for await _ in wakeUps { await writeQueued() }
        } onGracefulShutdown: { [self] in
            shared.withLock { $0.isStopping = true }
            wake.finish()
        }
        shared.withLock { $0.isStopping = true }
        await writeQueued()
    }

    /// Commits the queued submissions, a commit's worth at a time, until none waits.
    private func writeQueued() async {
        while true {
            let taken = shared.withLock { shared -> [Submission] in
                var eventCount = 0
                var count = 0
                for submission in shared.queue {
                    guard count == 0 || eventCount + submission.prepared.events.count <= maximumEventsPerCommit else { break }
                    eventCount += submission.prepared.events.count
                    count += 1
                }
                defer { shared.queue.removeFirst(count) }
                return Array(shared.queue.prefix(count))
            }
            guard !taken.isEmpty else { return }
            await write(taken)
        }
    }

    /// Commits the submissions together and answers each. The writer lets go of their events before it
    /// answers, so that each request's own task, not the writer, frees them.
    private func write(_ submissions: consuming [Submission]) async {
        let started = ContinuousClock.now
        var answers: [(continuation: CheckedContinuation<Outcome, any Error>, result: Result<Outcome, any Error>)] = []
        do {
            let outcome = try await store.record(submissions.map(\.prepared), receivedAtMillis: nowMillis())
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
            shared.withLock { $0.lastFailure = nil }
        } catch {
            let failure = (atMillis: nowMillis(), error: "\(error)")
            shared.withLock { $0.lastFailure = failure }
            answers = submissions.map { ($0.continuation, .failure(error)) }
        }
        submissions = []
        for answer in answers { answer.continuation.resume(with: answer.result) }
    }
}
