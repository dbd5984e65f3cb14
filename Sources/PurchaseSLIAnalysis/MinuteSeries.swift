public import PurchaseSLICore

/// Which events a series counts: an action, optionally narrowed to one value of one slice dimension.
public struct SeriesLabels: Sendable, Hashable, Comparable {
    /// The action.
    public var actionType: String
    /// The slice dimension and its value (nil value: events without one), or nil for the whole action.
    public var slice: Slice?

    /// One value of one dimension.
    public struct Slice: Sendable, Hashable {
        /// The dimension.
        public var dimension: EventDimension
        /// The value, or nil for events that have none.
        public var value: String?

        /// Creates a slice.
        public init(dimension: EventDimension, value: String?) {
            self.dimension = dimension
            self.value = value
        }
    }

    /// Creates labels.
    public init(actionType: String, slice: Slice? = nil) {
        self.actionType = actionType
        self.slice = slice
    }

    /// The labels as (name, value) pairs: `actionType` first, then the slice.
    public var pairs: [(String, String)] {
        [("actionType", actionType)] + (slice.map { [($0.dimension.rawValue, $0.value ?? "(none)")] } ?? [])
    }

    public static func < (lhs: SeriesLabels, rhs: SeriesLabels) -> Bool {
        let left = lhs.pairs.map { "\($0.0)=\($0.1)" }, right = rhs.pairs.map { "\($0.0)=\($0.1)" }
        return left.lexicographicallyPrecedes(right)
    }
}

/// Per-minute outcome counts of one series, kept as prefix sums so that any window's total is O(1).
public struct MinuteSeries: Sendable {
    /// What the series counts.
    public let labels: SeriesLabels
    /// The first minute covered, in seconds since the epoch (minute-aligned).
    public let startSeconds: Int64
    /// prefix[i] = counts of the first i minutes.
    private let prefix: [OutcomeCounts]
    /// The first minute with an event, or nil when the series is empty.
    public let firstEventSeconds: Int64?

    /// Builds the series from per-minute counts, `minutes[i]` being the minute at `startSeconds + 60 i`.
    public init(labels: SeriesLabels, startSeconds: Int64, minutes: [OutcomeCounts]) {
        self.labels = labels
        self.startSeconds = startSeconds
        var running = OutcomeCounts()
        var prefix = [running]
        prefix.reserveCapacity(minutes.count + 1)
        firstEventSeconds = minutes.firstIndex { !$0.isEmpty }.map { startSeconds + Int64($0) * 60 }
        for counts in minutes {
            running += counts
            prefix.append(running)
        }
        self.prefix = prefix
    }

    /// Total counts over `[from, to)` (seconds, minute-aligned; clamped to the series). O(1).
    public func counts(from: Int64, to: Int64) -> OutcomeCounts {
        let last = prefix.count - 1
        let lower = Int(max(0, min(Int64(last), (from - startSeconds) / 60)))
        let upper = Int(max(0, min(Int64(last), (to - startSeconds) / 60)))
        guard upper > lower else { return OutcomeCounts() }
        return prefix[upper] - prefix[lower]
    }

    /// Total counts over the `seconds` before `time`.
    public func counts(last seconds: Int64, before time: Int64) -> OutcomeCounts {
        counts(from: time - seconds, to: time)
    }
}

extension OutcomeCounts {
    /// The difference of two running totals.
    public static func - (lhs: OutcomeCounts, rhs: OutcomeCounts) -> OutcomeCounts {
        OutcomeCounts(
            start: lhs.start - rhs.start, success: lhs.success - rhs.success,
            alreadyGranted: lhs.alreadyGranted - rhs.alreadyGranted, failure: lhs.failure - rhs.failure,
            cancel: lhs.cancel - rhs.cancel, pending: lhs.pending - rhs.pending, conflicts: lhs.conflicts - rhs.conflicts,
            serverErrors: lhs.serverErrors - rhs.serverErrors)
    }
}
