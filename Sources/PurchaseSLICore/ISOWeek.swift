/// An ISO 8601 week (`2026-W46`): Monday 00:00 to the next Monday, in UTC or a time zone.
public struct ISOWeek: Sendable, Hashable, CustomStringConvertible {
    /// The ISO week-numbering year.
    public let year: Int
    /// The week, 1 to 52 or 53.
    public let week: Int
    /// Monday 00:00 of the week in its zone, in seconds since the epoch.
    public let startSeconds: Int64
    /// The next Monday 00:00 in its zone (a week with a change of offset is an hour shorter or longer).
    public let endSeconds: Int64
    /// The zone whose Mondays bound the week.
    public let zone: TimeZoneOffsets

    /// The week that holds `seconds` in `zone`.
    public init(containing seconds: Int64, in zone: TimeZoneOffsets = .utc) {
        let day = zone.localSeconds(seconds).floorDividedBy(.secondsPerDay).quotient
        let monday = day - (day + 3).floorDividedBy(7).remainder  // 1970-01-01 was a Thursday
        let thursday = monday + 3
        let year = Self.civilYear(ofDay: thursday)
        let firstMonday = Self.mondayOfWeekOne(year)
        self.year = year
        self.zone = zone
        week = Int((monday - firstMonday) / 7) + 1
        startSeconds = zone.utcSeconds(ofLocal: monday * .secondsPerDay)
        endSeconds = zone.utcSeconds(ofLocal: (monday + 7) * .secondsPerDay)
    }

    /// Parses `2026-W46` as a week of `zone`; nil when malformed or past the year's last week.
    public init?(parsing text: String, in zone: TimeZoneOffsets = .utc) {
        let parts = text.split(separator: "-W", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            (parts[0] + parts[1]).allSatisfy({ $0.isASCII && $0.isNumber }),
            let year = Int(parts[0]), let week = Int(parts[1]), (1970...9999).contains(year), week >= 1
        else { return nil }
        let start = zone.utcSeconds(ofLocal: (Self.mondayOfWeekOne(year) + Int64(week - 1) * 7) * .secondsPerDay)
        let parsed = ISOWeek(containing: start, in: zone)
        guard parsed.year == year, parsed.week == week else { return nil }
        self = parsed
    }

    /// The week before.
    public var previous: ISOWeek { ISOWeek(containing: startSeconds - 1, in: zone) }
    /// `2026-W46`.
    public var description: String { "\(year)-W\(week < 10 ? "0" : "")\(week)" }

    /// Days since the epoch of the Monday of week 1 of `year`: the week holding January 4.
    private static func mondayOfWeekOne(_ year: Int) -> Int64 {
        let january4 = daysFromCivil(year: year, month: 1, day: 4)
        return january4 - (january4 + 3).floorDividedBy(7).remainder
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = y.floorDividedBy(400).quotient
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * Int64(month > 2 ? month - 3 : month + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar year of a day since the epoch.
    private static func civilYear(ofDay day: Int64) -> Int {
        let z = day + 719_468
        let era = z.floorDividedBy(146_097).quotient
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        return Int(yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0))
    }
}
