public import PurchaseSLICore

/// Which stretches of a range each store's notifications cover: what every figure read from them (charges
/// not granted, refunds, time to grant, grants without a charge, money at risk) rests on, so that a stretch
/// without notifications reads as "no data", never as "none".
///
/// An hour is covered for a store when it holds at least one of that store's charge or refund
/// notifications (of the policy's environments); the hours between two covered hours are covered too when
/// they are at most ``bridgedGapSeconds`` long (a quiet night is not missing data), and so are those from
/// the last covered hour to the time read when as short (the next notification may be on its way). A store
/// is listed when any of its notifications is kept between ``reachSeconds`` before the range and the time
/// read: a store never set up is not named on every report.
public struct StoreCoverage: Sendable, Hashable {
    /// The range asked about, seconds since the epoch.
    public var fromSeconds: Int64
    /// Its end (not after the time read).
    public var toSeconds: Int64
    /// Per store with notifications kept in the reach, the covered stretches of the range, in order; an
    /// empty list when none of it is covered.
    public var spans: [Store: [Range<Int64>]]

    /// The longest stretch without a notification between two covered hours still counted as covered: 6 h.
    public static let bridgedGapSeconds: Int64 = 6 * .secondsPerHour
    /// How far before a range a store's notifications make it a store that is set up: 90 days, the
    /// notifications' default retention.
    public static let reachSeconds: Int64 = 90 * .secondsPerDay

    /// Creates the coverage of `[fromSeconds, toSeconds)` (cut at `readSeconds`) from the hours with
    /// notifications of each store: `hours` holds the starts of those from ``bridgedGapSeconds`` before the
    /// range to its end and the same after (not after `readSeconds`), `storesKept` the stores with any
    /// notification in the reach. O(hours log hours).
    public init(fromSeconds: Int64, toSeconds: Int64, readSeconds: Int64, hours: [Store: [Int64]], storesKept: Set<Store>) {
        let end = max(fromSeconds, min(toSeconds, readSeconds))
        self.fromSeconds = fromSeconds
        self.toSeconds = end
        var spans: [Store: [Range<Int64>]] = [:]
        for store in storesKept.union(hours.keys) {
            var merged: [Range<Int64>] = []
            for hour in Set(hours[store] ?? []).sorted() {
                if let last = merged.last, hour - last.upperBound <= Self.bridgedGapSeconds {
                    merged[merged.count - 1] = last.lowerBound..<(hour + .secondsPerHour)
                } else {
                    merged.append(hour..<(hour + .secondsPerHour))
                }
            }
            // The quiet stretch up to the time read is too short to call missing.
            if let last = merged.last, readSeconds - last.upperBound <= Self.bridgedGapSeconds, readSeconds > last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<readSeconds
            }
            spans[store] = merged.compactMap { span in
                let clipped = max(span.lowerBound, fromSeconds)..<max(max(span.lowerBound, fromSeconds), min(span.upperBound, end))
                return clipped.isEmpty ? nil : clipped
            }
        }
        self.spans = spans
    }

    /// The stores listed, in order.
    public var stores: [Store] { spans.keys.sorted() }

    /// Seconds of the range that `store`'s notifications cover.
    public func coveredSeconds(of store: Store) -> Int64 {
        spans[store]?.reduce(0) { $0 + $1.upperBound - $1.lowerBound } ?? 0
    }

    /// Whether `store`'s notifications cover the whole range.
    public func coversWhole(_ store: Store) -> Bool { coveredSeconds(of: store) >= toSeconds - fromSeconds }

    /// Whether every store listed covers the whole range, and at least one is listed: its figures need no
    /// word about their data.
    public var isWhole: Bool { !spans.isEmpty && spans.keys.allSatisfy(coversWhole) }

    /// Whether no store's notifications cover any of the range: its store figures are unknown, not zero.
    public var isEmpty: Bool { spans.values.allSatisfy(\.isEmpty) }

    /// The same coverage for `[from, to)` within this range (a week's within two weeks read at once).
    public func restricted(from: Int64, to: Int64) -> StoreCoverage {
        var copy = self
        copy.fromSeconds = max(from, fromSeconds)
        copy.toSeconds = max(copy.fromSeconds, min(to, toSeconds))
        copy.spans = spans.mapValues { spans in
            spans.compactMap { span in
                let lower = max(span.lowerBound, copy.fromSeconds)
                let upper = min(span.upperBound, copy.toSeconds)
                return lower < upper ? lower..<upper : nil
            }
        }
        return copy
    }

    /// How much of an error budget's window (`windowStart` to the range's end) `store`'s notifications
    /// cover.
    public func budgetBasis(of store: Store, window: SLOWindow, windowStart: Int64) -> BudgetBasis {
        BudgetBasis(
            window: window, windowSeconds: toSeconds - windowStart,
            dataSeconds: restricted(from: windowStart, to: toSeconds).coveredSeconds(of: store))
    }
}

/// How much of an error budget's window holds data: a 28-day budget judged on 2 days of data says so, and
/// its "overspent" is of those days' allowance, not the window's.
public struct BudgetBasis: Sendable, Hashable {
    /// The budget's window.
    public var window: SLOWindow
    /// The window so far (for a calendar month, the month so far), seconds.
    public var windowSeconds: Int64
    /// The seconds of it that hold data.
    public var dataSeconds: Int64

    /// Creates a basis.
    public init(window: SLOWindow, windowSeconds: Int64, dataSeconds: Int64) {
        self.window = window
        self.windowSeconds = windowSeconds
        self.dataSeconds = dataSeconds
    }

    /// Whether data holds less of the window than all of it but an hour (hour-aligned data never quite
    /// fills a window ending mid-hour).
    public var isPartial: Bool { dataSeconds + .secondsPerHour < windowSeconds }
}
