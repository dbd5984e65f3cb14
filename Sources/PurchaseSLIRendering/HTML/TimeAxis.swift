import PurchaseSLICore

/// Round local times to label a time axis: hours within a day, days within weeks, in the page's zone.
enum TimeAxis {
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Ticks between two times: every 1, 3, 6 or 12 hours, or every 1, 2, 7 or 28 days of `zone`'s clock,
    /// whichever gives at most about `atMost` labels (eight on a wide chart). Weekly ticks fall on Mondays,
    /// where ISO weeks start; a daily tick is at local midnight, whatever the day's length.
    static func ticks(from start: Int64, to end: Int64, atMost: Int = 8, in zone: TimeZoneOffsets = .utc) -> [(seconds: Int64, label: String)] {
        let span = max(1, end - start)
        let steps: [Int64] = [
            .secondsPerHour, 3 * .secondsPerHour, 6 * .secondsPerHour, 12 * .secondsPerHour, .secondsPerDay, 2 * .secondsPerDay, 7 * .secondsPerDay,
            28 * .secondsPerDay,
        ]
        let step = steps.first { span / $0 <= atMost } ?? 28 * .secondsPerDay
        let origin: Int64 = step % (7 * .secondsPerDay) == 0 ? 4 * .secondsPerDay : 0  // 1970-01-05, a Monday
        var local = (zone.localSeconds(start) - origin + step - 1).floorDividedBy(step).quotient * step + origin
        var ticks: [(Int64, String)] = []
        while case let tick = zone.utcSeconds(ofLocal: local), tick <= end {
            if tick >= start, tick > (ticks.last?.0 ?? .min) { ticks.append((tick, label(local: local, daily: step >= .secondsPerDay))) }
            local += step
        }
        return ticks
    }

    /// "Nov 14" at midnight or on a daily axis, else "06:00", of a local time.
    static func label(local seconds: Int64, daily: Bool) -> String {
        let text = RFC3339.format(seconds: seconds)  // 2026-11-14T06:00:00Z
        let month = Int(text.dropFirst(5).prefix(2)) ?? 1
        let day = Int(text.dropFirst(8).prefix(2)) ?? 1
        let time = String(text.dropFirst(11).prefix(5))
        return daily || time == "00:00" ? "\(monthNames[month - 1]) \(day)" : time
    }
}
