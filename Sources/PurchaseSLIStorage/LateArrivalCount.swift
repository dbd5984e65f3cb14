/// Events of one series whose time falls in one hour that reached `serve` late (``PurchaseSLICore/LateArrival``),
/// as a store keeps them: only for events counted for the first time that came through the HTTP API.
public struct LateArrivalCount: Sendable, Hashable {
    /// The start of the events' hour, in seconds since the epoch.
    public var hour: Int64
    /// The series (``StoredSeries/id``).
    public var series: Int64
    /// How many arrived late.
    public var events: Int64

    /// Creates a count.
    public init(hour: Int64, series: Int64, events: Int64) {
        self.hour = hour
        self.series = series
        self.events = events
    }
}
