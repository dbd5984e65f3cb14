/// Events that reach `serve` long after their time. An app's SDK sends within a minute or two of an
/// event, so a few late events are devices that were offline; many at once for one app version are a
/// backlog replayed, or events written after the fact by someone holding the public ingest key. They
/// count like any other, but a live action on a store's release does not rest on them alone
/// (``bulkShare``).
public enum LateArrival {
    /// How long after its time an event must arrive to count as late: an hour.
    public static let afterSeconds: Int64 = .secondsPerHour

    /// The share of a candidate's events over a rollout's range that, when late, makes the arrival a bulk
    /// one: a tenth.
    public static let bulkShare = 0.1

    /// The fewest late events that make a bulk arrival: a handful of offline devices is none.
    public static let bulkMinimum: Int64 = 100

    /// Whether an event of second `eventSeconds` received at `receivedSeconds` arrived late.
    public static func isLate(eventSeconds: Int64, receivedSeconds: Int64) -> Bool {
        receivedSeconds - eventSeconds >= afterSeconds
    }

    /// Whether `late` of `events` events is a bulk arrival: at least ``bulkMinimum`` and ``bulkShare`` of them.
    public static func isBulk(late: Int64, of events: Int64) -> Bool {
        late >= bulkMinimum && Double(late) >= bulkShare * Double(max(events, 1))
    }
}
