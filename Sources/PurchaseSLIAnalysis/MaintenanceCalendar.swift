public import PurchaseSLICore

/// The maintenance windows in force (the policy's and the stored ones) and the minutes they leave out of
/// each action's error budget: every minute an occurrence touches, so a window from 02:00:30 to 04:00
/// leaves out 02:00 to 04:00.
public struct MaintenanceCalendar: Sendable, Hashable {
    /// The windows, in order of first start.
    public let windows: [MaintenanceWindow]

    /// A calendar of `windows`.
    public init(_ windows: [MaintenanceWindow]) {
        self.windows = windows.sorted { ($0.startSeconds, $0.id) < ($1.startSeconds, $1.id) }
    }

    /// No window.
    public static let empty = MaintenanceCalendar([])

    /// Whether it has no window.
    public var isEmpty: Bool { windows.isEmpty }

    /// The minutes of `[from, to)` left out of `action`'s budget, as minute-aligned ranges clipped to
    /// `[from, to)`, merged and in order.
    public func excludedRanges(of action: String, from: Int64, to: Int64) -> [Range<Int64>] {
        Self.merged(
            windows.filter { $0.covers(action: action) }.flatMap { $0.occurrences(from: from, to: to) }.compactMap { occurrence in
                let start = max(from, occurrence.lowerBound - occurrence.lowerBound.floorDividedBy(.secondsPerMinute).remainder)
                let endRemainder = occurrence.upperBound.floorDividedBy(.secondsPerMinute).remainder
                let end = min(to, occurrence.upperBound + (endRemainder == 0 ? 0 : .secondsPerMinute - endRemainder))
                return start < end ? start..<end : nil
            })
    }

    /// Each occurrence of each window overlapping `[from, to)`, clipped to it, by start: what a chart shades.
    public func bands(from: Int64, to: Int64) -> [Band] {
        windows.flatMap { window in
            window.occurrences(from: from, to: to).map { Band(range: max(from, $0.lowerBound)..<min(to, $0.upperBound), window: window) }
        }
        .sorted { ($0.range.lowerBound, $0.window.id) < ($1.range.lowerBound, $1.window.id) }
    }

    /// One occurrence of one window on a chart.
    public struct Band: Sendable, Hashable {
        /// The part of the occurrence shown.
        public var range: Range<Int64>
        /// Its window.
        public var window: MaintenanceWindow
    }

    /// `series` with the minutes left out of its action's budget emptied (the same series when none is).
    /// O(minutes with events) when a window touches it.
    public func budgeted(_ series: MinuteSeries) -> MinuteSeries {
        let ranges = excludedRanges(of: series.labels.actionType, from: series.startSeconds, to: series.endSeconds)
        guard !ranges.isEmpty else { return series }
        let byMinute = series.countsByMinute()
        var kept = StepCounts()
        var next = ranges.makeIterator()
        var excluded = next.next()
        for (step, counts) in zip(byMinute.steps, byMinute.counts) {
            let minute = series.startSeconds + Int64(step) * .secondsPerMinute
            while let range = excluded, range.upperBound <= minute { excluded = next.next() }
            if excluded?.contains(minute) != true { kept.add(counts, at: step) }
        }
        return MinuteSeries(
            labels: series.labels, startSeconds: series.startSeconds, minuteCount: Int((series.endSeconds - series.startSeconds) / 60), counts: kept)
    }

    /// Sorted ranges with those that overlap or touch joined.
    private static func merged(_ ranges: [Range<Int64>]) -> [Range<Int64>] {
        var merged: [Range<Int64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
