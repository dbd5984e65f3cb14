/// The answer to a count query with a step, dense: per group, the counts of every time step. What
/// minute-by-minute analysis reads, without a row per (step, group).
public struct CountSeries: Sendable, Hashable {
    /// Start of the first step, in seconds since the epoch (the query's start, aligned to the step).
    public var startSeconds: Int64
    /// Width of each step, in seconds.
    public var stepSeconds: Int64
    /// Per group, its value for each grouping dimension (in the query's order; nil where absent), in key
    /// order; groups without any event are left out.
    public var keys: [[String?]]
    /// Per group (as in `keys`), the counts of each step from `startSeconds`.
    public var counts: [[OutcomeCounts]]

    /// Creates a series.
    public init(startSeconds: Int64, stepSeconds: Int64, keys: [[String?]], counts: [[OutcomeCounts]]) {
        self.startSeconds = startSeconds
        self.stepSeconds = stepSeconds
        self.keys = keys
        self.counts = counts
    }

    /// The series of count rows (of a query with a step of `stepSeconds`) over `stepCount` steps from
    /// `startSeconds`; rows outside are ignored. O(rows + groups × steps).
    public init(rows: [CountRow], startSeconds: Int64, stepSeconds: Int64, stepCount: Int) {
        var index: [[String?]: Int] = [:]
        var keys: [[String?]] = []
        var counts: [[OutcomeCounts]] = []
        for row in rows {
            guard let time = row.timeSeconds, time >= startSeconds else { continue }
            let step = Int((time - startSeconds) / stepSeconds)
            guard step < stepCount else { continue }
            let group =
                index[row.key]
                ?? {
                    keys.append(row.key)
                    counts.append(Array(repeating: OutcomeCounts(), count: stepCount))
                    index[row.key] = keys.count - 1
                    return keys.count - 1
                }()
            counts[group][step] += row.counts
        }
        self.init(startSeconds: startSeconds, stepSeconds: stepSeconds, keys: keys, counts: counts)
    }
}
