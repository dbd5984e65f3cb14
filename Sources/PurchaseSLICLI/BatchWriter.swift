import Foundation
import PurchaseSLICore
import PurchaseSLIStorage

/// Records batches on a thread of its own, so that parsing the next batch overlaps with the store's
/// transaction for the previous one. At most `depth` batches wait, which bounds memory.
///
/// The writer prepares each batch's keys (``PreparedEvents``) itself, as parsing is the slower of the two
/// threads; recorded batches go back to the submitting thread to be freed there: their strings were
/// allocated on that thread, and malloc frees memory of its own thread's arena much faster than another's.
final class BatchWriter: @unchecked Sendable {
    private let store: any BucketStore
    private let receivedAtMillis: Int64
    private let depth: Int
    private let condition = NSCondition()
    private var queue: [[PurchaseEvent]] = []
    private var recorded: [PreparedEvents] = []
    private var isFinished = false
    private var failure: (any Error)?
    private var outcome = RecordOutcome()
    private var isDone = false

    init(store: any BucketStore, receivedAtMillis: Int64, depth: Int = 2) {
        self.store = store
        self.receivedAtMillis = receivedAtMillis
        self.depth = depth
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "purchase-sli writer"
        thread.start()
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

    /// Waits until every queued batch is committed and returns what they counted.
    func finish() throws -> RecordOutcome {
        condition.lock()
        defer { condition.unlock() }
        isFinished = true
        condition.broadcast()
        while !isDone { condition.wait() }
        if let failure { throw failure }
        return outcome
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !isFinished { condition.wait() }
            if queue.isEmpty || failure != nil {
                isDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                let prepared = PreparedEvents(batch)
                let counted = try store.record([prepared], receivedAtMillis: receivedAtMillis)
                condition.lock()
                outcome.merge(counted)
                recorded.append(prepared)
                condition.unlock()
            } catch {
                condition.lock()
                failure = error
                queue.removeAll()
                condition.broadcast()
                condition.unlock()
            }
        }
    }
}
