public import PurchaseSLICore

extension MaintenanceCalendar {
    /// The stretch a share of maintenance is measured over: 28 days, the shortest error-budget window.
    public static let shareSpanSeconds: Int64 = 28 * .secondsPerDay

    /// How far ahead (and behind now) a new window's occurrences are looked at: a year, which holds every
    /// shape of the rules (a week, a month, and the months a day of the month skips) at least once.
    public static let shareHorizonSeconds: Int64 = 366 * .secondsPerDay

    /// The 28 days most covered by maintenance once `window` is added to these windows, among the stretches
    /// that overlap one of its occurrences in the year from its first start (or from a year before
    /// `nowSeconds`, whichever is later); nil when none of its occurrences falls there. Windows count for
    /// every app they concern (one of another app does not add to this one's) whatever actions they leave
    /// out, and overlapping windows count once (their union).
    ///
    /// O(n log n) in the occurrences the windows have in that year and the 28 days on either side (at most
    /// a few hundred each), once for each app when `window` concerns every app.
    public func busiestShare(adding window: MaintenanceWindow, nowSeconds: Int64) -> MaintenanceShare? {
        let from = max(window.startSeconds, nowSeconds - Self.shareHorizonSeconds)
        let added = window.occurrences(from: from, to: from + Self.shareHorizonSeconds)
        guard let first = added.first, let last = added.last else { return nil }
        let range = (first.lowerBound - Self.shareSpanSeconds)..<(last.upperBound + Self.shareSpanSeconds)
        let apps = window.app.isEmpty ? Set(windows.map(\.app)).union([""]).sorted() : [window.app]
        var busiest: MaintenanceShare?
        for app in apps {
            let concerned = windows.filter { $0.app.isEmpty || $0.app == app } + [window]
            let union = CoveredTime(
                concerned.flatMap { $0.occurrences(from: range.lowerBound, to: range.upperBound) }.map {
                    max(range.lowerBound, $0.lowerBound)..<min(range.upperBound, $0.upperBound)
                })
            // The coverage of a stretch changes slope only where it starts or ends at an edge of the union,
            // so the most is found at one of those or at the edge of the stretches that overlap `window`.
            let candidates =
                union.ranges.flatMap { [$0.lowerBound, $0.upperBound - Self.shareSpanSeconds] }
                + added.flatMap { [$0.lowerBound - Self.shareSpanSeconds, $0.upperBound] }
            for start in candidates where Self.overlapsOne(of: added, from: start) {
                let covered = union.seconds(in: start..<(start + Self.shareSpanSeconds))
                if covered > busiest?.coveredSeconds ?? -1 {
                    busiest = MaintenanceShare(startSeconds: start, coveredSeconds: covered, app: app)
                }
            }
        }
        return busiest
    }

    /// Whether the 28 days from `start` overlap (or touch) one of `occurrences`, which are in order and apart.
    private static func overlapsOne(of occurrences: [Range<Int64>], from start: Int64) -> Bool {
        // The first occurrence that ends at or after `start`.
        var (low, high) = (0, occurrences.count)
        while low < high {
            let middle = (low + high) / 2
            if occurrences[middle].upperBound < start { low = middle + 1 } else { high = middle }
        }
        return low < occurrences.count && occurrences[low].lowerBound - shareSpanSeconds <= start
    }
}

/// The most maintenance any 28 days hold: where they start, how much of them is covered, for which app.
public struct MaintenanceShare: Sendable, Hashable {
    /// The start of the 28 days (seconds).
    public var startSeconds: Int64
    /// The seconds of them that some window covers.
    public var coveredSeconds: Int64
    /// The app whose windows they are (empty: the windows of every app).
    public var app: String

    /// The share of the 28 days covered, from 0 to 1.
    public var fraction: Double { Double(coveredSeconds) / Double(MaintenanceCalendar.shareSpanSeconds) }
}

/// The union of time ranges, with how much of any range it covers in O(log n).
private struct CoveredTime {
    /// Disjoint, in order.
    let ranges: [Range<Int64>]
    /// `before[i]`: the seconds covered by `ranges[..<i]`.
    private let before: [Int64]

    init(_ ranges: [Range<Int64>]) {
        var merged: [Range<Int64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
        var total: Int64 = 0
        before =
            [0]
            + merged.map { range in
                total += range.upperBound - range.lowerBound
                return total
            }
    }

    /// The seconds of `range` covered.
    func seconds(in range: Range<Int64>) -> Int64 { covered(before: range.upperBound) - covered(before: range.lowerBound) }

    /// The seconds covered before `time`.
    private func covered(before time: Int64) -> Int64 {
        // The number of ranges that start before `time`.
        var (low, high) = (0, ranges.count)
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].lowerBound < time { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return 0 }
        return before[low - 1] + min(time, ranges[low - 1].upperBound) - ranges[low - 1].lowerBound
    }
}
