/// A duration written as a count and a unit (`30s`, `5m`, `1h`, `7d`, `2w`), in seconds.
public struct TimeStep: Sendable, Hashable, CustomStringConvertible {
    /// The duration in seconds.
    public let seconds: Int64

    /// Creates a step of a positive number of seconds.
    public init(seconds: Int64) {
        precondition(seconds > 0, "a time step must be positive")
        self.seconds = seconds
    }

    /// The longest duration a user may give (100 years): every time and duration that arithmetic
    /// combines stays far from the limits of `Int64`.
    public static let longestSeconds: Int64 = 36_500 * .secondsPerDay

    /// Parses `<count><unit>` with unit s, m, h, d or w; nil for anything else, a zero count, or more
    /// than ``longestSeconds``.
    public init?(parsing text: String) {
        guard let unit = text.last, text.utf8.count <= 24, let count = Int64(text.dropLast()), count > 0 else { return nil }
        let unitSeconds: Int64
        switch unit {
        case "s": unitSeconds = 1
        case "m": unitSeconds = .secondsPerMinute
        case "h": unitSeconds = .secondsPerHour
        case "d": unitSeconds = .secondsPerDay
        case "w": unitSeconds = .secondsPerWeek
        default: return nil
        }
        let (product, overflow) = count.multipliedReportingOverflow(by: unitSeconds)
        guard !overflow, product <= Self.longestSeconds else { return nil }
        self.init(seconds: product)
    }

    /// The shortest spelling in days, hours, minutes or seconds: `5m` rather than `300s`, `28d`.
    public var description: String {
        for (unit, size) in [("d", Int64.secondsPerDay), ("h", .secondsPerHour), ("m", .secondsPerMinute)] where seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
