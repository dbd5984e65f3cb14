/// How traffic varies with the time of day (UTC) and the day of the week; both factors average 1.
enum TrafficShape {
    /// Relative traffic at each full UTC hour: trough around 04:00, peak around 20:00 (about 4×).
    private static let hourly: [Double] = {
        let raw = [
            0.90, 0.72, 0.56, 0.46, 0.40, 0.42, 0.50, 0.62, 0.75, 0.85, 0.92, 0.98,
            1.05, 1.10, 1.15, 1.20, 1.28, 1.38, 1.50, 1.60, 1.62, 1.50, 1.30, 1.10,
        ]
        // The mean of a periodic piecewise-linear curve is the mean of its nodes.
        let mean = raw.reduce(0, +) / Double(raw.count)
        return raw.map { $0 / mean }
    }()

    /// Relative traffic per weekday, Sunday first: busier weekends, a quieter start of the week.
    private static let weekly: [Double] = [1.06, 0.96, 0.96, 0.97, 0.98, 1.02, 1.05]

    /// The traffic factor at `millis`: the hourly curve, linearly interpolated, times the weekday factor.
    static func factor(at millis: Int64) -> Double {
        let (day, millisOfDay) = millis.floorDividedBy(.millisPerDay)
        let hours = Double(millisOfDay) / .millisPerHour
        let hour = Int(hours)
        let fraction = hours - Double(hour)
        let daily = hourly[hour] * (1 - fraction) + hourly[(hour + 1) % 24] * fraction
        let weekday = Int((day + 4).floorDividedBy(7).remainder)  // 1970-01-01 was a Thursday
        return daily * weekly[weekday]
    }
}
