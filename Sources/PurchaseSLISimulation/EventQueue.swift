import PurchaseSLICore

/// Events waiting to be emitted, ordered by emission time, then by insertion order.
///
/// A binary min-heap of small keys pointing into a slot array, so sifting moves 24 bytes rather than whole
/// events. Holds only events in flight (terminal steps, duplicates, late deliveries, scheduled retries).
struct EventQueue {
    private struct Entry {
        let emitMillis: Int64
        let sequence: Int
        let slot: Int

        func precedes(_ other: Entry) -> Bool {
            emitMillis != other.emitMillis ? emitMillis < other.emitMillis : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var slots: [PurchaseEvent?] = []
    private var freeSlots: [Int] = []
    private var nextSequence = 0

    /// The number of events waiting.
    var count: Int { heap.count }

    /// When the next event is due, or nil when the queue is empty.
    var earliestEmitMillis: Int64? { heap.first?.emitMillis }

    /// Adds an event to be emitted at `emitMillis`. O(log n).
    mutating func push(_ event: PurchaseEvent, emitMillis: Int64) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = event
        } else {
            slot = slots.count
            slots.append(event)
        }
        heap.append(Entry(emitMillis: emitMillis, sequence: nextSequence, slot: slot))
        nextSequence += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest event. O(log n).
    mutating func pop() -> PurchaseEvent? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { break }
                let right = left + 1
                let child = right < heap.count && heap[right].precedes(heap[left]) ? right : left
                guard heap[child].precedes(heap[parent]) else { break }
                heap.swapAt(child, parent)
                parent = child
            }
        }
        let event = slots[top.slot].take()
        freeSlots.append(top.slot)
        return event
    }
}
