import Foundation
import PurchaseSLICore

extension TimeZoneOffsets {
    /// The last time whose offset is looked up: 2100-01-01. Later times keep the offset in force then.
    private static let horizon = Date(timeIntervalSince1970: 4_102_444_800)

    /// The zone `name` names: `UTC`, a fixed offset (`+05:30`, `-03:00`), or an IANA name from the system's
    /// time zone database (`Europe/Berlin`) with its every change of offset from 1970 to 2100; nil when
    /// none is known by that name.
    static func named(_ name: String) -> TimeZoneOffsets? {
        if name == "UTC" || name == "Etc/UTC" || name == "Z" { return .utc }
        if let offset = fixedOffset(name) { return TimeZoneOffsets(identifier: name, initialOffsetSeconds: offset) }
        // Foundation also accepts abbreviations and "GMT+1"-like names, whose meaning varies: only area/location names.
        guard name.contains("/"), let zone = TimeZone(identifier: name) else { return nil }
        var changes: [Change] = []
        var date = Date(timeIntervalSince1970: 0)
        while let next = zone.nextDaylightSavingTimeTransition(after: date), next < horizon {
            changes.append(Change(atSeconds: Int64(next.timeIntervalSince1970), offsetSeconds: Int64(zone.secondsFromGMT(for: next))))
            date = next
        }
        return TimeZoneOffsets(
            identifier: name, initialOffsetSeconds: Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 0))), changes: changes)
    }

    /// The zone `name` names, or a ``CommandFailure`` saying what `source` (`--time-zone`, `slos.yaml: timeZone`)
    /// should hold, with the known name it most likely meant.
    static func resolving(_ name: String, source: String) throws -> TimeZoneOffsets {
        guard name.utf8.count <= maximumNameLength else {
            throw CommandFailure(
                message: "\(source): a time zone name is at most \(maximumNameLength) bytes (the longest IANA name has 32), got \(name.utf8.count)")
        }
        if let zone = named(name) { return zone }
        let lowered = name.lowercased()
        let known = TimeZone.knownTimeZoneIdentifiers
        let likely =
            known.first { $0.lowercased() == lowered }
            ?? known.first { $0.lowercased().hasSuffix("/" + (lowered.split(separator: "/").last ?? "")) }
            ?? known.lazy.compactMap { known in editDistance(known.lowercased(), lowered, atMost: 2).map { (known, $0) } }
            .min { $0.1 < $1.1 }?.0
        throw CommandFailure(
            message: "\(source): unknown time zone \"\(name)\": expected an IANA name such as Europe/Berlin, UTC, or an offset such as +05:30"
                + (likely.map { " (did you mean \($0)?)" } ?? ""))
    }

    /// The longest zone name looked up, in bytes: the longest IANA name (`America/Argentina/ComodRivadavia`,
    /// 32) and room to spare; a longer one is refused before any lookup or suggestion.
    static let maximumNameLength = 64

    /// The Levenshtein distance of two names (their typos) when it is at most `limit`, else nil: only the
    /// band of `limit` on either side of the diagonal is computed, and the walk stops once a row exceeds it,
    /// O(n·limit).
    private static func editDistance(_ a: String, _ b: String, atMost limit: Int) -> Int? {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        guard abs(a.count - b.count) <= limit else { return nil }
        let beyond = limit + 1
        var previous = (0...b.count).map { min($0, beyond) }
        for i in 1..<(a.count + 1) {
            var current = Array(repeating: beyond, count: b.count + 1)
            current[0] = min(i, beyond)
            for j in max(1, i - limit)..<(min(b.count, i + limit) + 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1), beyond)
            }
            guard current.contains(where: { $0 <= limit }) else { return nil }
            previous = current
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// The seconds east of UTC of `+HH:MM` or `-HH:MM`, as RFC 3339 reads an offset; nil for anything else.
    private static func fixedOffset(_ text: String) -> Int64? {
        guard text.utf8.count == 6, text.first == "+" || text.first == "-",
            let millis = RFC3339.parseMillis("1970-01-02T00:00:00" + text)
        else { return nil }
        return .secondsPerDay - millis / .millisPerSecond
    }
}
