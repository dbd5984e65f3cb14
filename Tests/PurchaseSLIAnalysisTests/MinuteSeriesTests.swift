import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// A series restricted to a span holds events exactly when it has a first event there; the valid counts a
/// burn-rate test reads are those of the whole counts.
@Suite struct MinuteSeriesTests {
    /// Ten minutes from 0 with events in minutes 3 and 7 (a start alone in 7).
    static let series = MinuteSeries(
        labels: SeriesLabels(actionType: "purchase"), startSeconds: 0,
        minutes: (0..<10).map { minute in
            minute == 3 ? OutcomeCounts(start: 1, success: 1) : minute == 7 ? OutcomeCounts(start: 1) : OutcomeCounts()
        })

    @Test(
        "has events: the same as a first event, whatever the span",
        arguments: [
            (0, 600, 180), (0, 180, nil), (180, 240, 180), (240, 420, nil), (240, 480, 420), (480, 600, nil), (-600, 60, nil),
            (540, 1200, nil), (300, 300, nil),
        ] as [(Int64, Int64, Int64?)])
    func hasEventsMatchesTheFirstEvent(from: Int64, to: Int64, first: Int64?) {
        let restricted = Self.series.restricted(from: from, to: to)
        #expect(restricted.firstEventSeconds == first)
        #expect(restricted.hasEvents == (first != nil))
    }

    /// Every window, within, across and beyond a series of varied minutes, and of its restrictions: the
    /// valid counts' valid events, failures and success rate are the whole counts', nothing else counted.
    @Test func validCountsAreThoseOfTheWholeCounts() {
        let minutes = (Int64(0)..<30).map { minute -> OutcomeCounts in
            var counts = OutcomeCounts(start: minute % 4, success: minute % 5, alreadyGranted: minute % 3)
            counts.failure = (minute * 7) % 4
            counts.cancel = minute % 2
            counts.pending = 1
            counts.conflicts = minute % 3
            counts.serverErrors = minute % 2
            return counts
        }
        let whole = MinuteSeries(labels: SeriesLabels(actionType: "purchase"), startSeconds: 600, minutes: minutes)
        for series in [whole, whole.restricted(from: 900, to: 1800)] {
            for from in stride(from: Int64(0), through: 2700, by: 60) {
                for to in stride(from: from, through: 2700, by: 120) {
                    let counts = series.counts(from: from, to: to)
                    let valid = series.validCounts(from: from, to: to)
                    #expect(valid.valid == counts.valid)
                    #expect(valid.failure == counts.failure)
                    #expect(valid.successRate == counts.successRate)
                    #expect(valid == OutcomeCounts(success: counts.valid - counts.failure, failure: counts.failure))
                }
            }
        }
        #expect(whole.validCounts(last: 600, before: 1200) == whole.validCounts(from: 600, to: 1200))
    }

