extension CountSeries {
    /// One part of a merge: a series and the span of it that counts, `[fromSeconds, toSeconds)`.
    public struct Part: Sendable {
        /// The series.
        public var series: CountSeries
        /// The first second of it that counts (its steps before are left out).
        public var fromSeconds: Int64
        /// The end of what counts (its steps from there on are left out).
        public var toSeconds: Int64
        /// Whether a group (by its key) of `series` counts; every one by default.
        public var keeps: @Sendable ([String?]) -> Bool

        /// The steps of `series` in `[fromSeconds, toSeconds)`, of the groups `keeps` holds for.
        public init(
            _ series: CountSeries, from fromSeconds: Int64, to toSeconds: Int64,
            keeping keeps: @escaping @Sendable ([String?]) -> Bool = { _ in true }
        ) {
            (self.series, self.fromSeconds, self.toSeconds, self.keeps) = (series, fromSeconds, toSeconds, keeps)
        }
    }

    /// The series of `stepCount` steps of `stepSeconds` from `startSeconds` made of `parts`, which count
    /// disjoint spans (or, within one span, disjoint groups): per group, the steps every part holds of it in
    /// what it counts, moved to the new start (steps outside the new range left out); groups in key order,
    /// those left with no step left out. What one read of the parts' spans gives, when each part is what a
    /// read of its span gave. O(steps kept + groups × log groups).
    public static func merging(_ parts: [Part], startSeconds: Int64, stepSeconds: Int64, stepCount: Int) -> CountSeries {
        var groupOfKey: [[String?]: Int] = [:]
        var keys: [[String?]] = []
        var columns: [StepCounts] = []
        for part in parts.sorted(by: { $0.fromSeconds < $1.fromSeconds }) {
            let series = part.series
            // A part's step s is this series' step s + shift; only whole steps of the same width line up.
            precondition(series.stepSeconds == stepSeconds && (series.startSeconds - startSeconds) % stepSeconds == 0, "parts must share the step")
            let shift = Int32((series.startSeconds - startSeconds) / stepSeconds)
            let first = Int32(clamping: (max(part.fromSeconds, startSeconds) - series.startSeconds).ceilingDivided(by: stepSeconds))
            let end = Int32(
                clamping: (min(part.toSeconds, startSeconds + Int64(stepCount) * stepSeconds) - series.startSeconds).ceilingDivided(by: stepSeconds))
            guard first < end else { continue }
            for (key, column) in zip(series.keys, series.columns) where part.keeps(key) {
                let lower = column.steps.partitioningIndex { $0 >= first }
                let upper = column.steps.partitioningIndex { $0 >= end }
                guard lower < upper else { continue }
                let group =
                    groupOfKey[key]
                    ?? {
                        groupOfKey[key] = keys.count
                        keys.append(key)
                        columns.append(StepCounts())
                        return keys.count - 1
                    }()
                let cells = column.counts
                for entry in lower..<upper { columns[group].add(cells[entry], at: column.steps[entry] + shift) }
            }
        }
        let order = keys.indices.sorted { keyPrecedes(keys[$0], keys[$1]) }
        return CountSeries(
            startSeconds: startSeconds, stepSeconds: stepSeconds, stepCount: stepCount, keys: order.map { keys[$0] },
            columns: order.map { columns[$0] })
    }

    /// The order of a series' groups: key value by value, absent values first.
    public static func keyPrecedes(_ lhs: [String?], _ rhs: [String?]) -> Bool {
        lhs.lexicographicallyPrecedes(rhs) { ($0 ?? "") < ($1 ?? "") || ($0 == nil && $1 != nil) }
    }
}

extension Int64 {
    /// The quotient rounded up (toward positive infinity); `divisor` is positive.
    fileprivate func ceilingDivided(by divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder > 0 ? quotient + 1 : quotient
    }
}
