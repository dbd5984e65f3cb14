public import PurchaseSLICore

/// Which events a series counts: an action, optionally narrowed to one value of one slice dimension.
public struct SeriesLabels: Sendable, Hashable, Comparable, Codable {
    /// The action.
    public var actionType: String
    /// The slice dimension and its value (nil value: events without one), or nil for the whole action.
    public var slice: Slice?
    /// The store (`apple`, `google`) for an alert about the store's own record, else nil.
    public var store: String?

    /// One value of one dimension.
    public struct Slice: Sendable, Hashable, Codable {
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
    public init(actionType: String, store: String? = nil, slice: Slice? = nil) {
        self.actionType = actionType
        self.store = store
        self.slice = slice
    }

    /// The labels as (name, value) pairs: `actionType` first, then the store, then the slice.
    public var pairs: [(String, String)] {
        [("actionType", actionType)] + (store.map { [("store", $0)] } ?? [])
            + (slice.map { [($0.dimension.rawValue, $0.value ?? "(none)")] } ?? [])
    }

    public static func < (lhs: SeriesLabels, rhs: SeriesLabels) -> Bool {
        let left = lhs.pairs.map { "\($0.0)=\($0.1)" }
        let right = rhs.pairs.map { "\($0.0)=\($0.1)" }
        return left.lexicographicallyPrecedes(right)
    }
}

/// Per-minute outcome counts of one series, kept as running totals at the minutes with events so that any
/// window's total is O(1) and an empty minute costs a bit.
public struct MinuteSeries: Sendable {
    /// What the series counts.
    public var labels: SeriesLabels { sums.labels }
    /// The first minute covered, in seconds since the epoch (minute-aligned).
    public let startSeconds: Int64
    /// The minute after the last one covered.
    public let endSeconds: Int64
    /// The minute of the sums' first entry: a restriction shares its series' sums and covers fewer of them.
    private let originSeconds: Int64
    /// The labels and sums, shared by the series and its restrictions: a copy of the series, which every
    /// rule makes of every slice at every minute, retains one reference.
    private let sums: Sums

    /// Running totals from `originSeconds` at each minute with events, and which minutes those are: the
    /// totals of the first i minutes are those of the entries before minute i, counted in O(1) by a rank
    /// over a bit per minute. The valid tallies hold their valid events and failures alone, where the
    /// totals hold every count: what the burn-rate tests read at every minute of every series
    /// (``validCounts(from:to:)``). Both in 4 bytes a count when the series' totals fit (``CompactCounts``),
    /// as nearly every series' do.
    private final class Sums: Sendable {
        /// What the series counts.
        let labels: SeriesLabels
        /// Bit `m % 64` of word `m / 64`: whether minute m has events (one word more than the minutes need,
        /// so that the minute after the last has a rank too).
        let occupied: [UInt64]
        /// The minutes with events before each word of `occupied`.
        let ranks: [Int32]
        /// Whether the totals are in `wideRunning` and `wideValid` (else in `running` and `valid`).
        let isWide: Bool
        /// `running[k]`: the totals of the first k + 1 minutes with events (those of none are zero, not
        /// stored), summed in place in the counts handed over, so that no second array of their size is
        /// written.
        let running: [CompactCounts]
        /// `valid[k]`: the valid events and failures of the first k minutes with events.
        let valid: [CompactTally]
        /// `running` of a series whose totals do not fit in 4 bytes a count.
        let wideRunning: [OutcomeCounts]
        /// `valid` of a series whose totals do not fit in 4 bytes a count.
        let wideValid: [ValidTally]

