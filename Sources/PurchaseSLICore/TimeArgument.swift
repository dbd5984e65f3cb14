/// A point in time given on the command line: RFC 3339, a UTC date, `now`, or `now-7d` / `-7d`.
public struct TimeArgument: Sendable, Hashable {
    /// Seconds since the epoch.
    public let seconds: Int64

    /// Parses `text`, resolving relative times against `nowSeconds`; nil when the text is none of the forms.
    public init?(_ text: String, nowSeconds: Int64) {
        if text == "now" {
            seconds = nowSeconds
        } else if let millis = RFC3339.parseMillis(text) {
            seconds = millis.floorDividedBy(1000).quotient
        } else if text.utf8.count == 10, let millis = RFC3339.parseMillis(text + "T00:00:00Z") {
            seconds = millis / 1000
        } else if text.hasPrefix("now-") || text.hasPrefix("-"), let step = TimeStep(parsing: String(text.drop { $0 != "-" }.dropFirst())) {
            seconds = nowSeconds - step.seconds
        } else {
            return nil
        }
    }

    /// The accepted forms, for help and error text.
    public static let forms = "an RFC 3339 time (2026-11-14T09:30:00Z), a UTC date (2026-11-14), now, or now-7d"
}
