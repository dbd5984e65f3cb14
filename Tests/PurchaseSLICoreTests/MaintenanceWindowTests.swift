import PurchaseSLICore
import Testing

/// Recurring maintenance windows: the RRULE subset's occurrences, its errors, and declarations read
/// with each error naming its field.
@Suite struct MaintenanceWindowTests {
    private func seconds(_ text: String) -> Int64 { RFC3339.parseMillis(text)! / 1000 }
    private func times(_ starts: [Int64]) -> [String] { starts.map { RFC3339.format(seconds: $0) } }

    struct Recurrence: Sendable, CustomTestStringConvertible {
        var rule: String
        var first: String
        var before: String
        var starts: [String]
        var testDescription: String { rule }
    }

    static let recurrences = [
        Recurrence(
            rule: "FREQ=DAILY", first: "2026-11-01T03:00:00Z", before: "2026-11-04T03:00:00Z",
            starts: ["2026-11-01T03:00:00Z", "2026-11-02T03:00:00Z", "2026-11-03T03:00:00Z"]),
        Recurrence(
            rule: "FREQ=DAILY;INTERVAL=2;COUNT=3", first: "2026-11-01T03:00:00Z", before: "2026-12-01T00:00:00Z",
            starts: ["2026-11-01T03:00:00Z", "2026-11-03T03:00:00Z", "2026-11-05T03:00:00Z"]),
        // 2026-11-04 is a Wednesday: the Sunday of its week (the 8th) comes after it, the Monday (the 2nd) would not count.
        Recurrence(
            rule: "FREQ=WEEKLY;BYDAY=MO,WE,SU", first: "2026-11-04T22:30:00Z", before: "2026-11-12T00:00:00Z",
            starts: ["2026-11-04T22:30:00Z", "2026-11-08T22:30:00Z", "2026-11-09T22:30:00Z", "2026-11-11T22:30:00Z"]),
        Recurrence(
            rule: "RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=20261201T000000Z", first: "2026-11-01T03:00:00Z", before: "2027-01-01T00:00:00Z",
            starts: ["2026-11-01T03:00:00Z", "2026-11-15T03:00:00Z", "2026-11-29T03:00:00Z"]),
        // The 31st: months without one have no occurrence.
        Recurrence(
            rule: "FREQ=MONTHLY;COUNT=4", first: "2026-10-31T01:00:00Z", before: "2028-01-01T00:00:00Z",
            starts: ["2026-10-31T01:00:00Z", "2026-12-31T01:00:00Z", "2027-01-31T01:00:00Z", "2027-03-31T01:00:00Z"]),
        // The first start is the first occurrence even on a day BYDAY leaves out (RFC 5545's DTSTART).
        Recurrence(
            rule: "FREQ=WEEKLY;BYDAY=SU;COUNT=3", first: "2026-11-04T03:00:00Z", before: "2027-01-01T00:00:00Z",
            starts: ["2026-11-04T03:00:00Z", "2026-11-08T03:00:00Z", "2026-11-15T03:00:00Z"]),
        Recurrence(
            rule: "FREQ=WEEKLY;BYDAY=SU;UNTIL=20261115", first: "2026-11-01T03:00:00Z", before: "2027-01-01T00:00:00Z",
            starts: ["2026-11-01T03:00:00Z", "2026-11-08T03:00:00Z", "2026-11-15T03:00:00Z"]),
    ]

    @Test(arguments: recurrences)
    func occurrencesStartWhereTheRuleSays(_ recurrence: Recurrence) throws {
        let rule = try RecurrenceRule(parsing: recurrence.rule)
        let all = rule.starts(first: seconds(recurrence.first), before: seconds(recurrence.before))
        #expect(times(all) == recurrence.starts)
        // Asked from a later time, the walk skips ahead and finds the same occurrences from there.
        for from in all {
            #expect(rule.starts(first: seconds(recurrence.first), notBefore: from, before: seconds(recurrence.before)) == all.filter { $0 >= from })
        }
        // Written out and read back, it is the same rule.
        #expect(try RecurrenceRule(parsing: rule.description) == rule)
    }