        /// Sums the counts of minutes `steps` (ascending, below `minuteCount`): `compact`, or `wide` when
        /// they are held so.
        init(labels: SeriesLabels, minuteCount: Int, steps: [Int32], compact: consuming [CompactCounts], wide: consuming [OutcomeCounts]?) {
            self.labels = labels
            var occupied = [UInt64](repeating: 0, count: minuteCount / 64 + 1)
            var ranks = [Int32](repeating: 0, count: occupied.count)
            for step in steps { occupied[Int(step) / 64] |= 1 << UInt64(step % 64) }
            var before: Int32 = 0
            for word in occupied.indices {
                ranks[word] = before
                before += Int32(occupied[word].nonzeroBitCount)
            }
            self.occupied = occupied
            self.ranks = ranks
            if wide == nil, Self.totalFits(compact) {
                var valid = [CompactTally(valid: 0, failure: 0)]
                valid.reserveCapacity(compact.count + 1)
                var total = CompactCounts()
                for entry in compact.indices {
                    // The total fits, so no running total on the way to it overflows.
                    total = total.adding(compact[entry])!
                    compact[entry] = total
                    valid.append(CompactTally(valid: UInt32(total.valid), failure: UInt32(total.failure)))
                }
                (isWide, running, self.valid, wideRunning, wideValid) = (false, compact, valid, [], [])
            } else {
                (isWide, running, valid) = (true, [], [])
                (wideRunning, wideValid) = Self.wideSums(wide ?? compact.map(\.counts))
            }
        }

        /// Whether the totals of `cells`, their valid events among them, fit in 4 bytes a count.
        private static func totalFits(_ cells: [CompactCounts]) -> Bool {
            var total = OutcomeCounts()
            for cell in cells { total += cell.counts }
            return CompactCounts(exactly: total) != nil && total.valid <= Int64(UInt32.max)
        }

        /// The running totals and valid tallies of `cells`, summed in place.
        private static func wideSums(_ cells: consuming [OutcomeCounts]) -> ([OutcomeCounts], [ValidTally]) {
            var valid = [ValidTally(valid: 0, failure: 0)]
            valid.reserveCapacity(cells.count + 1)
            var total = OutcomeCounts()
            for entry in cells.indices {
                total += cells[entry]
                cells[entry] = total
                valid.append(ValidTally(valid: total.valid, failure: total.failure))
            }
            return (cells, valid)
        }

        /// How many of the first `minutes` minutes have events.
        @inline(__always)
        func entries(before minutes: Int) -> Int {
            let word = minutes &>> 6
            return Int(ranks[word]) + (occupied[word] & ((1 &<< UInt64(minutes & 63)) &- 1)).nonzeroBitCount
        }

        /// The totals of the first `entries` minutes with events.
        @inline(__always)
        func total(ofEntries entries: Int) -> OutcomeCounts {
            guard entries > 0 else { return OutcomeCounts() }
            return isWide ? wideRunning[entries - 1] : running[entries - 1].counts
        }

        /// The counts of the minute of entry `entry` alone.
        @inline(__always)
        func counts(ofEntry entry: Int) -> OutcomeCounts {
            if isWide { return entry == 0 ? wideRunning[0] : wideRunning[entry] - wideRunning[entry - 1] }
            return entry == 0 ? running[0].counts : running[entry].subtracting(running[entry - 1])
        }

        /// The totals of the first `minutes` minutes.
        @inline(__always)
        func counts(through minutes: Int) -> OutcomeCounts { total(ofEntries: entries(before: minutes)) }

        /// The valid events and failures of the first `minutes` minutes.
        @inline(__always)
        func valid(through minutes: Int) -> ValidTally {
            let entries = entries(before: minutes)
            if isWide { return wideValid[entries] }
            let tally = valid[entries]
            return ValidTally(valid: Int64(tally.valid), failure: Int64(tally.failure))
        }
    }

    /// Running totals of valid events and failures.
    private struct ValidTally {
        var valid: Int64
        var failure: Int64
    }

    /// ``ValidTally`` in 4 bytes a count.
    private struct CompactTally {
        var valid: UInt32
        var failure: UInt32
    }

