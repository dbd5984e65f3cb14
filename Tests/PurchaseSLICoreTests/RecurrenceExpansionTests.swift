import PurchaseSLICore
import Testing

/// Recurrences read from the range asked, not walked from their first start: each rule's occurrences in a
/// range equal those of a naive day-by-day (or month-by-month) walk from the first start, a COUNT of
/// Int64.max or a rule begun decades ago included; and rules whose occurrences would run into each other
/// are refused.
@Suite struct RecurrenceExpansionTests {
    private func seconds(_ text: String) -> Int64 { RFC3339.parseMillis(text)! / 1000 }

    /// Every occurrence from `first` up to `before`, found by looking at every day (daily and weekly) or
    /// month (monthly) from the first start and counting as RFC 5545 does: what the rule means, slowly.
    private func naiveStarts(_ rule: RecurrenceRule, first: Int64, before: Int64) -> [Int64] {
        let last = min(before - 1, rule.untilSeconds ?? .max)
        guard first <= last else { return [] }
        var starts = [first]
        let (firstDay, timeOfDay) = first.floorDividedBy(86_400)
        let firstMonday = firstDay - (firstDay + 3).floorDividedBy(7).remainder
        let firstDate = RFC3339.civilDate(daysSinceEpoch: Int(firstDay))
        var day = firstDay + 1
        var month = firstDate.year * 12 + firstDate.month
        while starts.count < rule.count ?? .max {
            let start: Int64
            switch rule.frequency {
            case .daily:
                defer { day += 1 }
                guard (day - firstDay) % Int64(rule.interval) == 0 else { continue }
                start = day * 86_400 + timeOfDay
            case .weekly:
                defer { day += 1 }
                let weekday = Int((day + 3).floorDividedBy(7).remainder)
                let weeks = (day - Int64(weekday) - firstMonday) / 7
                let days = rule.weekdays.isEmpty ? [Int((firstDay + 3).floorDividedBy(7).remainder)] : rule.weekdays
                guard weeks % Int64(rule.interval) == 0, days.contains(weekday) else {
                    if day * 86_400 > last { return starts }
                    continue
                }
                start = day * 86_400 + timeOfDay
            case .monthly:
                defer { month += 1 }
                let (year, monthOfYear) = (month / 12, month % 12 + 1)
                if Int64(RFC3339.daysSinceEpoch(year: year, month: monthOfYear, day: 1)) * 86_400 > last { return starts }
                guard (month - firstDate.year * 12 - firstDate.month + 1) % rule.interval == 0,
                    firstDate.day <= RFC3339.daysInMonth(year: year, month: monthOfYear)
                else { continue }
                start = Int64(RFC3339.daysSinceEpoch(year: year, month: monthOfYear, day: firstDate.day)) * 86_400 + timeOfDay
            }
            guard start <= last else { return starts }
            starts.append(start)
        }
        return starts
    }

    static let rules = [
        "FREQ=DAILY", "FREQ=DAILY;INTERVAL=3", "FREQ=DAILY;COUNT=17", "FREQ=DAILY;INTERVAL=5;COUNT=9", "FREQ=DAILY;UNTIL=20270301",
        "FREQ=WEEKLY", "FREQ=WEEKLY;INTERVAL=2", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=WEEKLY;BYDAY=SU;COUNT=7",
        "FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,SA;COUNT=11", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;COUNT=40",
        "FREQ=MONTHLY", "FREQ=MONTHLY;INTERVAL=5", "FREQ=MONTHLY;COUNT=13", "FREQ=MONTHLY;INTERVAL=7;COUNT=6",
    ]
    static let firsts = ["2026-11-04T22:30:00Z", "2026-10-31T01:00:00Z", "2026-08-29T00:00:00Z", "2026-11-01T03:00:00Z"]

