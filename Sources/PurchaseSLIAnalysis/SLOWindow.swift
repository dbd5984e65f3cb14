import PurchaseSLICore

/// The period over which an objective's error budget is measured: a rolling window, or the calendar month
/// (UTC) that a time falls in.
public enum SLOWindow: Sendable, Hashable, CustomStringConvertible {
    /// The `seconds` before the time of evaluation.
    case rolling(seconds: Int64)
    /// From the first of the month (UTC) to the time of evaluation; the budget is the whole month's.
    case calendarMonth

    /// The budget period in force at `time`: where it starts, and its whole length (for a calendar month,
    /// the month's number of days; its start is the month's first second, so it has run `time − start`).
    public func period(at time: Int64) -> (startSeconds: Int64, lengthSeconds: Int64) {
        switch self {
        case .rolling(let seconds):
            return (time - seconds, seconds)
        case .calendarMonth:
            let (days, _) = time.floorDividedBy(.secondsPerDay)
            let date = RFC3339.civilDate(daysSinceEpoch: Int(days))
            let first = Int64(RFC3339.daysSinceEpoch(year: date.year, month: date.month, day: 1)) * .secondsPerDay
            return (first, Int64(RFC3339.daysInMonth(year: date.year, month: date.month)) * .secondsPerDay)
        }
    }

    /// "28d", or "calendar month".
    public var description: String {
        switch self {
        case .rolling(let seconds): TimeStep(seconds: seconds).description
        case .calendarMonth: "calendar month"
        }
    }
}
