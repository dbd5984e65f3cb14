import PurchaseSLICore

/// What a window test of slices counts (``SliceSweep``).
enum SliceCount: String, Sendable {
    /// Every event: a window with one holds events.
    case total
    /// Valid events.
    case valid
    /// Failures.
    case failure
    /// Cancels.
    case cancel
    /// 409s.
    case conflicts

    /// The count of `counts`.
    func callAsFunction(_ counts: OutcomeCounts) -> Int64 {
        switch self {
        case .total: counts.total
        case .valid: counts.valid
        case .failure: counts.failure
        case .cancel: counts.cancel
        case .conflicts: counts.conflicts
        }
    }
}

/// Which of a list of units (a slice, or one value's slices of every action) hold at least a minimum of a
/// count over the window before a time, followed through the times of one evaluation run: a unit's count
/// changes only at the minutes its events enter and leave the window, so stepping a minute costs the
/// units with events at those two minutes, not every unit. A rule asks it for the few slices that can
/// pass a test (a burn needs failures in its short window, a spike its minimum count) instead of testing
/// each slice at each minute (a catalog of thousands of products, most without an event for hours).
///
/// The times asked come mostly in order. It works in spans of minutes: the counts at a span's first
/// minute from the units' running sums (O(units)), then, minute by minute, the changes of the span,
/// bucketed by minute from the events that enter and leave (O(events in the span)). A span follows the
/// last one twice as long (to about 4 hours: a span's changes are held while it is read, and the counts
/// at its start cost O(units) however long it is), so a backtest of a week reads each event about
/// twice, and a live evaluation of an hour no more than its last hours; a time before the span, or far
/// after it, starts a new one. Exact: the units it names at T are those whose count over `[T − window, T)` (as
/// ``MinuteSeries/counts(from:to:)`` reads it) is at least the minimum.
final class SliceSweep {
    /// The units: each one series, or several summed.
    let units: [[MinuteSeries]]
    private let windowSeconds: Int64
    private let minimum: Int64
    private let count: SliceCount
    /// The span in force, or nil before the first time asked.
    private var span: Span?

    /// One span of minutes: the state at `current`, and the changes of each of its minutes.
    private struct Span {
        /// The minute (an index: seconds / 60, rounded down) of the span's first state.
        var start: Int64
        /// The minutes from `start` whose changes the span holds: it answers `start...start + length`.
        var length: Int64
        /// The window's length in minutes at the times asked (the window's minutes as the running sums
        /// read them, the same for every time at one second of its minute).
        var windowMinutes: Int64
        /// The minute whose state `totals` and `active` hold.
        var current: Int64
        /// Each unit's count over the window before `current`.
        var totals: [Int64]
        /// Bit `u % 64` of word `u / 64`: whether unit u holds at least the minimum at `current`.
        var active: [UInt64]
        /// The changes of stepping from minute `start + i` to the next, for each i: `changes[offsets[i]..<offsets[i + 1]]`.
        var offsets: [Int32]
        /// Each change: a unit and what its count gains (an event entering) or loses (one leaving).
        var changes: [(unit: Int32, delta: Int64)]
    }

    /// A sweep of `units`, naming those whose `count` over the `windowSeconds` before a time is at least
    /// `minimum` (at least 1: a unit without an event is never named).
    init(units: [[MinuteSeries]], windowSeconds: Int64, minimum: Int64, count: SliceCount) {
        precondition(minimum >= 1, "a sweep names units with events")
        self.units = units
        self.windowSeconds = windowSeconds
        self.minimum = minimum
        self.count = count
    }

    /// The shortest span, in minutes; each next one in order is twice as long, to ``longestSpanMinutes``.
    static let shortestSpanMinutes: Int64 = 64
    /// The longest span, in minutes: about 4 hours.
    static let longestSpanMinutes: Int64 = 256

    /// The indices of the units whose count over the window before `time` is at least the minimum,
    /// ascending.
    func active(at time: Int64) -> [Int] {
        var indices: [Int] = []
        forEachActive(at: time) { indices.append($0) }
        return indices
    }

    /// How many units hold at least the minimum over the window before `time`.
    func activeCount(at time: Int64) -> Int {
        move(to: time)
        return span!.active.reduce(0) { $0 + $1.nonzeroBitCount }
    }

