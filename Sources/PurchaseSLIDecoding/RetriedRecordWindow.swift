public import PurchaseSLICore

/// Remembers when records named by their content (a computed eventID: no eventID of their own) were
/// first received, so that such a record received again within ``windowMillis`` takes its first time.
///
/// A store counts an eventID once per event second; a record without eventID and time takes the
/// receiving clock's time, so its retry, a second later, would fall in another second and count twice.
/// Given the first receipt's time it is a duplicate. Pure: the caller passes the receiving clock and
/// keeps the memory where the records arrive (one per server).
public struct RetriedRecordWindow: Sendable {
    /// How long after its first receipt a record's retry counts as the same record.
    public let windowMillis: Int64
    /// Most records remembered; past it the oldest are forgotten before their window ends.
    public let capacity: Int
    private var firstSeen: [String: Sighting] = [:]
    private var arrivals: [String] = []
    private var oldestArrival = 0

    private struct Sighting: Sendable {
        var timestampMillis: Int64
        var receivedMillis: Int64
    }

    /// Fifteen minutes: longer than the OpenTelemetry Collector's and New Relic's agents' retries.
    public static let defaultWindowMillis: Int64 = 15 * .millisPerMinute

    /// Creates an empty memory.
    public init(windowMillis: Int64 = defaultWindowMillis, capacity: Int = 200_000) {
        self.windowMillis = windowMillis
        self.capacity = capacity
    }

    /// Records remembered now.
    public var count: Int { firstSeen.count }

    /// Gives every event with a computed eventID seen within the window its first receipt's time, and
    /// remembers the others as first seen now.
    public mutating func settle(_ events: inout [PurchaseEvent], receivedMillis: Int64) {
        forget(before: receivedMillis - windowMillis)
        for index in events.indices where events[index].eventID.hasPrefix(EventValidator.computedEventIDPrefix) {
            let id = events[index].eventID
            if let sighting = firstSeen[id] {
                events[index].timestampMillis = sighting.timestampMillis
                continue
            }
            firstSeen[id] = Sighting(timestampMillis: events[index].timestampMillis, receivedMillis: receivedMillis)
            arrivals.append(id)
            if firstSeen.count > capacity { forgetOldest() }
        }
    }

    private mutating func forget(before cutoff: Int64) {
        while oldestArrival < arrivals.count, let sighting = firstSeen[arrivals[oldestArrival]], sighting.receivedMillis < cutoff {
            forgetOldest()
        }
        if oldestArrival > 1024, oldestArrival * 2 > arrivals.count {
            arrivals.removeFirst(oldestArrival)
            oldestArrival = 0
        }
    }

    private mutating func forgetOldest() {
        firstSeen[arrivals[oldestArrival]] = nil
        oldestArrival += 1
    }
}
