import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// The minutes maintenance windows leave out of each action's budget, and the series the burn rules read.
@Suite struct MaintenanceCalendarTests {
    private let origin: Int64 = 1_795_000_000 - 1_795_000_000 % 86_400

    private func window(_ id: String, from: Int64, to: Int64, actions: [String] = [], rrule: String? = nil) throws -> MaintenanceWindow {
        MaintenanceWindow(
            id: id, startSeconds: origin + from, endSeconds: origin + to, recurrence: try rrule.map(RecurrenceRule.init(parsing:)),
            actions: actions, reason: "work \(id)")
    }

    @Test func everyMinuteAWindowTouchesIsLeftOutOfTheActionsItCovers() throws {
        let calendar = MaintenanceCalendar([
            try window("a", from: 630, to: 1800, actions: ["purchase"]),  // 00:10:30 to 00:30: from 00:10
            try window("b", from: 1790, to: 2401),  // every action, overlapping a: to 00:41
            try window("c", from: 7200, to: 7260, actions: ["restore"]),
        ])
        let ranges = calendar.excludedRanges(of: "purchase", from: origin, to: origin + 86_400).map {
            ($0.lowerBound - origin, $0.upperBound - origin)
        }
        #expect(ranges.map(\.0) == [600] && ranges.map(\.1) == [2460])
        let restore = calendar.excludedRanges(of: "restore", from: origin + 1800, to: origin + 86_400).map {
            ($0.lowerBound - origin, $0.upperBound - origin)
        }
        #expect(restore.map(\.0) == [1800, 7200] && restore.map(\.1) == [2460, 7260])
        #expect(calendar.excludedRanges(of: "retry", from: origin + 3600, to: origin + 7200).isEmpty)
    }

    @Test func aRecurringWindowLeavesOutEachOccurrence() throws {
        let calendar = MaintenanceCalendar([try window("nightly", from: 3 * 3600, to: 3 * 3600 + 900, rrule: "FREQ=DAILY;COUNT=2")])
        let ranges = calendar.excludedRanges(of: "purchase", from: origin, to: origin + 5 * 86_400).map(\.lowerBound)
        #expect(ranges == [origin + 3 * 3600, origin + 86_400 + 3 * 3600])
    }

    @Test func theBudgetedSeriesIsEmptyInsideAndTheSameOutside() throws {
        let minutes = (0..<120).map { minute in OutcomeCounts(success: 10, failure: minute >= 30 && minute < 60 ? 10 : 0) }
        let series = MinuteSeries(labels: SeriesLabels(actionType: "purchase"), startSeconds: origin, minutes: minutes)
        let calendar = MaintenanceCalendar([try window("outage", from: 1800, to: 3600, actions: ["purchase"])])
        let budgeted = calendar.budgeted(series)
        #expect(budgeted.counts(from: origin, to: origin + 7200) == OutcomeCounts(success: 900))
        #expect(budgeted.counts(from: origin + 3600, to: origin + 7200) == series.counts(from: origin + 3600, to: origin + 7200))
        let restore = MinuteSeries(labels: SeriesLabels(actionType: "restore"), startSeconds: origin, minutes: minutes)
        #expect(calendar.budgeted(restore).counts(from: origin, to: origin + 7200) == restore.counts(from: origin, to: origin + 7200))
    }
}
