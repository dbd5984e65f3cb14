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
}
