/// The counts of one group of a series at the steps that hold any: step indices ascending, each with
/// its counts, none empty (every event counts in ``OutcomeCounts/total``, its 409 and 5xx counters too).
/// A series of minutes over a week holds ~10,000 steps a group, and most groups of a large catalog have
/// events in few of them: what is not held costs nothing. The counts are held in 4 bytes each
/// (``CompactCounts``) while every one fits, and as ``OutcomeCounts`` from the first that does not.
public struct StepCounts: Sendable, Hashable {
    /// The indices of the steps with counts, ascending and distinct.
    public private(set) var steps: [Int32]
    /// The counts of each of `steps` while every one fits in 4 bytes a count (then `wide` is empty).
    private var compact: [CompactCounts]
    /// The counts of each of `steps` once one did not fit (then `compact` is empty).
    private var wide: [OutcomeCounts]
    /// Whether the counts are in `wide`.
    private var isWide = false
    /// Whether the steps were added in order (else ``normalize()`` sorts and sums them).
    private var isInOrder = true

    /// No counts.
    public init() {
        steps = []
        compact = []
        wide = []
    }

    /// The non-empty steps of dense counts, `dense[i]` being step i.
    public init(dense: [OutcomeCounts]) {
        self.init()
        for (step, cell) in dense.enumerated() { add(cell, at: Int32(step)) }
    }

    /// The counts of each of ``steps``, in order, none empty.
    public var counts: Cells { Cells(compact: compact, wide: wide, isWide: isWide) }

    /// The counts of each step with counts, whichever way they are held.
    public struct Cells: RandomAccessCollection, Sendable {
        @usableFromInline let compact: [CompactCounts]
        @usableFromInline let wide: [OutcomeCounts]
        @usableFromInline let isWide: Bool

        /// The first step's position: 0.
        public var startIndex: Int { 0 }
        /// The number of steps with counts.
        public var endIndex: Int { isWide ? wide.count : compact.count }

        /// The counts of the `index`-th step with counts.
        @inlinable
        public subscript(index: Int) -> OutcomeCounts { isWide ? wide[index] : compact[index].counts }
    }

    /// Adds `cell` to step `step`: O(1) when steps come in order, as a scan in time order gives them;
    /// otherwise kept apart until ``normalize()``. When the arrays are full they grow to
    /// `expectedSteps(held)` (how many steps the whole series will likely hold, from the `held` so far), by
    /// a quarter at least and at most doubled: a series whose density holds grows about once to its size
    /// instead of doubling past it.
    public mutating func add(_ cell: OutcomeCounts, at step: Int32, expectedSteps: (_ held: Int) -> Int = { _ in 0 }) {
        guard !cell.isEmpty else { return }
        if let last = steps.last, last >= step {
            if last == step {
                addToLast(cell)
                return
            }
            isInOrder = false
        }
        if steps.count == steps.capacity {
            let count = steps.count
            let capacity = min(max(expectedSteps(count), count + count / 4 + 8), 2 * count + 8)
            steps.reserveCapacity(capacity)
            if isWide { wide.reserveCapacity(capacity) } else { compact.reserveCapacity(capacity) }
        }
        steps.append(step)
        if !isWide, let narrow = CompactCounts(exactly: cell) {
            compact.append(narrow)
        } else {
            widen()
            wide.append(cell)
        }
    }

    /// Adds `cell` to the last step's counts.
    private mutating func addToLast(_ cell: OutcomeCounts) {
        let last = steps.count - 1
        if !isWide, let narrow = CompactCounts(exactly: cell), let sum = compact[last].adding(narrow) {
            compact[last] = sum
        } else {
            widen()
            wide[last] += cell
        }
    }

    /// Holds the counts as ``OutcomeCounts`` from now on.
    private mutating func widen() {
        guard !isWide else { return }
        wide = compact.map(\.counts)
        wide.reserveCapacity(steps.capacity)
        compact = []
        isWide = true
    }

    /// Sorts the steps and sums those added more than once, when they did not come in order.
    public mutating func normalize() {
        guard !isInOrder else { return }
        let cells = counts
        let order = steps.indices.sorted { steps[$0] < steps[$1] }
        var sorted = StepCounts()
        for index in order { sorted.add(cells[index], at: steps[index]) }
        self = sorted
    }

    /// The counts with only what `keep` leaves of each step, steps it leaves empty dropped.
    public func mapCounts(_ keep: (OutcomeCounts) -> OutcomeCounts) -> StepCounts {
        var kept = StepCounts()
        for (step, cell) in zip(steps, counts) { kept.add(keep(cell), at: step) }
        return kept
    }

    /// Leaves out the steps from `stepCount` on. Needs the steps in order (``normalize()``).
    public mutating func removeSteps(from stepCount: Int) {
        let kept = steps.partitioningIndex { Int($0) >= stepCount }
        guard kept < steps.count else { return }
        steps.removeSubrange(kept...)
        if isWide { wide.removeSubrange(kept...) } else { compact.removeSubrange(kept...) }
    }

    /// The counts of steps `0..<stepCount`, one per step (steps from `stepCount` on left out).
    public func dense(stepCount: Int) -> [OutcomeCounts] {
        var dense = [OutcomeCounts](repeating: OutcomeCounts(), count: stepCount)
        for (step, cell) in zip(steps, counts) where step < stepCount { dense[Int(step)] += cell }
        return dense
    }

    /// Whether no step has counts.
    public var isEmpty: Bool { steps.isEmpty }

    /// The steps and their counts, handed over: what is held by nothing else can be changed in place. The
    /// counts are `compact` while every one fits in 4 bytes a count, else `wide` (and `compact` is empty).
    public consuming func parts() -> (steps: [Int32], compact: [CompactCounts], wide: [OutcomeCounts]?) {
        (steps, compact, isWide ? wide : nil)
    }

    /// Whether both hold the same counts at the same steps, however they hold them (normalized ones compare
    /// as their sums do).
    public static func == (lhs: StepCounts, rhs: StepCounts) -> Bool {
        guard lhs.steps == rhs.steps else { return false }
        if !lhs.isWide && !rhs.isWide { return lhs.compact == rhs.compact }
        return lhs.counts.elementsEqual(rhs.counts)
    }

    /// Hashes the steps and their counts, as ``==`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(steps)
        for cell in counts { hasher.combine(cell) }
    }
}

extension Array {
    /// The index of the first element for which `isPast` holds, the array being partitioned by it (false
    /// before true). O(log n).
    func partitioningIndex(where isPast: (Element) -> Bool) -> Int {
        var (lower, upper) = (0, count)
        while lower < upper {
            let middle = (lower + upper) / 2
            if isPast(self[middle]) { upper = middle } else { lower = middle + 1 }
        }
        return lower
    }
}