    /// Builds the series from per-minute counts, `minutes[i]` being the minute at `startSeconds + 60 i`.
    public init(labels: SeriesLabels, startSeconds: Int64, minutes: [OutcomeCounts]) {
        self.init(labels: labels, startSeconds: startSeconds, minuteCount: minutes.count, counts: StepCounts(dense: minutes))
    }

    /// Builds the series of `minuteCount` minutes from `startSeconds` from the counts of its minutes with
    /// events (step i being the minute at `startSeconds + 60 i`; those from `minuteCount` on are left out):
    /// its running sums are written over the counts handed over when nothing else holds them.
    public init(labels: SeriesLabels, startSeconds: Int64, minuteCount: Int, counts: consuming StepCounts) {
        self.startSeconds = startSeconds
        endSeconds = startSeconds + Int64(minuteCount) * 60
        originSeconds = startSeconds
        var counts = counts
        counts.normalize()
        counts.removeSteps(from: minuteCount)
        let (steps, compact, wide) = counts.parts()
        sums = Sums(labels: labels, minuteCount: minuteCount, steps: steps, compact: compact, wide: wide)
    }

    private init(restricting series: MinuteSeries, startSeconds: Int64, endSeconds: Int64) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        originSeconds = series.originSeconds
        sums = series.sums
    }

    /// The same series covering only `[from, to)` (minute-aligned) of what it covers; shares its sums. O(1).
    public func restricted(from: Int64, to: Int64) -> MinuteSeries {
        let start = min(max(from, startSeconds), endSeconds)
        return MinuteSeries(restricting: self, startSeconds: start, endSeconds: max(start, min(to, endSeconds)))
    }

    /// The counts of each minute it covers that has events, step i being the minute at
    /// `startSeconds + 60 i`. O(minutes with events).
    public func countsByMinute() -> StepCounts {
        var byMinute = StepCounts()
        // Counted from the minute holding the start (a restriction may start within one).
        let first = Int64(index(startSeconds))
        forEachMinute(from: startSeconds, to: endSeconds) { minute, counts in
            byMinute.add(counts, at: Int32((minute - originSeconds) / .secondsPerMinute - first))
        }
        return byMinute
    }

    /// Calls `body` with each minute of `[from, to)` (clamped to the series) that has events, in order, and
    /// its counts. O(minutes with events there + minutes / 64).
    public func forEachMinute(from: Int64, to: Int64, _ body: (_ minuteSeconds: Int64, _ counts: OutcomeCounts) -> Void) {
        let (start, end) = (index(from), index(to))
        guard end > start else { return }
        let (first, last) = (sums.entries(before: start), sums.entries(before: end))
        // The bits of the minutes with events from `start` on, a word at a time.
        var word = start >> 6
        var bits = sums.occupied[word] & ~((1 << UInt64(start & 63)) - 1)
        for entry in first..<last {
            while bits == 0 {
                word += 1
                bits = sums.occupied[word]
            }
            let minute = word << 6 + bits.trailingZeroBitCount
            bits &= bits - 1
            body(originSeconds + Int64(minute) * .secondsPerMinute, sums.counts(ofEntry: entry))
        }
    }

    /// The prefix index of `time`, clamped to the minutes covered.
    private func index(_ time: Int64) -> Int {
        Int((min(max(time, startSeconds), endSeconds) - originSeconds) / .secondsPerMinute)
    }

    /// Total counts over `[from, to)` (seconds, minute-aligned; clamped to the series). O(1).
    public func counts(from: Int64, to: Int64) -> OutcomeCounts {
        let lower = index(from)
        let upper = index(to)
        guard upper > lower else { return OutcomeCounts() }
        return sums.counts(through: upper) - sums.counts(through: lower)
    }

    /// Total counts over the `seconds` before `time`.
    public func counts(last seconds: Int64, before time: Int64) -> OutcomeCounts {
        counts(from: time - seconds, to: time)
    }

