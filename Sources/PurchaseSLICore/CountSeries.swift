/// The answer to a count query with a step: per group, the counts of the steps that hold any. What
/// minute-by-minute analysis reads, without a row per (step, group) nor a cell per empty step.
public struct CountSeries: Sendable, Hashable {
    /// Start of the first step, in seconds since the epoch (the query's start, aligned to the step).
    public var startSeconds: Int64
    /// Width of each step, in seconds.
    public var stepSeconds: Int64
    /// How many steps the series covers from `startSeconds`.
    public var stepCount: Int
    /// Per group, its value for each grouping dimension (in the query's order; nil where absent), in key
    /// order; groups without any event are left out.
    public var keys: [[String?]]
    /// Per group (as in `keys`), the counts of its steps with events, in step order (normalized).
    public var columns: [StepCounts]

    /// Creates a series (its columns normalized: steps in order, each once).
    public init(startSeconds: Int64, stepSeconds: Int64, stepCount: Int, keys: [[String?]], columns: [StepCounts]) {
        self.startSeconds = startSeconds
        self.stepSeconds = stepSeconds
        self.stepCount = stepCount
        self.keys = keys
        self.columns = columns
        for group in self.columns.indices { self.columns[group].normalize() }
    }

    /// The series of count rows (of a query with a step of `stepSeconds`) over `stepCount` steps from
    /// `startSeconds`; rows outside are ignored. O(rows + groups).
    public init(rows: [CountRow], startSeconds: Int64, stepSeconds: Int64, stepCount: Int) {
        var index: [[String?]: Int] = [:]
        var keys: [[String?]] = []
        var columns: [StepCounts] = []
        for row in rows {
            guard let time = row.timeSeconds, time >= startSeconds else { continue }
            let step = Int((time - startSeconds) / stepSeconds)
            guard step < stepCount else { continue }
            let group =
                index[row.key]
                ?? {
                    keys.append(row.key)
                    columns.append(StepCounts())
                    index[row.key] = keys.count - 1
                    return keys.count - 1
                }()
            columns[group].add(row.counts, at: Int32(step))
        }
        self.init(startSeconds: startSeconds, stepSeconds: stepSeconds, stepCount: stepCount, keys: keys, columns: columns)
    }

    /// The counts of each step of `group`, empty steps included: for series of few steps (hours, days).
    public func dense(_ group: Int) -> [OutcomeCounts] { columns[group].dense(stepCount: stepCount) }

    /// The start of step `step`.
    public func startSeconds(ofStep step: Int32) -> Int64 { startSeconds + Int64(step) * stepSeconds }
}
