import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// Maintenance windows against four days of traffic with a one-hour outage of purchases on the last day,
/// while a retry loop floods the server with 409s: the minutes a window leaves out page no one and spend
/// no budget, the 409 spike still fires, a window of other actions changes nothing, and what `alerts --at`
/// says at each minute is what the backtest says.
@Suite struct MaintenanceAlertTests {
    static let start = RFC3339.parseMillis("2026-11-16T00:00:00Z")! / 1000
    static let outage = RFC3339.parseMillis("2026-11-19T12:00:00Z")! / 1000

    /// 10 purchases and 2 retries a minute; in the outage's hour every purchase fails and every retry is a 409.
    static func events() -> [PurchaseEvent] {
        var events: [PurchaseEvent] = []
        for minute in 0..<(4 * 1440) {
            let time = start + Int64(minute) * 60
            let inOutage = time >= outage && time < outage + 3600
            for index in 0..<12 {
                let isRetry = index >= 10
                events.append(
                    PurchaseEvent(
                        eventID: "\(minute)-\(index)", timestampMillis: (time + Int64(index) * 4) * 1000, productID: "coins_100", planID: nil,
                        actionType: isRetry ? .retry : .purchase,
                        resultType: inOutage ? (isRetry ? .alreadyGranted : .failure) : .success,
                        errorDescription: inOutage && !isRetry ? "verification failed: 503 Service Unavailable" : nil))
            }
        }
        return events
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var windows: [MaintenanceDeclaration]
        /// Whether the purchase burn pages.
        var pages: Bool
        /// The minutes of purchases left out of the budget over the four days (each touched minute whole).
        var leftOutMinutes: Int64 = 0
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "no window", windows: [], pages: true),
        Case(
            name: "a window of purchases over the outage",
            windows: [MaintenanceDeclaration(from: "2026-11-19T11:50:00Z", to: "2026-11-19T13:30:00Z", actions: ["purchase"], reason: "migration")],
            pages: false, leftOutMinutes: 100),
        Case(
            name: "a window of every action over the outage",
            windows: [MaintenanceDeclaration(from: "2026-11-19T11:59:30Z", duration: "2h", reason: "App Store outage")], pages: false,
            leftOutMinutes: 121),
        Case(
            name: "a window of restores only",
            windows: [MaintenanceDeclaration(from: "2026-11-19T11:50:00Z", to: "2026-11-19T13:30:00Z", actions: ["restore"], reason: "x")],
            pages: true),
        Case(
            name: "a daily window from the first day",
            windows: [MaintenanceDeclaration(from: "2026-11-16T11:45:00Z", duration: "2h", rrule: "FREQ=DAILY", reason: "nightly batch")],
            pages: false, leftOutMinutes: 4 * 120),
    ]

    @Test(arguments: cases)
    func burnsInsideAWindowPageNoOneWhileSpikesStillFire(_ testCase: Case) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let policy = try SLOPolicy(yaml: "slices: []")
        let store = try SQLiteBucketStore(path: path)
        _ = try await store.record(Self.events(), receivedAtMillis: 0)
        for (index, declaration) in testCase.windows.enumerated() {
            try await MaintenanceWindowRepository(store.sql).record(
                try declaration.window(id: "mw-\(index)", createdSeconds: Self.start, source: .stored, nowSeconds: Self.start))
        }
        let context = try await AlertContext(store: store, policy: policy)
        let (live, backtest, counts, raw) = try await onDedicatedThread {
            let minutes = stride(from: Self.outage - 600, through: Self.outage + 3 * 3600, by: 600)
            let live = try await minutes.asyncMap { time in (time, try await context.firingReports(at: time).map(\.finding.identity)) }
            let backtest = try await context.episodeReports(from: Self.outage - 3600, to: Self.outage + 4 * 3600, stepSeconds: 60)
            let objective = policy.objectives[0]
            let counts = try await context.objectiveCounts(
                objective, fromSeconds: Self.start, toSeconds: Self.start + 4 * 86_400, filters: [.actionType: ["purchase"]])
            let raw = try await store.counts(
                CountQuery(fromSeconds: Self.start, toSeconds: Self.start + 4 * 86_400, filters: [.actionType: ["purchase"]]))
            return (live, backtest, counts, raw.first?.counts)
        }
        let burns = backtest.filter { $0.finding.kind == .successRateBurn && $0.finding.labels.actionType == "purchase" }
        #expect(burns.contains { $0.severity == .page } == testCase.pages, "\(backtest.map(\.finding.identity))")
        #expect(
            backtest.contains { $0.finding.kind == .alreadyGrantedSpike && $0.finding.labels.actionType == "retry" },
            "the 409 spike fires whatever the window: \(backtest.map(\.finding.identity))")
        // Live at each minute is the backtest at that minute.
        for (time, firing) in live {
            let expected = backtest.filter { $0.startsAt <= time && ($0.endsAt ?? .max) > time }.map(\.finding.identity)
            #expect(Set(firing) == Set(expected), "at \(RFC3339.format(seconds: time))")
        }
        // The budget counts what is outside the windows: the outage's 600 failures, or none of them (11:59:30 leaves out 11:59).
        #expect(counts?.failure == (testCase.pages ? 600 : 0))
        #expect(raw?.failure == 600)
        #expect(counts?.valid == (raw?.valid ?? 0) - 10 * testCase.leftOutMinutes)
    }

    @Test func theWeeklyReviewListsTheWindowAndMeetsTheObjectiveWithoutItsMinutes() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let policy = try SLOPolicy(yaml: "slices: []")
        let week = ISOWeek(containing: Self.start)
        let store = try SQLiteBucketStore(path: path)
        _ = try await store.record(Self.events(), receivedAtMillis: 0)
        let without = try await WeeklyReport(week: week, store: store, policy: policy)
        try await MaintenanceWindowRepository(store.sql).record(
            try MaintenanceDeclaration(from: "2026-11-19T12:00:00Z", duration: "1h", actions: ["purchase"], reason: "receipt <migration>")
                .window(id: "mw-1", createdSeconds: Self.outage + 7200, source: .stored, nowSeconds: 0))
        let with = try await WeeklyReport(week: week, store: store, policy: policy)
        let purchase = { (report: WeeklyReport) in report.actions.first { $0.actionType == "purchase" } }
        #expect(purchase(without)?.metObjective == false && purchase(with)?.metObjective == true)
        #expect(without.maintenance.isEmpty && with.maintenance.count == 1)
        #expect(with.maintenance.first?.leftOut.failure == 600 && with.maintenance.first?.leftOut.valid == 600)
        let page = with.document(navigation: [], generatedAtSeconds: 0).rendered
        #expect(page.contains("<td class=\"text\">2026-11-19T12:00:00Z</td><td class=\"text\">2026-11-19T13:00:00Z</td>"))
        #expect(page.contains("<td class=\"text\">receipt &lt;migration&gt; (correction, declared 2026-11-19)</td>"))
        #expect(
            with.markdown.contains(
                "| 2026-11-19T12:00:00Z | 2026-11-19T13:00:00Z | receipt \\<migration\\> (correction, declared 2026-11-19) | purchase | 600 | 600 |"))
        #expect(!without.markdown.contains("Maintenance windows"))
    }
}