    /// The valid events of `[from, to)` alone (clamped to the series), read from denser sums than
    /// ``counts(from:to:)``: their failures as ``OutcomeCounts/failure`` and the rest as
    /// ``OutcomeCounts/success``, so that `valid`, `failure` and `successRate` equal those of
    /// ``counts(from:to:)`` and every other count is zero. What a burn-rate test reads at every minute. O(1).
    public func validCounts(from: Int64, to: Int64) -> OutcomeCounts {
        let lower = index(from)
        let upper = index(to)
        guard upper > lower else { return OutcomeCounts() }
        let (upperSums, lowerSums) = (sums.valid(through: upper), sums.valid(through: lower))
        let (valid, failure) = (upperSums.valid - lowerSums.valid, upperSums.failure - lowerSums.failure)
        return OutcomeCounts(success: valid - failure, failure: failure)
    }

    /// ``validCounts(from:to:)`` over the `seconds` before `time`.
    public func validCounts(last seconds: Int64, before time: Int64) -> OutcomeCounts {
        validCounts(from: time - seconds, to: time)
    }

    /// The latest minute M in `[notBefore, time)` such that `[M, time)` holds at least `minimum` valid
    /// events, or nil when even `[notBefore, time)` holds fewer. O(log minutes).
    public func start(holdingValid minimum: Int64, before time: Int64, notBefore: Int64) -> Int64? {
        let sums = sums
        var lower = index(notBefore)
        var upper = index(time)
        let total = sums.valid(through: upper).valid
        guard total - sums.valid(through: lower).valid >= minimum else { return nil }
        // The largest prefix index whose valid events up to `time` are still at least `minimum`.
        while lower < upper {
            let middle = (lower + upper + 1) / 2
            if total - sums.valid(through: middle).valid >= minimum { lower = middle } else { upper = middle - 1 }
        }
        return originSeconds + Int64(lower) * .secondsPerMinute
    }

    /// The first minute in `[from, to)` with an event, or nil. O(log minutes).
    public func firstEvent(from: Int64, to: Int64) -> Int64? { firstMinute(from: from, to: to, counting: \.total) }

    /// The first minute in `[from, to)` whose `count` (``OutcomeCounts/failure``, ``OutcomeCounts/total``) is
    /// not zero, or nil. O(log minutes).
    public func firstMinute(from: Int64, to: Int64, counting count: (OutcomeCounts) -> Int64) -> Int64? {
        let sums = sums
        var lower = index(from)
        var upper = index(to)
        let before = count(sums.counts(through: lower))
        guard upper > lower, count(sums.counts(through: upper)) > before else { return nil }
        // The smallest prefix index past `lower` whose count exceeds `before`; its minute is one earlier.
        while lower + 1 < upper {
            let middle = (lower + upper) / 2
            if count(sums.counts(through: middle)) > before { upper = middle } else { lower = middle }
        }
        return originSeconds + Int64(upper - 1) * .secondsPerMinute
    }

    /// The last minute before `time` with an event, or nil. O(log minutes).
    public func lastEvent(before time: Int64) -> Int64? {
        let sums = sums
        var lower = index(startSeconds)
        var upper = index(time)
        let total = sums.counts(through: upper).total
        guard upper > lower, sums.counts(through: lower).total < total else { return nil }
        // The largest prefix index whose total is still under `total`: its minute holds the last event.
        while lower + 1 < upper {
            let middle = (lower + upper) / 2
            if sums.counts(through: middle).total < total { lower = middle } else { upper = middle }
        }
        return originSeconds + Int64(lower) * .secondsPerMinute
    }

    /// The first minute with an event, or nil when the series is empty.
    public var firstEventSeconds: Int64? { firstEvent(from: startSeconds, to: endSeconds) }

    /// Whether any minute it covers holds an event (``firstEventSeconds`` is not nil): whether a minute with
    /// counts lies in it, every event counting in a minute's total. O(1), without reading the counts.
    public var hasEvents: Bool { sums.entries(before: index(endSeconds)) > sums.entries(before: index(startSeconds)) }
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
