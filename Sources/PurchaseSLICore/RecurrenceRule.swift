/// When a maintenance window comes back: the part of an iCalendar RRULE (RFC 5545) that planned work
/// needs, as Nobl9's recurring windows take it: `FREQ=DAILY`, `WEEKLY` (with `BYDAY=MO,TH`) or `MONTHLY`
/// (the first occurrence's day of the month; a month without that day has none), `INTERVAL`, and `COUNT` or
/// `UNTIL`. Times are UTC; weeks start on Monday.
public struct RecurrenceRule: Sendable, Hashable, CustomStringConvertible {
    /// How often it repeats.
    public enum Frequency: String, Sendable, Hashable {
        case daily = "DAILY"
        case weekly = "WEEKLY"
        case monthly = "MONTHLY"
    }

    /// The unit of repetition.
    public var frequency: Frequency
    /// Every how many units (1: every one).
    public var interval: Int
    /// For a weekly rule, the days of the week (0 Monday … 6 Sunday) it falls on; empty: the first
    /// occurrence's day.
    public var weekdays: [Int]
    /// How many occurrences there are in all, the first one included; nil: no limit.
    public var count: Int?
    /// The last time an occurrence may start (seconds, inclusive); nil: no limit.
    public var untilSeconds: Int64?

    private static let dayNames = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// Parses an RRULE value such as `FREQ=WEEKLY;BYDAY=SU` (an `RRULE:` prefix is allowed).
    /// - Throws: ``RecurrenceRuleError`` naming the part that is not understood.
    public init(parsing text: String) throws {
        var body = Substring(text.filter { $0 != " " })
        if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
        var parts: [String: String] = [:]
        for part in body.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { throw RecurrenceRuleError("expected NAME=VALUE, got \(part)") }
            let name = pair[0].uppercased()
            guard parts[name] == nil else { throw RecurrenceRuleError("\(name) is given twice") }
            parts[name] = pair[1].uppercased()
        }
        guard let frequencyText = parts.removeValue(forKey: "FREQ") else { throw RecurrenceRuleError("FREQ is missing") }
        guard let frequency = Frequency(rawValue: frequencyText) else {
            throw RecurrenceRuleError("FREQ must be DAILY, WEEKLY or MONTHLY, got \(frequencyText)")
        }
        self.frequency = frequency
        interval = 1
        if let value = parts.removeValue(forKey: "INTERVAL") {
            guard let number = Int(value), (1...1000).contains(number) else {
                throw RecurrenceRuleError("INTERVAL must be a whole number from 1 to 1000, got \(value)")
            }
            interval = number
        }
        weekdays = []
        if let value = parts.removeValue(forKey: "BYDAY") {
            guard frequency == .weekly else { throw RecurrenceRuleError("BYDAY is understood with FREQ=WEEKLY only") }
            weekdays = try value.split(separator: ",").map { name in
                guard let day = Self.dayNames.firstIndex(of: String(name)) else {
                    throw RecurrenceRuleError("BYDAY takes MO, TU, WE, TH, FR, SA or SU, got \(name)")
                }
                return day
            }
            weekdays = Array(Set(weekdays)).sorted()
        }
        if let value = parts.removeValue(forKey: "COUNT") {
            guard let number = Int(value), number >= 1 else { throw RecurrenceRuleError("COUNT must be a whole number from 1, got \(value)") }
            count = number
        }
        if let value = parts.removeValue(forKey: "UNTIL") {
            guard count == nil else { throw RecurrenceRuleError("give COUNT or UNTIL, not both") }
            guard let seconds = Self.untilSeconds(value) else {
                throw RecurrenceRuleError("UNTIL must be a UTC time such as 20261231T235959Z or a date such as 20261231, got \(value)")
            }
            untilSeconds = seconds
        }
        if let unknown = parts.keys.sorted().first {
            throw RecurrenceRuleError("\(unknown) is not understood (FREQ, INTERVAL, BYDAY, COUNT and UNTIL are)")
        }
    }

    /// `20261231T235959Z` or `20261231` (the whole day), in seconds.
    private static func untilSeconds(_ text: String) -> Int64? {
        let digits = text.filter(\.isNumber)
        guard text.count == 8 || (text.count == 16 && text.hasSuffix("Z") && Array(text)[8] == "T"),
            digits.count == text.count - (text.count == 8 ? 0 : 2)
        else { return nil }
        let stamp =
            text.count == 8
            ? "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.dropFirst(6).prefix(2))T23:59:59Z"
            : "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.dropFirst(6).prefix(2))T\(digits.dropFirst(8).prefix(2)):"
                + "\(digits.dropFirst(10).prefix(2)):\(digits.dropFirst(12).prefix(2))Z"
        return RFC3339.parseMillis(stamp).map { $0 / 1000 }
    }

    /// The rule as RRULE text, in a fixed order.
    public var description: String {
        var parts = ["FREQ=\(frequency.rawValue)"]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if !weekdays.isEmpty { parts.append("BYDAY=" + weekdays.map { Self.dayNames[$0] }.joined(separator: ",")) }
        if let count { parts.append("COUNT=\(count)") }
        if let untilSeconds {
            parts.append("UNTIL=" + RFC3339.format(seconds: untilSeconds).filter { $0 != "-" && $0 != ":" })
        }
        return parts.joined(separator: ";")
    }

    /// The start of each occurrence in order, from `firstSeconds` (always the first, as RFC 5545's DTSTART
    /// is, whatever BYDAY says) up to the first at or after `beforeSeconds`, the rule's count or its end;
    /// only those at or after `notBefore` are returned. Without a count the walk starts a period before
    /// `notBefore`, so a rule begun years ago costs what the range holds.
    public func starts(first firstSeconds: Int64, notBefore: Int64 = .min, before beforeSeconds: Int64) -> [Int64] {
        let last = min(beforeSeconds - 1, untilSeconds ?? .max)
        guard firstSeconds <= last else { return [] }
        var starts = firstSeconds >= notBefore ? [firstSeconds] : []
        var counted = 1
        let (firstDay, timeOfDay) = firstSeconds.floorDividedBy(86_400)
        // Whole days between the first start and the walk's start (none with a count, which counts them all).
        let skippedDays = count == nil && notBefore > firstSeconds ? max(0, (notBefore - firstSeconds) / 86_400 - 7 * Int64(interval)) : 0
        /// Takes `start` when it is after the first; false once past the end or the count.
        func keep(_ start: Int64) -> Bool {
            guard start <= last, count.map({ counted < $0 }) ?? true else { return false }
            if start > firstSeconds {
                counted += 1
                if start >= notBefore { starts.append(start) }
            }
            return true
        }
        switch frequency {
        case .daily:
            var day = firstDay + skippedDays / Int64(interval) * Int64(interval)
            while keep(day * 86_400 + timeOfDay) { day += Int64(interval) }
        case .weekly:
            let monday = firstDay - (firstDay + 3).floorDividedBy(7).remainder
            let days = weekdays.isEmpty ? [Int(firstDay - monday)] : weekdays
            var week = monday + skippedDays / (7 * Int64(interval)) * 7 * Int64(interval)
            weeks: while true {
                // A day of the first week before the first start is passed over (`keep` goes on).
                for day in days where !keep((week + Int64(day)) * 86_400 + timeOfDay) { break weeks }
                week += Int64(7 * interval)
            }
        case .monthly:
            let first = RFC3339.civilDate(daysSinceEpoch: Int(firstDay))
            var month = first.year * 12 + first.month - 1
            while true {
                let (year, monthOfYear) = (month / 12, month % 12 + 1)
                month += interval
                guard first.day <= RFC3339.daysInMonth(year: year, month: monthOfYear) else {
                    if Int64(RFC3339.daysSinceEpoch(year: year, month: monthOfYear, day: 1)) * 86_400 > last { break }
                    continue
                }
                if !keep(Int64(RFC3339.daysSinceEpoch(year: year, month: monthOfYear, day: first.day)) * 86_400 + timeOfDay) { break }
            }
        }
        return starts
    }
}

/// A recurrence rule that cannot be read, with what was expected.
public struct RecurrenceRuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}