    /// Calls `body` with the index of each unit that holds at least the minimum over the window before
    /// `time`, ascending.
    private func forEachActive(at time: Int64, _ body: (Int) -> Void) {
        move(to: time)
        for (word, bits) in span!.active.enumerated() where bits != 0 {
            var remaining = bits
            while remaining != 0 {
                body(word << 6 + remaining.trailingZeroBitCount)
                remaining &= remaining - 1
            }
        }
    }

    /// Brings the span's state to `time`: stepped forward within the span, or a new span.
    private func move(to time: Int64) {
        let minute = Self.minute(time)
        let windowMinutes = minute - Self.minute(time - windowSeconds)
        // (Decided before stepping, so that no copy of the span holds its arrays while they change.)
        let within = span.map { $0.windowMinutes == windowMinutes && minute >= $0.current && minute <= $0.start + $0.length } ?? false
        if within {
            advance(&span!, to: minute)
            return
        }
        // A time just after the span continues it with one twice as long; any other starts anew.
        let follows = span.map { $0.windowMinutes == windowMinutes && minute > $0.start + $0.length && minute <= $0.start + 2 * $0.length }
        let length = follows == true ? min(2 * span!.length, Self.longestSpanMinutes) : Self.shortestSpanMinutes
        span = nil
        span = makeSpan(at: minute, length: length, windowMinutes: windowMinutes)
    }

    /// The minute of `seconds`, rounded down.
    private static func minute(_ seconds: Int64) -> Int64 {
        seconds >= 0 ? seconds / .secondsPerMinute : -((-seconds + .secondsPerMinute - 1) / .secondsPerMinute)
    }

    /// Steps `span` to `minute` (within it, not before its current minute).
    private func advance(_ span: inout Span, to minute: Int64) {
        while span.current < minute {
            let step = Int(span.current - span.start)
            for change in span.changes[Int(span.offsets[step])..<Int(span.offsets[step + 1])] {
                let unit = Int(change.unit)
                span.totals[unit] += change.delta
                let bit: UInt64 = 1 << UInt64(unit & 63)
                if span.totals[unit] >= minimum { span.active[unit >> 6] |= bit } else { span.active[unit >> 6] &= ~bit }
            }
            span.current += 1
        }
    }

    /// The span of `length` minutes from `start`: the counts at `start` from the running sums, and the
    /// changes of each step, bucketed by step from the events of `[start − window, start + length)`.
    private func makeSpan(at start: Int64, length: Int64, windowMinutes: Int64) -> Span {
        let seconds = Int64.secondsPerMinute
        var totals = [Int64](repeating: 0, count: units.count)
        var active = [UInt64](repeating: 0, count: units.count / 64 + 1)
        // What each step gains and loses: from minute m to m + 1 the events of m enter the window and
        // those of m − window leave it.
        var stepped: [(step: Int32, unit: Int32, delta: Int64)] = []
        for (unit, members) in units.enumerated() {
            for series in members {
                totals[unit] += count(series.counts(from: (start - windowMinutes) * seconds, to: start * seconds))
                series.forEachMinute(from: start * seconds, to: (start + length) * seconds) { minute, counts in
                    let delta = count(counts)
                    if delta != 0 { stepped.append((Int32(Self.minute(minute) - start), Int32(unit), delta)) }
                }
                series.forEachMinute(from: (start - windowMinutes) * seconds, to: (start + length - windowMinutes) * seconds) { minute, counts in
                    let delta = count(counts)
                    if delta != 0 { stepped.append((Int32(Self.minute(minute) + windowMinutes - start), Int32(unit), -delta)) }
                }
            }
            if totals[unit] >= minimum { active[unit >> 6] |= 1 << UInt64(unit & 63) }
        }
        // Bucketed by step (a counting sort).
        var offsets = [Int32](repeating: 0, count: Int(length) + 1)
        for change in stepped { offsets[Int(change.step) + 1] += 1 }
        for step in 0..<Int(length) { offsets[step + 1] += offsets[step] }
        var next = offsets
        var changes = [(unit: Int32, delta: Int64)](repeating: (0, 0), count: stepped.count)
        for change in stepped {
            changes[Int(next[Int(change.step)])] = (change.unit, change.delta)
            next[Int(change.step)] += 1
        }
        return Span(
            start: start, length: length, windowMinutes: windowMinutes, current: start, totals: totals, active: active, offsets: offsets,
            changes: changes)
    }
}
