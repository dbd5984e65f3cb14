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

    /// The longest rule text read, in bytes (every part given once with BYDAY listing all seven days
    /// needs under 100).
    public static let maximumLength = 256

    private static let dayNames = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// Parses an RRULE value such as `FREQ=WEEKLY;BYDAY=SU` (an `RRULE:` prefix is allowed).
    /// - Throws: ``RecurrenceRuleError`` naming the part that is not understood.
    public init(parsing text: String) throws {
        guard text.utf8.count <= Self.maximumLength else {
            throw RecurrenceRuleError("expected at most \(Self.maximumLength) bytes, got \(text.utf8.count)")
        }
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
        return RFC3339.parseMillis(stamp).map { $0 / .millisPerSecond }
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
    /// only those at or after `notBefore` are returned. The walk starts at the occurrence `notBefore` falls
    /// in, found arithmetically, and a COUNT is honoured by each occurrence's index, so a rule begun years
    /// ago (or with a COUNT of billions) costs what `[notBefore, beforeSeconds)` holds. Times RFC 3339
    /// cannot write (before year 0, after 9999) have no occurrence.
    public func starts(first firstSeconds: Int64, notBefore: Int64 = .min, before beforeSeconds: Int64) -> [Int64] {
        guard beforeSeconds > .min else { return [] }
        let last = min(beforeSeconds - 1, untilSeconds ?? .max, RFC3339.representableSeconds.upperBound)
        guard RFC3339.representableSeconds.contains(firstSeconds), firstSeconds <= last, notBefore <= last else { return [] }
        var starts = firstSeconds >= notBefore ? [firstSeconds] : []
        let limit = count.map(Int64.init) ?? .max
        // Where the walk may start: no occurrence after the first starts before it.
        let from = max(notBefore, firstSeconds)
        /// Takes the occurrence of index `index` (the first is 0) starting at `start`; false once past the end or the count.
        func keep(index: Int64, start: Int64?) -> Bool {
            guard let start, index < limit, start <= last else { return false }
            if start >= notBefore { starts.append(start) }
            return true
        }
        let (firstDay, timeOfDay) = firstSeconds.floorDividedBy(.secondsPerDay)
        switch frequency {
        case .daily:
            let step = Int64(interval) * .secondsPerDay
            var index = max(1, (from - firstSeconds) / step)
            while keep(index: index, start: Self.adding(firstSeconds, index, times: step)) { index += 1 }
        case .weekly:
            let firstWeekday = Int((firstDay + 3).floorDividedBy(7).remainder)
            let monday = firstDay - Int64(firstWeekday)
            let days = weekdays.isEmpty ? [firstWeekday] : weekdays
            let cycleDays = 7 * Int64(interval)
            // The first week holds the days after the first start's; each later cycle every day of `days`.
            let firstWeek = days.filter { $0 > firstWeekday }
            let perCycle = Int64(days.count)
            if from < (monday + cycleDays) * .secondsPerDay + timeOfDay {
                for (offset, day) in firstWeek.enumerated()
                where !keep(index: 1 + Int64(offset), start: (monday + Int64(day)) * .secondsPerDay + timeOfDay) {
                    return starts
                }
            }
            var cycle = max(1, (from - (monday * .secondsPerDay + timeOfDay)) / (cycleDays * .secondsPerDay))
            while true {
                let week = monday + cycle * cycleDays
                let before = 1 + Int64(firstWeek.count) + (cycle - 1) * perCycle
                for (offset, day) in days.enumerated()
                where !keep(index: before + Int64(offset), start: (week + Int64(day)) * .secondsPerDay + timeOfDay) {
                    return starts
                }
                cycle += 1
            }
        case .monthly:
            let first = RFC3339.civilDate(daysSinceEpoch: Int(firstDay))
            let firstMonth = Int64(first.year) * 12 + Int64(first.month) - 1
            let fromDate = RFC3339.civilDate(daysSinceEpoch: Int(from.floorDividedBy(.secondsPerDay).quotient))
            let fromMonth = Int64(fromDate.year) * 12 + Int64(fromDate.month) - 1
            var step = max(1, (fromMonth - firstMonth) / Int64(interval))
            var index = count == nil ? 0 : monthsHolding(day: first.day, firstMonth: firstMonth, before: step)
            while true {
                let month = firstMonth + step * Int64(interval)
                let (year, monthOfYear) = (Int(month / 12), Int(month % 12) + 1)
                step += 1
                let monthStart = Int64(RFC3339.daysSinceEpoch(year: year, month: monthOfYear, day: 1)) * .secondsPerDay
                guard monthStart <= last else { break }
                guard first.day <= RFC3339.daysInMonth(year: year, month: monthOfYear) else { continue }
                if !keep(index: index, start: monthStart + Int64(first.day - 1) * .secondsPerDay + timeOfDay) { break }
                index += 1
            }
        }
        return starts
    }

    /// `base + index × step`, or nil when it overflows.
    private static func adding(_ base: Int64, _ index: Int64, times step: Int64) -> Int64? {
        let (product, overflow) = index.multipliedReportingOverflow(by: step)
        let (sum, overflowAgain) = base.addingReportingOverflow(product)
        return overflow || overflowAgain ? nil : sum
    }

    /// How many of the months `firstMonth + k × interval`, `k` in `0..<steps`, have day `day`: the index of
    /// the occurrence of step `steps`. Which months have a day repeats every 400 years (4,800 months), so at
    /// most two such cycles are looked at, and none for days every month has.
    private func monthsHolding(day: Int, firstMonth: Int64, before steps: Int64) -> Int64 {
        guard day > 28 else { return steps }
        func holds(_ step: Int64) -> Bool {
            let month = firstMonth + step * Int64(interval)
            return day <= RFC3339.daysInMonth(year: Int(month / 12), month: Int(month % 12) + 1)
        }
        var divisor = Int64(4_800)
        var other = Int64(interval)
        while other != 0 { (divisor, other) = (other, divisor % other) }
        let cycle = 4_800 / divisor
        let perCycle = Int64((0..<cycle).count(where: holds))
        return steps / cycle * perCycle + Int64((0..<steps % cycle).count(where: holds))
    }

    /// The shortest time between the starts of two consecutive occurrences when `firstSeconds` is the first,
    /// or nil when there is at most one: the longest an occurrence may last without running into the next.
    /// Looks at the first 8 years' occurrences (a weekly rule's first weeks and a monthly rule's short months
    /// among them).
    public func smallestGapSeconds(first firstSeconds: Int64) -> Int64? {
        let reach: Int64 =
            switch frequency {
            case .daily: 2 * Int64(interval) * .secondsPerDay + 1
            case .weekly: (3 * 7 * Int64(interval) + 7) * .secondsPerDay
            case .monthly: (8 * 12 * Int64(interval) + 2) * 31 * .secondsPerDay
            }
        let (before, overflow) = firstSeconds.addingReportingOverflow(reach)
        let starts = self.starts(first: firstSeconds, before: overflow ? .max : before)
        return zip(starts, starts.dropFirst()).map { $1 - $0 }.min()
    }
}

/// A recurrence rule that cannot be read, with what was expected.
public struct RecurrenceRuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}
