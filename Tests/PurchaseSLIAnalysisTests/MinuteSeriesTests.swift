import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// A series restricted to a span holds events exactly when it has a first event there.
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
}
