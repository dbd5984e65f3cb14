import AsyncAlgorithms
public import PurchaseSLICore
public import PurchaseSLIStorage
import Synchronization

/// Records batches while the next ones are parsed: a pipeline of three stages, the caller parsing, a task
/// preparing each batch's keys (``PreparedEvents``) and a task recording it in the store. Parsing is the
/// slower stage for a few series, the store's transaction for many (interning tens of thousands of
/// series), and three stages keep both cores busy either way. Each stage hands on through an
/// `AsyncChannel`, whose sender waits until the next stage takes the batch: at most one batch waits
/// before each stage, which bounds memory.
public final class BatchWriter: Sendable {
    private let parsed = AsyncChannel<[PurchaseEvent]>()
    private let prepared = AsyncChannel<PreparedEvents>()
    private let failure = FirstFailure()
    private let recorded = RecordedBatches()
    private let preparer: Task<Void, Never>
    private let writer: Task<RecordOutcome, Never>
    private let store: any BucketStore

    /// Starts the preparing and recording stages for `store`.
    public init(store: any BucketStore, receivedAtMillis: Int64) {
        self.store = store
        let (parsed, prepared, failure, recorded) = (parsed, prepared, failure, recorded)
        preparer = Task {
            for await batch in parsed { await prepared.send(PreparedEvents(batch)) }
            prepared.finish()
        }
        writer = Task {
            var outcome = RecordOutcome()
            for await batch in prepared {
                do {
                    outcome.merge(try await store.record([batch], receivedAtMillis: receivedAtMillis))
                    recorded.keep(batch)
                } catch {
                    // Nothing more is recorded: both stages stop, and so does every waiting sender.
                    failure.keep(error)
                    parsed.finish()
                    prepared.finish()
                }
            }
            return outcome
        }
    }

    /// Hands a batch on, waiting while the next stage is busy. Throws the writer's error, if it failed.
    public func submit(_ batch: [PurchaseEvent]) async throws {
        await parsed.send(batch)
        recorded.freeAll()
        if let failure = failure.error { throw failure }
    }

    /// Waits until every batch handed on is recorded, then has the store drop what its retention no
    /// longer keeps as of `nowMillis`, and returns what the batches counted.
    public func finish(pruningAt nowMillis: Int64) async throws -> RecordOutcome {
        parsed.finish()
        await preparer.value
        let outcome = await writer.value
        if let failure = failure.error { throw failure }
        try await store.prune(nowMillis: nowMillis)
        return outcome
    }
}

/// The first error a stage met, kept for the caller.
private final class FirstFailure: Sendable {
    private let first = Mutex<(any Error)?>(nil)

    /// Keeps `error` unless one was kept before.
    func keep(_ error: any Error) { first.withLock { $0 = $0 ?? error } }

    /// The error kept, if any.
    var error: (any Error)? { first.withLock { $0 } }
}

/// Batches recorded, handed back so that the submitting task frees them: their strings were allocated
/// while parsing, and malloc frees memory of its own thread's arena faster than another's.
private final class RecordedBatches: Sendable {
    private let batches = Mutex<[PreparedEvents]>([])

    /// Keeps a recorded batch until the next ``freeAll()``.
    func keep(_ batch: PreparedEvents) { batches.withLock { $0.append(batch) } }

    /// Frees the batches kept, in the caller.
    func freeAll() {
        let taken = batches.withLock { batches in
            defer { batches.removeAll() }
            return batches
        }
        _ = consume taken
    }
}
