/// A point in time given on the command line: RFC 3339, a UTC date, `now`, or `now-7d` / `-7d`.
public struct TimeArgument: Sendable, Hashable {
    /// Seconds since the epoch.
    public let seconds: Int64

    /// The times a user may give: 1970-01-01T00:00:00Z up to 9999-12-31T23:59:59Z, so that differences and
    /// sums of times and durations never overflow.
    public static let supportedSeconds: ClosedRange<Int64> = 0...253_402_300_799

    /// Parses `text`, resolving relative times against `nowSeconds`; nil when the text is none of the
    /// forms or lies outside ``supportedSeconds``.
    public init?(_ text: String, nowSeconds: Int64) {
        let parsed: Int64
        if text == "now" {
            parsed = nowSeconds
        } else if let millis = RFC3339.parseMillis(text) {
            parsed = millis.floorDividedBy(.millisPerSecond).quotient
        } else if text.utf8.count == 10, let millis = RFC3339.parseMillis(text + "T00:00:00Z") {
            parsed = millis / .millisPerSecond
        } else if text.hasPrefix("now-") || text.hasPrefix("-"), let step = TimeStep(parsing: String(text.drop { $0 != "-" }.dropFirst())),
            Self.supportedSeconds.contains(nowSeconds)
        {
            parsed = nowSeconds - step.seconds
        } else {
            return nil
        }
        guard Self.supportedSeconds.contains(parsed) else { return nil }
        seconds = parsed
    }

    /// The accepted forms, for help and error text.
    public static let forms =
        "an RFC 3339 time (2026-11-14T09:30:00Z), a UTC date (2026-11-14), now, or now-7d, from 1970 to 9999"
}
