import PurchaseSLICore
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIAnalysis

/// The slices a sweep names at a time are exactly those whose count over the window before it reaches the
/// minimum, as the series' own window counts say, whatever order the times come in.
@Suite struct SliceSweepTests {
    /// Units over 3,000 minutes from minute 100: busy, sparse (a few minutes a day, some at the edges of
    /// the sums' 64-minute words), empty, restricted to a span starting within a minute, and two series
    /// summed.
    static let units: [[MinuteSeries]] = {
        var generator = SeededGenerator(seed: 66)
        func series(_ name: String, density: Double) -> MinuteSeries {
            let minutes = (0..<3_000).map { minute -> OutcomeCounts in
                guard Double.random(in: 0..<1, using: &generator) < density || minute == 63 || minute == 64 else { return OutcomeCounts() }
                var counts = OutcomeCounts(start: 1, success: Int64.random(in: 0...3, using: &generator))
                counts.failure = Int64.random(in: 0...2, using: &generator)
                counts.cancel = Int64.random(in: 0...1, using: &generator)
                counts.conflicts = Int64.random(in: 0...1, using: &generator)
                return counts
            }
            return MinuteSeries(
                labels: SeriesLabels(actionType: "purchase", slice: .init(dimension: .productID, value: name)), startSeconds: 6_000, minutes: minutes)
        }
        let restricted = series("restricted", density: 0.3).restricted(from: 60_030, to: 150_000)
        return [
            [series("busy", density: 0.9)], [series("sparse", density: 0.01)], [series("empty", density: 0).restricted(from: 0, to: 0)],
            [restricted], [series("a", density: 0.05), series("b", density: 0.05)],
        ]
    }()

    /// The units whose `count` over the `window` before `time` is at least `minimum`, read one by one.
    static func expected(at time: Int64, window: Int64, minimum: Int64, count: SliceCount) -> [Int] {
        units.indices.filter { unit in
            units[unit].reduce(0) { $0 + count($1.counts(from: time - window, to: time)) } >= minimum
        }
    }

    /// Every minute forward (through spans that double), then back within a span and before it, far ahead,
    /// and at random times that are not on a minute.
    static let times: [Int64] = {
        var generator = SeededGenerator(seed: 67)
        let forward = Array(stride(from: Int64(5_000), through: 190_000, by: 60))
        let jumps: [Int64] = [120_000, 120_600, 120_300, 119_940, 60_000, 60_060, 250_000, 6_000, 7_000]
        let random = (0..<300).map { _ in Int64.random(in: 0...200_000, using: &generator) }
        return forward + jumps + random + random.sorted()
    }()

    @Test(
        "names the units a read of each would",
        arguments: [
            (900, 20, .valid), (3_600, 5, .failure), (14_400, 10, .cancel), (90, 1, .total), (0, 1, .total), (86_400, 3, .conflicts),
            (60, 2, .failure),
        ] as [(Int64, Int64, SliceCount)])
    func namesTheUnitsAReadOfEachWould(window: Int64, minimum: Int64, count: SliceCount) {
        let sweep = SliceSweep(units: Self.units, windowSeconds: window, minimum: minimum, count: count)
        var mismatches: [Int64] = []
        var named = Set<[Int]>()
        for time in Self.times {
            let expected = Self.expected(at: time, window: window, minimum: minimum, count: count)
            named.insert(expected)
            if sweep.active(at: time) != expected || sweep.activeCount(at: time) != expected.count { mismatches.append(time) }
        }
        #expect(mismatches.isEmpty, "wrong at \(mismatches.prefix(5)) of \(mismatches.count) times")
        // Not a test of nothing: the units named change from time to time (none in an empty window).
        #expect(window == 0 ? named == [[]] : named.count >= 3)
    }

    /// Each unit with events is named at some times and not at others.
    @Test func theUnitsComeAndGo() {
        let named = Self.times.map { Set(Self.expected(at: $0, window: 900, minimum: 1, count: .total)) }
        for unit in [0, 1, 3, 4] {
            #expect(named.contains { $0.contains(unit) } && named.contains { !$0.contains(unit) }, "unit \(unit)")
        }
    }
}
