/// A time zone as the offsets from UTC it has used over time (`Europe/Berlin`: +01:00, +02:00 from the last
/// Sunday of March, …): what local times on pages and in text, and the days and ISO weeks of a review, are
/// computed from. A plain value, built once from the system's time zone database by the command line.
public struct TimeZoneOffsets: Sendable, Hashable, CustomStringConvertible {
    /// A change of offset: from `atSeconds` (UTC) on, local time is UTC plus `offsetSeconds`.
    public struct Change: Sendable, Hashable {
        /// When the new offset starts, in seconds since the epoch.
        public let atSeconds: Int64
        /// The offset from then on, in seconds east of UTC.
        public let offsetSeconds: Int64

        /// A change to `offsetSeconds` at `atSeconds`.
        public init(atSeconds: Int64, offsetSeconds: Int64) {
            self.atSeconds = atSeconds
            self.offsetSeconds = offsetSeconds
        }
    }

    /// The zone's name as given: `Europe/Berlin`, `UTC`, `+05:30`.
    public let identifier: String
    /// The offset before the first change.
    public let initialOffsetSeconds: Int64
    /// The changes, in time order.
    public let changes: [Change]

    /// A zone named `identifier` with `initialOffsetSeconds` until the first of `changes` (sorted here).
    public init(identifier: String, initialOffsetSeconds: Int64, changes: [Change] = []) {
        self.identifier = identifier
        self.initialOffsetSeconds = initialOffsetSeconds
        self.changes = changes.sorted { $0.atSeconds < $1.atSeconds }
    }

    /// UTC: times as RFC 3339 with `Z`, days from midnight UTC.
    public static let utc = TimeZoneOffsets(identifier: "UTC", initialOffsetSeconds: 0)

    /// Whether this is UTC (no offset, ever).
    public var isUTC: Bool { initialOffsetSeconds == 0 && changes.allSatisfy { $0.offsetSeconds == 0 } }

    /// The identifier.
    public var description: String { identifier }

    /// "UTC", or the identifier: what a column of times says it is in ("time (Europe/Berlin)").
    public var shortName: String { isUTC ? "UTC" : identifier }

    /// The offset in force at `seconds` (UTC). O(log changes).
    public func offsetSeconds(at seconds: Int64) -> Int64 {
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].atSeconds <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffsetSeconds : changes[low - 1].offsetSeconds
    }

    /// The local wall time of `seconds`, as seconds since the local epoch (1970-01-01 00:00 local).
    public func localSeconds(_ seconds: Int64) -> Int64 { seconds + offsetSeconds(at: seconds) }

    /// The UTC time at which the wall clock shows `local`: the earlier of two when a change back repeats it,
    /// and the change itself when a change forward skips it (a day that would start at 00:30 in a gap starts
    /// when the clock jumps). O(changes).
    public func utcSeconds(ofLocal local: Int64) -> Int64 {
        // Offsets are within a day of UTC; only the offsets in force around `local` can map to it.
        let candidates = Set([offsetSeconds(at: local - 2 * .secondsPerDay)] + changes(near: local).map(\.offsetSeconds))
        let matching = candidates.map { local - $0 }.filter { offsetSeconds(at: $0) == local - $0 }
        if let earliest = matching.min() { return earliest }
        return changes(near: local).first { change in
            local - change.offsetSeconds < change.atSeconds && local - offsetSeconds(at: change.atSeconds - 1) >= change.atSeconds
        }?.atSeconds ?? local - offsetSeconds(at: local)
    }

    /// The start (UTC) of the local calendar month `months` months after the one that holds `seconds`.
    public func startOfMonth(_ months: Int = 0, monthsAfter seconds: Int64) -> Int64 {
        let date = RFC3339.civilDate(daysSinceEpoch: Int(localSeconds(seconds).floorDividedBy(.secondsPerDay).quotient))
        let index = Int64(date.year) * 12 + Int64(date.month - 1) + Int64(months)
        let (year, month) = index.floorDividedBy(12)
        return utcSeconds(ofLocal: Int64(RFC3339.daysSinceEpoch(year: Int(year), month: Int(month) + 1, day: 1)) * .secondsPerDay)
    }

    /// The changes within two days of `local`, read as a UTC time.
    private func changes(near local: Int64) -> ArraySlice<Change> {
        let window = (local - 2 * .secondsPerDay)...(local + 2 * .secondsPerDay)
        return changes.drop { $0.atSeconds < window.lowerBound }.prefix { window.contains($0.atSeconds) }
    }
}

extension TimeZoneOffsets {
    /// RFC 3339 in this zone: `2026-11-02T19:40:00+01:00`, or `2026-11-02T18:40:00Z` in UTC; parsed back to the
    /// same instant.
    public func timestamp(_ seconds: Int64) -> String {
        guard !isUTC else { return RFC3339.format(seconds: seconds) }
        return String(RFC3339.format(seconds: localSeconds(seconds)).dropLast()) + Self.offsetText(offsetSeconds(at: seconds))
    }

    /// `2026-11-02 19:40`: the local date and time to the minute, for tables and notes.
    public func minute(_ seconds: Int64) -> String {
        RFC3339.format(seconds: localSeconds(seconds)).prefix(16).replacingFirstT()
    }

    /// `2026-11-02`: the local date.
    public func date(_ seconds: Int64) -> String { String(RFC3339.format(seconds: localSeconds(seconds)).prefix(10)) }

    /// `2026-11`: the local year and month.
    public func month(_ seconds: Int64) -> String { String(RFC3339.format(seconds: localSeconds(seconds)).prefix(7)) }

    /// "UTC", or "Europe/Berlin (UTC+01:00)" with the offset at `seconds`, for a page's footer.
    public func name(at seconds: Int64) -> String {
        guard !isUTC else { return "UTC" }
        let offset = Self.offsetText(offsetSeconds(at: seconds))
        return identifier.hasPrefix("+") || identifier.hasPrefix("-") ? "UTC" + offset : "\(identifier) (UTC\(offset))"
    }

    /// `+01:00`, `-03:30`, `+00:00`.
    public static func offsetText(_ offset: Int64) -> String {
        let minutes = abs(offset) / 60
        let hours = String(minutes / 60)
        let rest = String(minutes % 60)
        return (offset < 0 ? "-" : "+") + (hours.count < 2 ? "0" : "") + hours + ":" + (rest.count < 2 ? "0" : "") + rest
    }
}

extension StringProtocol {
    /// The text with its first `T` (RFC 3339's date-time separator) made a space.
    fileprivate func replacingFirstT() -> String {
        guard let index = firstIndex(of: "T") else { return String(self) }
        return self[..<index] + " " + self[self.index(after: index)...]
    }
}
