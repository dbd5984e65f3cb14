/// The counts of one group of a series at the steps that hold any: step indices ascending, each with
/// its counts, none empty (every event counts in ``OutcomeCounts/total``, its 409 and 5xx counters too).
/// A series of minutes over a week holds ~10,000 steps a group, and most groups of a large catalog have
/// events in few of them: what is not held costs nothing.
public struct StepCounts: Sendable, Hashable {
    /// The indices of the steps with counts, ascending and distinct.
    public private(set) var steps: [Int32]
    /// The counts of each of `steps`, none empty.
    public private(set) var counts: [OutcomeCounts]
    /// Whether the steps were added in order (else ``normalize()`` sorts and sums them).
    private var isInOrder = true

    /// No counts.
    public init() {
        steps = []
        counts = []
    }

    /// The non-empty steps of dense counts, `dense[i]` being step i.
    public init(dense: [OutcomeCounts]) {
        self.init()
        for (step, cell) in dense.enumerated() { add(cell, at: Int32(step)) }
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
                counts[counts.count - 1] += cell
                return
            }
            isInOrder = false
        }
        if counts.count == counts.capacity {
            let count = counts.count
            let capacity = min(max(expectedSteps(count), count + count / 4 + 8), 2 * count + 8)
            steps.reserveCapacity(capacity)
            counts.reserveCapacity(capacity)
        }
        steps.append(step)
        counts.append(cell)
    }

    /// Sorts the steps and sums those added more than once, when they did not come in order.
    public mutating func normalize() {
        guard !isInOrder else { return }
        let order = steps.indices.sorted { steps[$0] < steps[$1] }
        var (sortedSteps, sortedCounts) = ([Int32](), [OutcomeCounts]())
        for index in order {
            if sortedSteps.last == steps[index] {
                sortedCounts[sortedCounts.count - 1] += counts[index]
            } else {
                sortedSteps.append(steps[index])
                sortedCounts.append(counts[index])
            }
        }
        (steps, counts, isInOrder) = (sortedSteps, sortedCounts, true)
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
        counts.removeSubrange(kept...)
    }

    /// The counts of steps `0..<stepCount`, one per step (steps from `stepCount` on left out).
    public func dense(stepCount: Int) -> [OutcomeCounts] {
        var dense = [OutcomeCounts](repeating: OutcomeCounts(), count: stepCount)
        for (step, cell) in zip(steps, counts) where step < stepCount { dense[Int(step)] += cell }
        return dense
    }

    /// Whether no step has counts.
    public var isEmpty: Bool { steps.isEmpty }

    /// The steps and their counts, handed over: what is held by nothing else can be changed in place.
    public consuming func parts() -> (steps: [Int32], counts: [OutcomeCounts]) { (steps, counts) }

    /// Whether both hold the same counts at the same steps (normalized ones compare as their sums do).
    public static func == (lhs: StepCounts, rhs: StepCounts) -> Bool { lhs.steps == rhs.steps && lhs.counts == rhs.counts }

    /// Hashes the steps and their counts, as ``==`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(steps)
        hasher.combine(counts)
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
