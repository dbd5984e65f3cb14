/// How recent the newest events are at an evaluation time, so that old data never reads as a healthy
/// present: every page, `alerts`, `rollout` and the weekly review state it, and a status on stale data
/// is STALE or NO DATA, never OK.
public struct DataFreshness: Sendable, Hashable {
    /// The evaluation time (seconds since the epoch).
    public var atSeconds: Int64
    /// Per action, the minute of its newest event before `atSeconds`; an action with none within the
    /// reach that was searched is absent.
    public var newestEventSeconds: [String: Int64]
    /// Data is stale when its newest event is at least this old: the loss-of-signal window, over which a
    /// stopped feed is noticed.
    public var staleAfterSeconds: Int64
    /// Events clients dropped unsent (their queues on disk were full), reported in the day before
    /// `atSeconds`: events the counts miss however fresh they are.
    public var clientDroppedEvents: Int64
    /// Events counted in the same day, against which the dropped ones are weighed.
    public var countedEvents: Int64

    /// The share of a day's events (counted and dropped) that must be missing before the counts are
    /// called incomplete: 0.1 %. Fewer drops change no rate on any page by more than that.
    public static let incompleteShare = 0.001

    /// Creates a freshness record.
    public init(
        atSeconds: Int64, newestEventSeconds: [String: Int64], staleAfterSeconds: Int64, clientDroppedEvents: Int64 = 0,
        countedEvents: Int64 = 0
    ) {
        self.atSeconds = atSeconds
        self.newestEventSeconds = newestEventSeconds
        self.staleAfterSeconds = staleAfterSeconds
        self.clientDroppedEvents = clientDroppedEvents
        self.countedEvents = countedEvents
    }

    /// The dropped events' share of the day's events, counted and dropped; 0 without either.
    public var droppedShare: Double {
        let total = Double(max(0, clientDroppedEvents)) + Double(max(0, countedEvents))
        return total > 0 ? Double(max(0, clientDroppedEvents)) / total : 0
    }

    /// Whether the day's counts miss at least ``incompleteShare`` of its events.
    public var isIncomplete: Bool { clientDroppedEvents > 0 && droppedShare >= Self.incompleteShare }

    /// The minute of the newest event of `action`, or of any action when nil.
    public func newestEvent(of action: String? = nil) -> Int64? {
        action.map { newestEventSeconds[$0] } ?? newestEventSeconds.values.max()
    }

    /// Seconds from the end of the newest event's minute to the evaluation time (0 when it was the last
    /// minute), or nil without any event.
    public func age(of action: String? = nil) -> Int64? {
        newestEvent(of: action).map { max(0, atSeconds - ($0 + .secondsPerMinute)) }
    }

    /// Whether `action` (or the whole feed, when nil) has no event within `staleAfterSeconds`.
    public func isStale(_ action: String? = nil) -> Bool {
        age(of: action).map { $0 >= staleAfterSeconds } ?? true
    }
}
