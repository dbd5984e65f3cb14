import PurchaseSLICore
import Testing

@Suite struct ISOWeekTests {
    /// Dates and their ISO weeks, as Python's `date.isocalendar()` gives them, across year boundaries.
    @Test(arguments: [
        ("2026-11-09", "2026-W46"), ("2026-11-15", "2026-W46"), ("2026-11-16", "2026-W47"), ("2021-01-03", "2020-W53"),
        ("2020-12-31", "2020-W53"), ("2027-01-01", "2026-W53"), ("2026-01-01", "2026-W01"), ("2015-12-31", "2015-W53"),
        ("1970-01-01", "1970-W01"),
    ])
    func weekOfADate(date: String, week: String) throws {
        let seconds = try #require(RFC3339.parseMillis(date + "T12:00:00Z")) / 1000
        #expect(ISOWeek(containing: seconds).description == week)
    }

    @Test func parsingGivesMondayToMonday() throws {
        let week = try #require(ISOWeek(parsing: "2026-W46"))
        #expect(RFC3339.format(seconds: week.startSeconds) == "2026-11-09T00:00:00Z")
        #expect(RFC3339.format(seconds: week.endSeconds) == "2026-11-16T00:00:00Z")
        #expect(week.previous.description == "2026-W45")
        #expect(ISOWeek(parsing: "2026-W01")?.previous.description == "2025-W52")
    }

    @Test(arguments: [
        "2026-W54", "2025-W53", "2026-W00", "2026W46", "2026-w46", "26-W46", "2026-W4", "", "-999-W01", "+999-W01", "0999-W01", "2026-W+1",
    ])
    func malformedWeeksAreRefused(text: String) {
        #expect(ISOWeek(parsing: text) == nil)
    }
}
