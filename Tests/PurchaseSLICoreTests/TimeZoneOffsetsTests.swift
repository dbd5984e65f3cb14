import PurchaseSLICore
import Testing

@Suite struct TimeZoneOffsetsTests {
    /// Europe/Berlin in 2026: +01:00, +02:00 from 2026-03-29T01:00Z (02:00 local jumps to 03:00), +01:00 again
    /// from 2026-10-25T01:00Z (03:00 local falls back to 02:00).
    static let berlin = TimeZoneOffsets(
        identifier: "Europe/Berlin", initialOffsetSeconds: 3600,
        changes: [
            .init(atSeconds: seconds("2026-10-25T01:00:00Z"), offsetSeconds: 3600),
            .init(atSeconds: seconds("2026-03-29T01:00:00Z"), offsetSeconds: 7200),
        ])

    static func seconds(_ text: String) -> Int64 { RFC3339.parseMillis(text)! / 1000 }

    @Test(arguments: [
        ("2026-01-15T12:00:00Z", "2026-01-15T13:00:00+01:00"), ("2026-03-29T00:59:59Z", "2026-03-29T01:59:59+01:00"),
        ("2026-03-29T01:00:00Z", "2026-03-29T03:00:00+02:00"), ("2026-07-01T22:30:00Z", "2026-07-02T00:30:00+02:00"),
        ("2026-10-25T00:30:00Z", "2026-10-25T02:30:00+02:00"), ("2026-10-25T01:30:00Z", "2026-10-25T02:30:00+01:00"),
    ])
    func timestampsCarryTheOffsetInForceAndParseBack(utc: String, local: String) {
        let time = Self.seconds(utc)
        #expect(Self.berlin.timestamp(time) == local)
        #expect(RFC3339.parseMillis(local) == time * 1000)
    }

    @Test func utcIsWrittenWithZAndShortFormsAreLocal() {
        let time = Self.seconds("2026-11-02T18:40:00Z")
        #expect(TimeZoneOffsets.utc.timestamp(time) == "2026-11-02T18:40:00Z")
        #expect(Self.berlin.minute(time) == "2026-11-02 19:40")
        #expect(Self.berlin.date(Self.seconds("2026-11-02T23:10:00Z")) == "2026-11-03")
        #expect(Self.berlin.month(Self.seconds("2026-10-31T23:10:00Z")) == "2026-11")
        #expect(Self.berlin.name(at: time) == "Europe/Berlin (UTC+01:00)")
        #expect(Self.berlin.name(at: Self.seconds("2026-10-20T00:00:00Z")) == "Europe/Berlin (UTC+02:00)")
        #expect(TimeZoneOffsets(identifier: "-03:30", initialOffsetSeconds: -12_600).timestamp(time) == "2026-11-02T15:10:00-03:30")
    }

    /// Local midnights and wall times, including a time the change forward skips (it maps to the change) and
    /// one the change back repeats (the first).
    @Test(arguments: [
        ("2026-11-03T00:00:00", "2026-11-02T23:00:00Z"), ("2026-07-01T00:00:00", "2026-06-30T22:00:00Z"),
        ("2026-03-29T02:30:00", "2026-03-29T01:00:00Z"), ("2026-10-25T02:30:00", "2026-10-25T00:30:00Z"),
        ("2026-10-25T03:00:00", "2026-10-25T02:00:00Z"),
    ])
    func wallTimesMapToOneInstant(local: String, utc: String) {
        #expect(Self.berlin.utcSeconds(ofLocal: Self.seconds(local + "Z")) == Self.seconds(utc))
    }

    @Test func daysAndMonthsFollowTheLocalCalendar() {
        let startOfDay = { (day: String) in Self.berlin.utcSeconds(ofLocal: Self.seconds(day + "T00:00:00Z")) }
        #expect(startOfDay("2026-03-29") == Self.seconds("2026-03-28T23:00:00Z"))
        // The day the clocks go forward is 23 hours long.
        #expect(startOfDay("2026-03-30") - startOfDay("2026-03-29") == 23 * 3600)
        #expect(startOfDay("2026-11-03") == Self.seconds("2026-11-02T23:00:00Z"))
        #expect(Self.berlin.startOfMonth(monthsAfter: Self.seconds("2026-10-31T23:30:00Z")) == Self.seconds("2026-10-31T23:00:00Z"))
        #expect(Self.berlin.startOfMonth(-1, monthsAfter: Self.seconds("2026-01-10T00:00:00Z")) == Self.seconds("2025-11-30T23:00:00Z"))
        #expect(Self.berlin.startOfMonth(1, monthsAfter: Self.seconds("2026-12-10T00:00:00Z")) == Self.seconds("2026-12-31T23:00:00Z"))
        #expect(TimeZoneOffsets.utc.utcSeconds(ofLocal: Self.seconds("2026-11-02T00:00:00Z")) == Self.seconds("2026-11-02T00:00:00Z"))
    }

    /// An ISO week of a zone runs from its Monday midnight to the next: an hour short over the change forward.
    @Test func isoWeeksOfAZoneStartAtItsMondayMidnight() throws {
        let week = try #require(ISOWeek(parsing: "2026-W45", in: Self.berlin))
        #expect(Self.berlin.timestamp(week.startSeconds) == "2026-11-02T00:00:00+01:00")
        #expect(week.endSeconds - week.startSeconds == 7 * 86_400)
        // Sunday 23:30 UTC is already Monday in Berlin: the next week there, the same week in UTC.
        let late = Self.seconds("2026-11-08T23:30:00Z")
        #expect(ISOWeek(containing: late, in: Self.berlin).description == "2026-W46")
        #expect(ISOWeek(containing: late).description == "2026-W45")
        let spring = try #require(ISOWeek(parsing: "2026-W13", in: Self.berlin))
        #expect(spring.endSeconds - spring.startSeconds == 7 * 86_400 - 3600)
        #expect(spring.previous.endSeconds == spring.startSeconds)
        #expect(RFC3339.format(seconds: spring.startSeconds) == "2026-03-22T23:00:00Z")
    }
}
