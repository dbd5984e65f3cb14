/// A request for event counts over `[from, to)`, grouped by dimensions and optionally by time steps.
public struct CountQuery: Sendable, Hashable {
    /// Start of the range, inclusive, in seconds since the epoch (rounded down to the minute).
    public var fromSeconds: Int64
    /// End of the range, exclusive, in seconds since the epoch (rounded up to the minute).
    public var toSeconds: Int64
    /// Width of the aligned UTC time steps, or nil for one row per group over the whole range.
    public var step: TimeStep?
    /// Dimensions to group by, in output order.
    public var groupBy: [EventDimension]
    /// Only events whose dimension has one of these values count; `nil` in the set matches absent values.
    public var filters: [EventDimension: Set<String?>]
    /// Only events with a value of each of these dimensions count: a query of slices leaves out the
    /// events that have no value to slice by without reading them (``filters`` names the values kept).
    public var requiredValues: Set<EventDimension>
    /// The most rows (time steps with data × groups) the answer may hold, or nil for no limit: the
    /// service refuses a query that would need more rather than build it in memory.
    public var maximumRows: Int?

    /// Creates a query.
    public init(
        fromSeconds: Int64, toSeconds: Int64, step: TimeStep? = nil, groupBy: [EventDimension] = [],
        filters: [EventDimension: Set<String?>] = [:], requiredValues: Set<EventDimension> = []
    ) {
        self.fromSeconds = fromSeconds
        self.toSeconds = toSeconds
        self.step = step
        self.groupBy = groupBy
        self.filters = filters
        self.requiredValues = requiredValues
    }

    /// Whether `resultType` is among the grouping dimensions (each row then counts one result type).
    public var groupsByResult: Bool { groupBy.contains(.resultType) }

    /// Whether the query is about error descriptions (grouped or filtered by `errorDescription`): it then
    /// counts only events that carry a description, with ``ErrorCountRow``s.
    public var isAboutErrors: Bool { groupBy.contains(.errorDescription) || filters[.errorDescription] != nil }
}

/// One row of an error-description query: how many events of a group carried a description.
public struct ErrorCountRow: Sendable, Hashable {
    /// Start of the row's time step in seconds since the epoch, or nil when the query has no step.
    public var timeSeconds: Int64?
    /// The group's value for each grouping dimension, in the query's order.
    public var key: [String?]
    /// Events with an error description in the group.
    public var events: Int64

    /// Creates a row.
    public init(timeSeconds: Int64?, key: [String?], events: Int64) {
        self.timeSeconds = timeSeconds
        self.key = key
        self.events = events
    }
}

/// One row of a count query's answer.
public struct CountRow: Sendable, Hashable {
    /// Start of the row's time step in seconds since the epoch, or nil when the query has no step.
    public var timeSeconds: Int64?
    /// The group's value for each grouping dimension, in the query's order; nil where events had none.
    public var key: [String?]
    /// The counts of the group.
    public var counts: OutcomeCounts

    /// Creates a row.
    public init(timeSeconds: Int64?, key: [String?], counts: OutcomeCounts) {
        self.timeSeconds = timeSeconds
        self.key = key
        self.counts = counts
    }
}

/// What recording a batch of events did.
public struct RecordOutcome: Sendable, Hashable {
    /// Events counted for the first time.
    public var accepted = 0
    /// Events whose eventID had been recorded before (in this batch or earlier), not counted again.
    public var duplicates = 0
    /// Positions, in the array given to one `record` call, of the events that were duplicates, ascending.
    /// (``merge(_:)`` leaves it empty: positions of different calls do not add up.)
    public var duplicateIndexes: [Int] = []
    /// Per app (as its events named it; "" for events without one) and dimension name (or `series`), the
    /// events counted under `__other__` because that app's cap for the day was full.
    public var overflowedByApp: [String: [String: Int]] = [:]
    /// Per dimension name (or `series`), the events counted under `__other__`, every app's together.
    public var overflowed: [String: Int] {
        overflowedByApp.values.reduce(into: [:]) { total, counts in total.merge(counts, uniquingKeysWith: +) }
    }
    /// Earliest and latest accepted event time, in milliseconds.
    public var timeRange: ClosedRange<Int64>?

    /// Creates an empty outcome.
    public init() {}

    /// Counts `events` of `app` ("" for none) under `__other__` of `dimension` (a dimension's name, or `series`).
    public mutating func addOverflow(_ events: Int, of app: String, dimension: String) {
        overflowedByApp[app, default: [:]][dimension, default: 0] += events
    }

    /// Adds another outcome to this one.
    public mutating func merge(_ other: RecordOutcome) {
        accepted += other.accepted
        duplicates += other.duplicates
        duplicateIndexes = []
        overflowedByApp.merge(other.overflowedByApp) { $0.merging($1, uniquingKeysWith: +) }
        if let range = other.timeRange {
            timeRange = timeRange.map { min($0.lowerBound, range.lowerBound)...max($0.upperBound, range.upperBound) } ?? range
        }
    }
}
