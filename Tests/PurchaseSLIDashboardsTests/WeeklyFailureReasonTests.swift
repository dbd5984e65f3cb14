import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@Suite("The weekly review's failure reasons: ranked by how much they rose, and nothing compared with a week that has no event")
struct WeeklyFailureReasonTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// 2,000 purchases a week; `failures` of each reason, spread over the week starting at `start`.
    private func week(_ start: String, _ failures: [String: Int], prefix: String) -> [PurchaseEvent] {
        let origin = seconds(start)
        let reasons = failures.flatMap { reason, count in Array(repeating: reason as String?, count: count) }.sorted { ($0 ?? "") < ($1 ?? "") }
        return (0..<2000).map { index in
            let reason = index < reasons.count ? reasons[index] : nil
            return PurchaseEvent(
                eventID: "\(prefix)-\(index)", timestampMillis: (origin + Int64(index) * 300) * 1000, productID: "coins_100",
                actionType: .purchase, resultType: reason == nil ? .success : .failure, errorDescription: reason)
        }
    }

    @Test func aReasonThatRoseHeadsTheListAboveAMoreFrequentSteadyOne() async throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let steady = "NSURLErrorDomain Code=-1005 network connection lost"
        let rising = "verification failed: 503 upstream timeout"
        _ = try await store.record(week("2026-11-09T00:00:00Z", [steady: 40, rising: 3], prefix: "w45"), receivedAtMillis: 0)
        _ = try await store.record(week("2026-11-16T00:00:00Z", [steady: 42, rising: 17], prefix: "w46"), receivedAtMillis: 0)
        let report = try await WeeklyReport(week: ISOWeek(containing: seconds("2026-11-18T00:00:00Z")), store: store, policy: .default, episodes: [])
        #expect(report.errors.map(\.description) == [rising, steady])
        #expect(report.errors[0].roseSignificantly && !report.errors[1].roseSignificantly)
        #expect(report.summary(escaping: .terminal).contains("Top failure reason, the one that rose most: \"\(rising)\" (17, 3 the week before)."))
        #expect(report.markdown.contains("| +467 % | p = "))
        let page = report.document(navigation: [], generatedAtSeconds: 0).rendered
        #expect(page.contains("<td class=\"bad\">+467 %</td>") && page.contains("<div class=\"banner\"><strong>Summary"))
    }

    @Test func withoutAPreviousWeekNothingIsNewAndNoChangeIsClaimed() async throws {
        let store = try SQLiteBucketStore(path: directory.file("first.sqlite"))
        _ = try await store.record(week("2026-11-16T00:00:00Z", ["receipt missing": 9], prefix: "w46"), receivedAtMillis: 0)
        let report = try await WeeklyReport(week: ISOWeek(containing: seconds("2026-11-18T00:00:00Z")), store: store, policy: .default, episodes: [])
        #expect(!report.hasPreviousWeek && report.errors.first?.risePValue == nil)
        let summary = report.summary(escaping: .terminal)
        #expect(summary.contains("No previous week (2026-W46 holds no event) to compare with."))
        #expect(!summary.contains("No significant change") && summary.contains("\"receipt missing\" (9)."))
        #expect(report.markdown.contains("| – | no previous week |") && !report.markdown.contains("| new |"))
    }

    @Test func theSummaryBoxIsRedInAWeekWithAPageAndAmberWithOnlyTickets() async throws {
        let store = try SQLiteBucketStore(path: directory.file("paged.sqlite"))
        let week = ISOWeek(containing: seconds("2026-11-18T00:00:00Z"))
        _ = try await store.record(self.week("2026-11-16T00:00:00Z", [:], prefix: "w46"), receivedAtMillis: 0)
        func episode(_ severity: Severity) -> AlertReport {
            AlertReport(
                finding: AlertFinding(
                    kind: .successRateBurn, severity: severity, labels: SeriesLabels(actionType: "purchase"),
                    time: seconds("2026-11-18T10:00:00Z"), evidence: NoEvidence()),
                startsAt: seconds("2026-11-18T10:00:00Z"), endsAt: seconds("2026-11-18T11:00:00Z"))
        }
        for (severity, tone) in [(Severity.page, "banner bad"), (.ticket, "banner warn")] {
            let report = try await WeeklyReport(week: week, store: store, policy: .default, episodes: [episode(severity)])
            #expect(report.document(navigation: [], generatedAtSeconds: 0).rendered.contains("<div class=\"\(tone)\"><strong>Summary"))
        }
    }
}

/// Evidence that says nothing, for an episode made by hand.
private struct NoEvidence: AlertEvidence {
    func summary(of alert: AlertFinding) -> AlertText { "made by hand" }
    func details(of alert: AlertFinding) -> [AlertText] { [] }
    func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand { LookNextCommand("query", []) }
    var windowSeconds: Int64 { 3600 }
}
