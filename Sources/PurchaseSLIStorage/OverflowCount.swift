/// The events one UTC day counted under `__other__` for one dimension (or for the series cap) of one app:
/// a fact written in the commit that counted them, read by `ingest`'s summary, the pages and the review.
public struct OverflowCount: Sendable, Hashable {
    /// The day, days since the epoch.
    public var day: Int64
    /// The dimension's name, or `series`.
    public var dimension: String
    /// The app whose budget was full, as its events named it ("" for events without an app, and for the
    /// apps' own cap; `__other__` for the apps past it).
    public var app: String
    /// How many events.
    public var events: Int64

    /// Creates a count.
    public init(day: Int64, dimension: String, app: String, events: Int64) {
        self.day = day
        self.dimension = dimension
        self.app = app
        self.events = events
    }

    /// The order every store answers in: by day, dimension name and app.
    public static func precedes(_ lhs: OverflowCount, _ rhs: OverflowCount) -> Bool {
        (lhs.day, lhs.dimension, lhs.app) < (rhs.day, rhs.dimension, rhs.app)
    }
}
