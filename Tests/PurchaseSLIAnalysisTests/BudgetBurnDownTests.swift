import PurchaseSLICore
import Testing

@testable import PurchaseSLIAnalysis

/// The error budget day by day, and its projection at the last 7 days' burn rate.
@Suite struct BudgetBurnDownTests {
    /// 2026-11-20T00:00:00Z.
    static let at: Int64 = 1_795_132_800
    static let objective = SLOPolicy.Objective(actionType: "purchase", target: 0.99, window: .rolling(seconds: 28 * 86_400))

    /// 1,000 valid events an hour over the 56 days before `at`, failing at `burn(day)` times the error
    /// budget (day 0 is the last day before `at`).
    static func hourly(burn: (Int) -> Double) -> [Int64: OutcomeCounts] {
        var hours: [Int64: OutcomeCounts] = [:]
        for hour in 0..<(56 * 24) {
            let start = at - Int64(hour + 1) * 3600
            let failures = Int64((burn(hour / 24) * 0.01 * 1000).rounded())
            hours[start] = OutcomeCounts(success: 1000 - failures, failure: failures)
        }
        return hours
    }

    @Test func aSteadyHalfBurnLeavesHalfTheBudgetAndLasts() {
        let burnDown = BudgetBurnDown(objective: Self.objective, hourly: Self.hourly { _ in 0.5 }, at: Self.at, days: 28)
        #expect(burnDown.points.count == 29 && burnDown.points.allSatisfy { abs(($0.left ?? 0) - 0.5) < 1e-9 })
        #expect(burnDown.points.last?.timeSeconds == Self.at && burnDown.points.first?.timeSeconds == Self.at - 28 * 86_400)
        #expect(abs((burnDown.recentBurnRate ?? 0) - 0.5) < 1e-9)
        #expect(burnDown.projection.count == 28 && burnDown.projection.allSatisfy { abs(($0.left ?? 0) - 0.5) < 1e-9 })
        #expect(burnDown.exhaustionSeconds == nil)
    }

    /// A week at 2× after three at 0.5×: 12.5 % left; each day ahead adds a 2× day and drops a 0.5× one,
    /// so the budget is spent on the third day.
    @Test func aFasterBurnRunsOutOnTheDayTheProjectionCrossesZero() {
        let burnDown = BudgetBurnDown(objective: Self.objective, hourly: Self.hourly { $0 < 7 ? 2 : 0.5 }, at: Self.at, days: 28)
        #expect(abs((burnDown.points.last?.left ?? 0) - 0.125) < 1e-9)
        let lefts: [Double] = burnDown.projection.prefix(3).map { $0.left ?? 0 }
        let expected: [Double] = [1, 2, 3].map { 0.125 - 1.5 * Double($0) / 28 }
        #expect(zip(lefts, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(lefts)")
        #expect(burnDown.exhaustionSeconds == Self.at + 3 * 86_400)
        // The exact count of the window ending now is what the last point shows.
        let exact = BudgetBurnDown(
            objective: Self.objective, hourly: Self.hourly { $0 < 7 ? 2 : 0.5 }, at: Self.at, days: 28,
            current: OutcomeCounts(success: 990, failure: 10))
        #expect(abs(exact.points.last?.left ?? 1) < 1e-9 && exact.points.dropLast().last?.left == burnDown.points.dropLast().last?.left)
    }

    /// Data that began 18 hours before a day's end leaves that day without a point (one failure would read
    /// as the budget overspent many times); the next day, a whole day in, has one.
    @Test func aWindowWithUnderADayOfDataHasNoPoint() {
        let all = Self.hourly { _ in 3 }
        let hourly = all.filter { $0.key >= Self.at - 18 * 3600 - 86_400 }
        let burnDown = BudgetBurnDown(objective: Self.objective, hourly: hourly, at: Self.at, days: 28)
        #expect(burnDown.points.last.map { abs(($0.left ?? 0) + 2) < 1e-9 } == true, "a whole day and 18 h at 3×: spent 3 times")
        #expect(burnDown.points.dropLast().last?.left == nil && burnDown.pointsWithTooLittleData == 1)
        #expect(burnDown.points.dropLast(2).allSatisfy { $0.left == nil })
    }

    /// A calendar month's budget is projected to the month's end: at 1.5× from the 20th of a 30-day month
    /// whose first 12 days burnt 0.5×, it is spent exactly at the end of the 24th and overspent on the 26th.
    @Test func aCalendarMonthIsProjectedToItsEnd() {
        let monthly = SLOPolicy.Objective(actionType: "purchase", target: 0.99, window: .calendarMonth)
        let burnDown = BudgetBurnDown(objective: monthly, hourly: Self.hourly { $0 < 7 ? 1.5 : 0.5 }, at: Self.at, days: 28)
        // November 2026 has 30 days: from the 20th, eleven days to December 1st.
        #expect(burnDown.projection.count == 11 && burnDown.projection.last?.timeSeconds == Self.at + 11 * 86_400)
        // So far 12 days at 0.5×, 7 at 1.5×: spent (6 + 10.5) / 19; each further day at 1.5×: all of it
        // after 5 days, more after 6.
        let spent = { (days: Double) -> Double in (16.5 + 1.5 * days) / (19 + days) }
        #expect(abs((burnDown.points.last?.left ?? 0) - (1 - spent(0))) < 1e-9)
        #expect(abs((burnDown.projection[3].left ?? 0) - (1 - spent(4))) < 1e-9)
        #expect(abs(burnDown.projection[4].left ?? 1) < 1e-9 && burnDown.exhaustionSeconds == Self.at + 6 * 86_400)
        // The month starts afresh: on the 2nd, one day at 0.5× has spent half of it.
        #expect(burnDown.points.first { $0.timeSeconds == Self.at - 18 * 86_400 }.map { abs(($0.left ?? 0) - 0.5) < 1e-9 } == true)
    }
}