    /// A series of 300 minutes with events in few of them (at the edges of its 64-minute words among
    /// them), made from the minutes with events given out of order and twice: every window's counts, valid
    /// counts, first and last event, the start holding a number of valid events, and the minutes with
    /// events, of it and of its restrictions, are those summed minute by minute. At every scale of its
    /// counts: held in 4 bytes each (1), with totals whose valid events (2^26), then counts (2^27), pass
    /// 4 bytes, with minutes that pass them once summed (2^30), and with counts that never fit (2^33).
    @Test(arguments: [1, 1 << 26, 1 << 27, 1 << 30, 1 << 33] as [Int64])
    func aSparseSeriesAnswersAsItsMinutesSummed(scale: Int64) {
        var dense = [OutcomeCounts](repeating: OutcomeCounts(), count: 300)
        var given = StepCounts()
        var seed: UInt64 = 7
        var minutes = [0, 5, 63, 64, 65, 127, 128, 200, 255, 256, 299]
        for _ in 0..<40 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            minutes.append(Int(seed >> 33) % 300)
        }
        for minute in minutes {
            let cancel: Int64 = minute % 5 == 0 ? 1 : 0
            let counts = OutcomeCounts(
                start: scale, success: scale * Int64(minute % 3), failure: scale * Int64(minute % 2), cancel: scale * cancel)
            dense[minute] += counts
            given.add(counts, at: Int32(minute))
        }
        given.normalize()
        #expect(given.steps == dense.indices.filter { !dense[$0].isEmpty }.map(Int32.init))
        #expect(given.dense(stepCount: 300) == dense)
        let whole = MinuteSeries(labels: SeriesLabels(actionType: "purchase"), startSeconds: 6000, minuteCount: 300, counts: given)
        func summed(_ from: Int64, _ to: Int64, lower: Int64, upper: Int64) -> OutcomeCounts {
            let first: Int64 = max(from, lower, 6000)
            let end: Int64 = min(to, upper, 6000 + 300 * 60)
            var total = OutcomeCounts()
            for minute in stride(from: first, to: end, by: 60) { total += dense[Int((minute - 6000) / 60)] }
            return total
        }
        let spans: [(Int64, Int64)] = [(0, 100_000), (6000 + 64 * 60, 6000 + 200 * 60), (6000 + 63 * 60, 6000 + 129 * 60)]
        for (lower, upper) in spans {
            let series = whole.restricted(from: lower, to: upper)
            var byMinute = [OutcomeCounts](repeating: OutcomeCounts(), count: Int((series.endSeconds - series.startSeconds) / 60))
            let given = series.countsByMinute()
            for (step, counts) in zip(given.steps, given.counts) { byMinute[Int(step)] = counts }
            let expectedByMinute = byMinute.indices.map { index -> OutcomeCounts in
                let minute = series.startSeconds + Int64(index) * 60
                return summed(minute, minute + 60, lower: lower, upper: upper)
            }
            #expect(byMinute == expectedByMinute)
            for from in stride(from: Int64(5400), through: 6000 + 310 * 60, by: 60 * 7) {
                for to in stride(from: from, through: 6000 + 310 * 60, by: 60 * 11) {
                    let expected = summed(from, to, lower: lower, upper: upper)
                    #expect(series.counts(from: from, to: to) == expected)
                    #expect(
                        series.validCounts(from: from, to: to) == OutcomeCounts(success: expected.valid - expected.failure, failure: expected.failure)
                    )
                    let minutes = stride(from: max(from, series.startSeconds), to: min(to, series.endSeconds), by: 60).filter {
                        !summed($0, $0 + 60, lower: lower, upper: upper).isEmpty
                    }
                    #expect(series.firstEvent(from: from, to: to) == minutes.first)
                    if from <= series.startSeconds { #expect(series.lastEvent(before: to) == minutes.last) }
                    let holding = stride(from: to - 60, through: max(from, series.startSeconds), by: -60).first {
                        summed($0, to, lower: lower, upper: upper).valid >= 3 * scale
                    }
                    #expect(series.start(holdingValid: 3 * scale, before: to, notBefore: from) == holding.map { max($0, series.startSeconds) })
                }
            }
        }
    }

    /// Counts given out of order, and to a step already given, are sorted and summed by `normalize`.
    @Test func stepCountsSortAndSumWhatComesOutOfOrder() {
        var counts = StepCounts()
        for (step, success) in [(5, 1), (9, 1), (2, 1), (9, 2), (5, 4), (0, 1)] as [(Int32, Int64)] {
            counts.add(OutcomeCounts(success: success), at: step)
        }
        counts.add(OutcomeCounts(), at: 1)
        counts.normalize()
        #expect(counts.steps == [0, 2, 5, 9])
        #expect(counts.counts.map(\.success) == [1, 1, 5, 3])
        counts.removeSteps(from: 6)
        #expect(counts.steps == [0, 2, 5])
    }

    /// A restriction starting within a minute counts its minutes from that minute: step i is the i-th
    /// minute after it, as the window counts read them.
    @Test func aRestrictionWithinAMinuteCountsItsStepsFromThatMinute() {
        let restricted = Self.series.restricted(from: 150, to: 600)
        let byMinute = restricted.countsByMinute()
        #expect(byMinute.steps == [1, 5])
        #expect(Array(byMinute.counts) == [OutcomeCounts(start: 1, success: 1), OutcomeCounts(start: 1)])
    }
}