    @Test(arguments: [
        ("FREQ=HOURLY", "FREQ must be DAILY, WEEKLY or MONTHLY, got HOURLY"),
        ("BYDAY=MO", "FREQ is missing"),
        ("FREQ=WEEKLY;BYDAY=MO,XX", "BYDAY takes MO, TU, WE, TH, FR, SA or SU, got XX"),
        ("FREQ=DAILY;BYDAY=MO", "BYDAY is understood with FREQ=WEEKLY only"),
        ("FREQ=DAILY;COUNT=0", "COUNT must be a whole number from 1, got 0"),
        ("FREQ=DAILY;COUNT=3;UNTIL=20261201", "give COUNT or UNTIL, not both"),
        ("FREQ=DAILY;UNTIL=2026-12-01", "UNTIL must be a UTC time such as 20261231T235959Z or a date such as 20261231, got 2026-12-01"),
        ("FREQ=DAILY;BYHOUR=3", "BYHOUR is not understood (FREQ, INTERVAL, BYDAY, COUNT and UNTIL are)"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL must be a whole number from 1 to 1000, got 0"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ is given twice"),
    ])
    func aRuleNotUnderstoodSaysWhy(_ text: String, _ reason: String) {
        #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: text) }
        do {
            _ = try RecurrenceRule(parsing: text)
        } catch {
            #expect("\(error)" == reason)
        }
    }

    @Test func aDailyRuleBegunIn1970ReadsTodayWithoutWalkingEveryDay() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=DAILY;INTERVAL=3")
        let from = seconds("2026-11-27T00:00:00Z")
        let starts = rule.starts(first: 0, notBefore: from, before: from + 10 * 86_400)
        #expect(starts.count == 4 && starts.allSatisfy { $0 >= from && $0 % (3 * 86_400) == 0 }, "\(times(starts))")
    }

    @Test func aRecurringWindowOverlapsARangeWithEachOccurrenceWhole() throws {
        let window = MaintenanceWindow(
            id: "mw-1", startSeconds: seconds("2026-11-01T03:00:00Z"), endSeconds: seconds("2026-11-01T04:00:00Z"),
            recurrence: try RecurrenceRule(parsing: "FREQ=DAILY"), reason: "nightly migration")
        let occurrences = window.occurrences(from: seconds("2026-11-03T03:30:00Z"), to: seconds("2026-11-05T03:00:00Z"))
        #expect(
            occurrences.map { "\(RFC3339.format(seconds: $0.lowerBound))/\(RFC3339.format(seconds: $0.upperBound))" } == [
                "2026-11-03T03:00:00Z/2026-11-03T04:00:00Z", "2026-11-04T03:00:00Z/2026-11-04T04:00:00Z",
            ])
    }

    @Test(arguments: [
        (MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", reason: "x"), "to: give the end (to) or the length (duration)"),
        (MaintenanceDeclaration(from: "tomorrow", to: "2026-12-01", reason: "x"), "from: expected \(TimeArgument.forms), got tomorrow"),
        (
            MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", to: "2026-12-01T01:00:00Z", reason: "x"),
            "to: must be after from (2026-12-01T02:00:00Z)"
        ),
        (
            MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", to: "2026-12-02", duration: "1h", reason: "x"),
            "duration: give to or duration, not both"
        ),
        (
            MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", duration: "soon", reason: "x"),
            "duration: expected a duration such as 30m, 2h or 1d, got soon"
        ),
        (
            MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", duration: "2h", rrule: "FREQ=YEARLY", reason: "x"),
            "rrule: FREQ must be DAILY, WEEKLY or MONTHLY, got YEARLY"
        ),
        (
            MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", duration: "2d", rrule: "FREQ=DAILY", reason: "x"),
            "duration: each occurrence must end before the next one starts: FREQ=DAILY starts two occurrences 1d apart, and each lasts 2d"
        ),
        (
            MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", duration: "2h", reason: "  "),
            "reason: must say why (an announced outage, a migration)"
        ),
        (
            MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", duration: "2h", actions: ["purchase", ""], reason: "x"),
            "actions[1]: must name an action such as purchase, got \"\""
        ),
    ])
    func aDeclarationNotUnderstoodNamesItsField(_ declaration: MaintenanceDeclaration, _ message: String) {
        do {
            _ = try declaration.window(id: "mw-1", createdSeconds: nil, source: .stored, nowSeconds: 0)
            Issue.record("accepted")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func aDeclarationAfterItsStartIsACorrection() throws {
        let now = seconds("2026-11-27T10:00:00Z")
        let past = try MaintenanceDeclaration(from: "now-3h", duration: "1h", reason: "outage we learnt of late")
            .window(id: "mw-1", createdSeconds: now, source: .stored, nowSeconds: now)
        #expect(past.startSeconds == now - 3 * 3600 && past.endSeconds == now - 2 * 3600 && past.isCorrection && past.covers(action: "retry"))
        let planned = try MaintenanceDeclaration(from: "2026-12-01", to: "2026-12-01T04:00:00Z", actions: ["purchase"], reason: "Apple maintenance")
            .window(id: "mw-2", createdSeconds: now, source: .stored, nowSeconds: now)
        #expect(!planned.isCorrection && planned.covers(action: "purchase") && !planned.covers(action: "restore"))
    }
}
