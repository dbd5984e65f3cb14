import PurchaseSLICore
import Testing

/// Step counts hold each step's counts in 4 bytes a count while they fit and as whole counts from the
/// first that does not: what they answer is the same either way.
@Suite struct StepCountsTests {
    /// Counts added at steps, in order or not, some to a step already given: the steps and counts are those
    /// summed step by step, whatever the counts' size.
    @Test(
        "counts of any size are held as summed",
        arguments: [
            ("small", [(0, 1), (3, 2), (3, 5), (9, 1)]),
            ("a count over 4 bytes", [(0, 1), (3, 1 << 32), (9, 1)]),
            ("a negative count", [(0, 1), (3, -4), (9, 1)]),
            ("a step that passes 4 bytes once summed", [(0, 1), (3, 1 << 31), (3, 1 << 31), (9, 1)]),
            ("out of order, passing 4 bytes once summed", [(9, 1), (3, 1 << 31), (0, 1), (3, 1 << 31)]),
            ("out of order, small", [(9, 1), (3, 2), (0, 1), (3, 5)]),
        ] as [(String, [(Int32, Int64)])])
    func countsOfAnySizeAreHeldAsSummed(_ name: String, additions: [(Int32, Int64)]) {
        var counts = StepCounts()
        var expected: [Int32: OutcomeCounts] = [:]
        for (step, success) in additions {
            let cell = OutcomeCounts(start: 1, success: success, conflicts: success)
            counts.add(cell, at: step)
            expected[step, default: OutcomeCounts()] += cell
        }
        counts.normalize()
        let steps = expected.keys.sorted()
        #expect(counts.steps == steps)
        #expect(Array(counts.counts) == steps.map { expected[$0]! })
        #expect(counts.dense(stepCount: 10) == (0..<10).map { expected[Int32($0)] ?? OutcomeCounts() })
        var cut = counts
        cut.removeSteps(from: 4)
        #expect(cut.steps == steps.filter { $0 < 4 })
        #expect(Array(cut.counts) == steps.filter { $0 < 4 }.map { expected[$0]! })
        #expect(counts.mapCounts { $0 } == counts)
    }

    /// Equal counts compare and hash equal whether or not one of them was once too large for 4 bytes.
    @Test func equalCountsAreEqualHoweverHeld() {
        var compact = StepCounts()
        compact.add(OutcomeCounts(success: 2), at: 1)
        compact.add(OutcomeCounts(success: 3), at: 4)
        // Held whole from the count that does not fit, which is then cut off.
        var wide = StepCounts()
        wide.add(OutcomeCounts(success: 2), at: 1)
        wide.add(OutcomeCounts(success: 3), at: 4)
        wide.add(OutcomeCounts(success: 1 << 40), at: 9)
        #expect(wide != compact)
        wide.removeSteps(from: 5)
        #expect(wide == compact)
        #expect(wide.hashValue == compact.hashValue)
        wide.add(OutcomeCounts(success: 1), at: 4)
        #expect(wide != compact)
    }

    /// Compact counts hold exactly the counts from 0 to `UInt32.max`, and say when a sum passes them.
    @Test func compactCountsHoldExactlyWhatFits() {
        #expect(CompactCounts(exactly: OutcomeCounts(success: Int64(UInt32.max)))?.counts == OutcomeCounts(success: Int64(UInt32.max)))
        #expect(CompactCounts(exactly: OutcomeCounts(success: Int64(UInt32.max) + 1)) == nil)
        #expect(CompactCounts(exactly: OutcomeCounts(serverErrors: -1)) == nil)
        let large = CompactCounts(exactly: OutcomeCounts(failure: 1 << 31))!
        #expect(large.adding(large) == nil)
        let small = CompactCounts(exactly: OutcomeCounts(start: 1, success: 2, alreadyGranted: 3, failure: 4))!
        #expect(large.adding(small)?.counts == OutcomeCounts(start: 1, success: 2, alreadyGranted: 3, failure: (1 << 31) + 4))
        #expect(small.valid == 9)
    }
}
