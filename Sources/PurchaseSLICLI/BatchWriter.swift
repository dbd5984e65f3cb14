import Foundation
import PurchaseSLICore
import PurchaseSLIStorage

/// Records batches on a thread of its own, so that parsing the next batch overlaps with the store's
/// transaction for the previous one, and prepares each batch's keys (``PreparedEvents``) on a third
/// thread between the two: parsing is the slower stage for a few series, the store's transaction for
/// many (interning tens of thousands of series), and three stages keep both cores busy either way. At
/// most `depth` batches wait before each of the last two stages, which bounds memory.
///
/// Recorded batches go back to the submitting thread to be freed there: their strings were allocated on
/// that thread, and malloc frees memory of its own thread's arena much faster than another's.
final class BatchWriter: @unchecked Sendable {
    private let store: any BucketStore
    private let receivedAtMillis: Int64
    private let depth: Int
    private let condition = NSCondition()
    /// Batches parsed, waiting to be prepared.
    private var queue: [[PurchaseEvent]] = []
    /// Batches prepared, waiting to be recorded.
    private var prepared: [PreparedEvents] = []
    private var recorded: [PreparedEvents] = []
    private var isFinished = false
    private var failure: (any Error)?
    private var outcome = RecordOutcome()
    private var isPreparingDone = false
    private var isDone = false

    init(store: any BucketStore, receivedAtMillis: Int64, depth: Int = 2) {
        self.store = store
        self.receivedAtMillis = receivedAtMillis
        self.depth = depth
        let preparer = Thread { [unowned self] in self.prepare() }
        preparer.name = "purchase-sli preparer"
        preparer.start()
        let writer = Thread { [unowned self] in self.run() }
        writer.name = "purchase-sli writer"
        writer.start()
    }

    /// Queues a batch, waiting while the queue is full. Throws the writer's error, if it failed.
    func submit(_ batch: [PurchaseEvent]) throws {
        condition.lock()
        while queue.count >= depth && failure == nil { condition.wait() }
        if let failure {
            condition.unlock()
            throw failure
        }
        queue.append(batch)
        let done = recorded
        recorded.removeAll()
        condition.broadcast()
        condition.unlock()
        _ = consume done
    }

    /// Waits until every queued batch is committed (and both threads have ended) and returns what they counted.
    func finish() throws -> RecordOutcome {
        condition.lock()
        defer { condition.unlock() }
        isFinished = true
        condition.broadcast()
        while !isDone || !isPreparingDone { condition.wait() }
        if let failure { throw failure }
        return outcome
    }

    /// The preparer: turns each parsed batch into ``PreparedEvents``, waiting while `depth` wait to be recorded.
    private func prepare() {
        while true {
            condition.lock()
            while failure == nil && ((queue.isEmpty && !isFinished) || prepared.count >= depth) { condition.wait() }
            if failure != nil || queue.isEmpty {
                isPreparingDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            let made = PreparedEvents(batch)
            condition.lock()
            prepared.append(made)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The writer: records each prepared batch in turn; after a failure, records nothing more.
    private func run() {
        while true {
            condition.lock()
            while prepared.isEmpty && !isPreparingDone && failure == nil { condition.wait() }
            if prepared.isEmpty || failure != nil {
                isDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = prepared.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                let counted = try store.record([batch], receivedAtMillis: receivedAtMillis)
                condition.lock()
                outcome.merge(counted)
                recorded.append(batch)
                condition.unlock()
            } catch {
                condition.lock()
                failure = error
                queue.removeAll()
                prepared.removeAll()
                condition.broadcast()
                condition.unlock()
            }
        }
    }
}