    /// Small cases, every range: the occurrences asked from anywhere are the naive walk's in that range.
    @Test(arguments: rules)
    func theOccurrencesOfARangeAreTheNaiveWalks(_ text: String) throws {
        let rule = try RecurrenceRule(parsing: text)
        for firstText in Self.firsts {
            let first = seconds(firstText)
            let end = first + 800 * 86_400
            let all = naiveStarts(rule, first: first, before: end)
            #expect(rule.starts(first: first, before: end) == all, "\(text) from \(firstText)")
            for from in stride(from: first - 86_400, to: end, by: 13 * 86_400 + 3_607) {
                let to = min(from + 45 * 86_400, end)
                #expect(
                    rule.starts(first: first, notBefore: from, before: to) == all.filter { $0 >= from && $0 < to },
                    "\(text) from \(firstText), asked \(RFC3339.format(seconds: from))")
            }
        }
    }

    /// A COUNT of Int64.max, a rule begun in 1970, asked in 2026: the occurrences of the range, found
    /// without walking fifty years; a COUNT that ends inside the range ends there.
    @Test(arguments: [
        ("FREQ=DAILY;COUNT=9223372036854775807", "1970-01-01T03:00:00Z", 7, 7),
        ("FREQ=WEEKLY;BYDAY=MO,TH;COUNT=9223372036854775807", "1970-01-05T03:00:00Z", 14, 4),
        ("FREQ=MONTHLY;COUNT=9223372036854775807", "1970-01-31T03:00:00Z", 92, 2),
        // 20,454 days from 1970-01-01 is 2026-01-01: the last occurrence (index 20,453) is 2025-12-31.
        ("FREQ=DAILY;COUNT=20454", "1970-01-01T03:00:00Z", 7, 0),
        ("FREQ=DAILY;COUNT=20456", "1970-01-01T03:00:00Z", 7, 2),
        // Monthly on the 31st with a count: the index counts only the months that have a 31st.
        ("FREQ=MONTHLY;COUNT=393", "1970-01-31T03:00:00Z", 92, 1),
    ])
    func aHugeCountOrAnOldStartIsReadFromTheRangeAsked(_ text: String, _ firstText: String, _ days: Int64, _ expected: Int) throws {
        let rule = try RecurrenceRule(parsing: text)
        let from = seconds("2026-01-01T00:00:00Z")
        let starts = rule.starts(first: seconds(firstText), notBefore: from, before: from + days * 86_400)
        #expect(starts.count == expected, "\(starts.map { RFC3339.format(seconds: $0) })")
        if let count = rule.count, count < 1000 {
            #expect(starts == naiveStarts(rule, first: seconds(firstText), before: from + days * 86_400).filter { $0 >= from })
        }
    }

    /// 393 months on the 31st from 1970-01 end in 2026-01 (7 of each 12 months have one: 56 years hold
    /// 392, the 393rd is 2026-01-31), as the naive walk counts them.
    @Test func aMonthlyCountOnThe31stAgreesWithTheNaiveWalk() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=MONTHLY;COUNT=393")
        let first = seconds("1970-01-31T03:00:00Z")
        let naive = naiveStarts(rule, first: first, before: seconds("2030-01-01T00:00:00Z"))
        #expect(naive.count == 393 && RFC3339.format(seconds: naive.last!) == "2026-01-31T03:00:00Z")
        #expect(rule.starts(first: first, notBefore: seconds("2025-06-01T00:00:00Z"), before: seconds("2030-01-01T00:00:00Z")) == naive.suffix(5))
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var rule: String
        var first: String
        var duration: String
        var testDescription: String { "\(rule) from \(first) for \(duration)" }
    }

    /// The closest two occurrences start no further apart than one lasts.
    @Test(arguments: [
        Refused(rule: "FREQ=DAILY", first: "2026-12-01T02:00:00Z", duration: "1d"),
        Refused(rule: "FREQ=DAILY;INTERVAL=2", first: "2026-12-01T02:00:00Z", duration: "2d"),
        Refused(rule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU", first: "2026-11-30T02:00:00Z", duration: "1d"),
        // Monday to Tuesday is a day, whatever the rest of the week's gaps.
        Refused(rule: "FREQ=WEEKLY;BYDAY=MO,TU,FR", first: "2026-11-30T02:00:00Z", duration: "1d"),
        // Sunday's occurrence and Monday's of the next week.
        Refused(rule: "FREQ=WEEKLY;BYDAY=SU,MO", first: "2026-11-30T02:00:00Z", duration: "25h"),
        // The first start (a Saturday) is an occurrence of its own, a day before the Sunday.
        Refused(rule: "FREQ=WEEKLY;BYDAY=SU", first: "2026-12-05T02:00:00Z", duration: "1d"),
        Refused(rule: "FREQ=WEEKLY", first: "2026-12-01T02:00:00Z", duration: "7d"),
        // February's 28 days.
        Refused(rule: "FREQ=MONTHLY", first: "2026-12-01T02:00:00Z", duration: "28d"),
        Refused(rule: "FREQ=DAILY;COUNT=2", first: "2026-12-01T02:00:00Z", duration: "1d"),
    ])
    func aRecurrenceRunningIntoItselfIsRefused(_ refused: Refused) {
        let declaration = MaintenanceDeclaration(from: refused.first, duration: refused.duration, rrule: refused.rule, reason: "x")
        do {
            _ = try declaration.window(id: "mw-1", createdSeconds: nil, source: .stored, nowSeconds: 0)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".hasPrefix("duration: each occurrence must end before the next one starts"), "\(error)")
        }
    }

    @Test(arguments: [
        ("FREQ=DAILY", "23h"), ("FREQ=WEEKLY;BYDAY=TU,FR", "2d"), ("FREQ=DAILY;COUNT=1", "2d"), ("FREQ=MONTHLY", "27d"),
        ("FREQ=WEEKLY;INTERVAL=2", "13d"),
    ])
    func aRecurrenceEndingBeforeItsNextIsKept(_ rule: String, _ duration: String) throws {
        let window = try MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", duration: duration, rrule: rule, reason: "x")
            .window(id: "mw-1", createdSeconds: nil, source: .stored, nowSeconds: 0)
        #expect(window.recurrence != nil)
    }

    @Test(arguments: [
        ("\u{0} nul", "reason: must be printable text, got the control character U+0000"),
        ("\u{1B}[2J", "reason: must be printable text, got the control character U+001B"),
        ("\u{200B}\u{2060}\u{FEFF}", "reason: must say why (an announced outage, a migration)"),
        ("\u{2028} \u{3000}", "reason: must say why (an announced outage, a migration)"),
    ])
    func aReasonWithoutPrintableTextIsRefused(_ reason: String, _ message: String) {
        do {
            _ = try MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", duration: "1h", reason: reason)
                .window(id: "mw-1", createdSeconds: nil, source: .stored, nowSeconds: 0)
            Issue.record("accepted")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func aReasonOnSeveralLinesAndARuleAtItsLengthAreKept() throws {
        let window = try MaintenanceDeclaration(from: "2026-12-01T02:00:00Z", duration: "1h", reason: "Apple notice\n\tsee ticket 12")
            .window(id: "mw-1", createdSeconds: nil, source: .stored, nowSeconds: 0)
        #expect(window.reason == "Apple notice\n\tsee ticket 12")
        let long = "FREQ=DAILY;" + String(repeating: " ", count: RecurrenceRule.maximumLength - 11)
        #expect(try RecurrenceRule(parsing: long).frequency == .daily)
        #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: long + " ") }
    }
}
