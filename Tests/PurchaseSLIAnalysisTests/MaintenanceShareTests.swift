import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// The share of 28 days maintenance covers once a window is added: the union of the windows that concern
/// an app, in the busiest 28 days that the new window's occurrences touch.
@Suite struct MaintenanceShareTests {
    private static func seconds(_ text: String) -> Int64 { RFC3339.parseMillis(text)! / 1000 }
    private static let now = seconds("2026-11-29T00:00:00Z")

    private static func window(_ id: String, _ from: String, _ duration: String, _ rrule: String? = nil, app: String? = nil) -> MaintenanceWindow {
        try! MaintenanceDeclaration(from: from, duration: duration, rrule: rrule, reason: id, app: app)
            .window(id: id, createdSeconds: now, source: .stored, nowSeconds: now)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var kept: [MaintenanceWindow]
        var added: MaintenanceWindow
        /// The most seconds of 28 days covered, or nil when the new window touches no 28 days looked at.
        var covered: Int64?
    }

    static let cases = [
        Case(testDescription: "a one-off of 2 hours alone", kept: [], added: window("a", "2026-12-01T02:00:00Z", "2h"), covered: 7200),
        Case(testDescription: "a one-off of 8 days alone", kept: [], added: window("a", "2026-12-01T02:00:00Z", "8d"), covered: 8 * 86_400),
        Case(
            testDescription: "a weekly window of 2 days: four of them in any 28 days", kept: [],
            added: window("a", "2026-12-01T02:00:00Z", "2d", "FREQ=WEEKLY"), covered: 8 * 86_400),
        Case(
            testDescription: "a daily window of 5 hours: 28 of them", kept: [], added: window("a", "2026-12-01T02:00:00Z", "5h", "FREQ=DAILY"),
            covered: 28 * 5 * 3600),
        Case(
            testDescription: "two one-offs of 4 days, 10 days apart, add up", kept: [window("k", "2026-12-01T00:00:00Z", "4d")],
            added: window("a", "2026-12-11T00:00:00Z", "4d"), covered: 8 * 86_400),
        Case(
            testDescription: "two one-offs of 4 days, 40 days apart, do not", kept: [window("k", "2026-12-01T00:00:00Z", "4d")],
            added: window("a", "2027-01-10T00:00:00Z", "4d"), covered: 4 * 86_400),
        Case(
            testDescription: "overlapping windows count once", kept: [window("k", "2026-12-01T00:00:00Z", "4d")],
            added: window("a", "2026-12-02T00:00:00Z", "4d"), covered: 5 * 86_400),
        Case(
            testDescription: "another app's window does not add to this app's",
            kept: [window("k", "2026-12-01T00:00:00Z", "6d", app: "com.example.other")],
            added: window("a", "2026-12-08T00:00:00Z", "4d", app: "com.example.shop"), covered: 4 * 86_400),
        Case(
            testDescription: "a window of every app adds to each app's, the busiest counts",
            kept: [
                window("k", "2026-12-01T00:00:00Z", "6d", app: "com.example.other"),
                window("j", "2026-12-01T00:00:00Z", "1d", app: "com.example.shop"),
            ],
            added: window("a", "2026-12-08T00:00:00Z", "4d"), covered: 10 * 86_400),
        Case(
            testDescription: "a daily 5 h window and a weekly 1 d one",
            kept: [window("k", "2026-12-01T02:00:00Z", "5h", "FREQ=DAILY")],
            added: window("a", "2026-12-06T00:00:00Z", "1d", "FREQ=WEEKLY;BYDAY=SU"),
            // Each Sunday's 24 hours hold that day's 5 h window already: 28 × 5 h + 4 × 19 h.
            covered: 28 * 5 * 3600 + 4 * 19 * 3600),
        Case(
            testDescription: "a correction more than a year old touches no 28 days looked at", kept: [],
            added: window("a", "2024-01-01T00:00:00Z", "10d"), covered: nil),
        Case(
            testDescription: "a daily window that began in 1970 is read from now", kept: [],
            added: window("a", "1970-01-01T00:00:00Z", "1h", "FREQ=DAILY;COUNT=9223372036854775807"), covered: 28 * 3600),
    ]

    @Test(arguments: cases)
    func theBusiestTwentyEightDaysAreFound(_ example: Case) {
        let share = MaintenanceCalendar(example.kept).busiestShare(adding: example.added, nowSeconds: Self.now)
        #expect(share?.coveredSeconds == example.covered)
    }
}
