public import PurchaseSLICore

/// An objective's error budget day by day: what was left over its window at the end of each of the last
/// days, and, at the burn rate of the last ``recentDays`` days, how it goes on and the day it runs out.
/// Pure: a function of hourly counts and the evaluation time.
///
/// A day whose window holds less than ``minimumDataSeconds`` of data (the first day of a new install, or
/// of a new action) has no point: a 28-day budget judged on a few hours of restores swings to −140 % on one
/// failure, which says nothing of the objective.
///
/// The budget left over a window is `1 − budget spent` (``SLOPolicy/Objective/budgetSpent(_:)``): the
/// share of the failures the objective allows over the window's valid events not yet spent. The
/// projection assumes the next days look like the last ``recentDays``: as many valid events an hour, at the
/// same burn rate; in a rolling window the oldest days leave it as the new ones come.
public struct BudgetBurnDown: Sendable, Hashable {
    /// The budget left over the window ending at a time; nil without valid events.
    public struct Point: Sendable, Hashable {
        /// The window's end, seconds since the epoch.
        public var timeSeconds: Int64
        /// The share of the budget left (negative: overspent).
        public var left: Double?
    }

    /// Days of the recent past whose burn rate the projection carries on.
    public static let recentDays = 7

    /// The data a window must hold for its budget to be drawn: a day.
    public static let minimumDataSeconds: Int64 = .secondsPerDay

    /// The objective.
    public let objective: SLOPolicy.Objective
    /// The budget left at the evaluation time and at each day before it, oldest first.
    public let points: [Point]
    /// From the evaluation time on, a day at a time at the recent burn rate: over one window's length
    /// (rolling), or to the end of the month (calendar month).
    public let projection: [Point]
    /// The burn rate of the last ``recentDays`` days, nil without valid events.
    public let recentBurnRate: Double?
    /// The first projected day end with the budget spent, nil when it lasts (or is spent already).
    public let exhaustionSeconds: Int64?
    /// Day ends left without a point because their window held less than ``minimumDataSeconds`` of data
    /// (though it held valid events).
    public let pointsWithTooLittleData: Int

    /// The burn-down of `objective` at `time` over the `days` days before it, from `hourly`: counts per
    /// hour start covering those days and one window before them (missing hours had no events). The
    /// windows are read in whole hours; `current`, the counts of the window ending at `time` read to the
    /// minute, makes the last point the figure the rest of the page shows.
    public init(objective: SLOPolicy.Objective, hourly: [Int64: OutcomeCounts], at time: Int64, days: Int, current: OutcomeCounts? = nil) {
        self.objective = objective
        let sums = HourlySums(hourly)
        let firstData = hourly.filter { $0.value.valid > 0 }.keys.min() ?? time
        var tooLittle = 0
        points = (0...days).reversed().map { back in
            let end = time - Int64(back) * .secondsPerDay
            let start = objective.window.period(at: end).startSeconds
            let counts = back == 0 ? current ?? sums.counts(from: start, to: end) : sums.counts(from: start, to: end)
            guard end - max(start, firstData) >= Self.minimumDataSeconds else {
                if counts.valid > 0 { tooLittle += 1 }
                return Point(timeSeconds: end, left: nil)
            }
            return Point(timeSeconds: end, left: objective.budgetSpent(counts).map { 1 - $0 })
        }
        pointsWithTooLittleData = tooLittle
        let recent = sums.counts(from: time - Int64(Self.recentDays) * .secondsPerDay, to: time)
        recentBurnRate = objective.burnRate(recent)
        guard let rate = recentBurnRate, points.last?.left != nil else {
            (projection, exhaustionSeconds) = ([], nil)
            return
        }
        let validPerSecond = Double(recent.valid) / Double(Self.recentDays * .secondsPerDay)
        let period = objective.window.period(at: time)
        let horizon =
            switch objective.window {
            case .rolling(let seconds): time + seconds
            case .calendarMonth: period.startSeconds + period.lengthSeconds
            }
        var projected: [Point] = []
        var end = time + .secondsPerDay
        while end <= horizon {
            let start = objective.window.period(at: end).startSeconds
            let past = sums.counts(from: start, to: time)
            let future = validPerSecond * Double(end - max(start, time))
            let valid = Double(past.valid) + future
            let failures = Double(past.failure) + future * rate * objective.errorBudget
            projected.append(Point(timeSeconds: end, left: valid > 0 ? 1 - failures / (objective.errorBudget * valid) : nil))
            end += .secondsPerDay
        }
        projection = projected
        let spentAlready = (points.last?.left ?? 1) < 0
        exhaustionSeconds = spentAlready ? nil : projected.first { ($0.left ?? 1) < 0 }?.timeSeconds
    }
}

/// Running sums of hourly valid events and failures, for the counts over any range of whole hours.
private struct HourlySums {
    private let first: Int64
    private let valid: [Int64]
    private let failure: [Int64]

    init(_ hourly: [Int64: OutcomeCounts]) {
        let hours = hourly.keys.sorted()
        let start = hours.first.map { $0 - $0.floorDividedBy(.secondsPerHour).remainder } ?? 0
        let count = hours.last.map { Int(($0 - start) / .secondsPerHour) + 1 } ?? 0
        var (valid, failure) = ([Int64](repeating: 0, count: count + 1), [Int64](repeating: 0, count: count + 1))
        for index in 0..<count {
            let counts = hourly[start + Int64(index) * .secondsPerHour] ?? OutcomeCounts()
            valid[index + 1] = valid[index] + counts.valid
            failure[index + 1] = failure[index] + counts.failure
        }
        (first, self.valid, self.failure) = (start, valid, failure)
    }

    /// The valid events and failures of the hours starting in `[from, to)`.
    func counts(from: Int64, to: Int64) -> OutcomeCounts {
        func index(_ time: Int64) -> Int { min(valid.count - 1, max(0, Int((time - first + 3599).floorDividedBy(.secondsPerHour).quotient))) }
        let (lower, upper) = (index(from), index(to))
        guard upper > lower else { return OutcomeCounts() }
        return OutcomeCounts(success: valid[upper] - valid[lower] - (failure[upper] - failure[lower]), failure: failure[upper] - failure[lower])
    }
}
