import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

@Suite struct ReportCommandTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// Two weeks of purchases (one every 10 minutes): W45 fails 1 in 100, W46 1 in 10 for `plan-b`.
    private func makeStore() async throws -> String {
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let start = RFC3339.parseMillis("2026-11-02T00:00:00Z")! / 1000  // Monday of 2026-W45
        let events = (0..<(14 * 144)).map { index -> PurchaseEvent in
            let time = start + Int64(index) * 600
            let plan = index % 2 == 0 ? "plan-a" : "plan-b"
            let secondWeek = time >= start + 7 * 86_400
            let fails = plan == "plan-b" && index % (secondWeek ? 10 : 100) == 1
            return PurchaseEvent(
                eventID: "e\(index)", timestampMillis: time * 1000, productID: "pro", planID: plan, actionType: .purchase,
                resultType: fails ? .failure : .success, errorDescription: fails ? "receipt <b>rejected</b>" : nil)
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        return path
    }

    @Test func markdownSaysWhatChangedAndEscapes() async throws {
        let db = try await makeStore()
        let markdown = try await ReportCommand.parse(["--db", db, "--week", "2026-W46", "--format", "markdown"]).output().text
        #expect(markdown.hasPrefix("# Weekly quality review 2026-W46 (Nov 9–15, 2026)"))
        // W46: 101 of 1008 plan-b purchases fail (1 in 10), W45: 11 of 1008 (index % 100 == 1, odd indexes).
        #expect(markdown.contains("purchase success rate worsened from"), "\(markdown)")
        #expect(markdown.contains("| purchase | planID=plan\\-b | 504 |"), "\(markdown)")
        #expect(markdown.contains("receipt \\<b\\>rejected\\</b\\>"))
        #expect(!markdown.contains("<b>"))
        #expect(markdown.contains("| purchase | 409 rate | 0.00 % | 0.00 % | = +0.00 points (n.s.) |"))
    }

    @Test func htmlIsWrittenToOut() async throws {
        let db = try await makeStore()
        let out = directory.file("out")
        let text = try await ReportCommand.parse(["--db", db, "--week", "2026-W46", "--out", out]).output().text
        #expect(text.contains("wrote \(out)/report-2026-W46.html"))
        let page = try String(contentsOfFile: out + "/report-2026-W46.html", encoding: .utf8)
        #expect(page.contains("<h1>Weekly quality review 2026-W46</h1>"))
        #expect(page.contains("receipt &lt;b&gt;rejected&lt;/b&gt;"))
    }

    /// In Asia/Tokyo, 2026-W46 runs from 2026-11-08T15:00Z to 2026-11-15T15:00Z: its attainment is the
    /// store's counts over those hours (it holds 9 hours of W45's better purchases), not the UTC week's.
    @Test func aWeekInAZoneIsItsMondayToMonday() async throws {
        let db = try await makeStore()
        let markdown = try await ReportCommand.parse(["--db", db, "--week", "2026-W46", "--format", "markdown", "--time-zone", "Asia/Tokyo"]).output()
            .text
        func successRate(from: String, to: String) async throws -> String {
            let rows = try await SQLiteBucketStore(path: db).counts(
                CountQuery(fromSeconds: RFC3339.parseMillis(from)! / 1000, toSeconds: RFC3339.parseMillis(to)! / 1000, groupBy: [.actionType]))
            return NumberText.percent(try #require(rows.first?.counts.successRate))
        }
        let tokyo = try await successRate(from: "2026-11-09T00:00:00+09:00", to: "2026-11-16T00:00:00+09:00")
        let utc = try await successRate(from: "2026-11-09T00:00:00Z", to: "2026-11-16T00:00:00Z")
        #expect(tokyo != utc)
        #expect(markdown.contains("| purchase | \(tokyo) | 99.0 % |"), "\(markdown)")
        #expect(markdown.contains("+09:00"))
    }

    /// The 409 trend's 6-hour steps start at the zone's Monday midnight, not at the store's UTC steps: in
    /// Tokyo, 2026-W45 starts at 2026-11-01T15:00Z, and only its first 6 hours answered 409.
    @Test func theTrendOfAWeekInAZoneStepsFromItsMonday() async throws {
        let path = directory.file("trend.sqlite")
        let start = RFC3339.parseMillis("2026-11-01T12:00:00Z")! / 1000
        let conflicts = (start + 3 * 3600)..<(start + 9 * 3600)
        let events = (0..<(15 * 144)).map { index -> PurchaseEvent in
            let time = start + Int64(index) * 600
            return PurchaseEvent(
                eventID: "t\(index)", timestampMillis: time * 1000, productID: "coins", actionType: .retry,
                resultType: conflicts.contains(time) ? .alreadyGranted : .success)
        }
        _ = try await SQLiteBucketStore(path: path).record(events, receivedAtMillis: 0)
        let tokyo = try TimeZoneOffsets.resolving("Asia/Tokyo", source: "test")
        let week = try #require(ISOWeek(parsing: "2026-W46", in: tokyo))
        let report = try await WeeklyReport(week: week, store: SQLiteBucketStore(path: path), policy: .default, episodes: [])
        let trend = try #require(report.conflictTrend.first { $0.actionType == "retry" }?.values)
        #expect(trend.count == 56)
        #expect(trend[0] == 1 && trend[1] == 0, "\(trend.prefix(3))")
    }

    @Test func aWeekNotOverYetIsRefused() async throws {
        let db = try await makeStore()
        await #expect(throws: CommandFailure.self) { try await ReportCommand.parse(["--db", db, "--week", "2099-W10"]).output().text }
    }

    @Test(arguments: ["2026-W60", "W46", "yesterday"])
    func aBadWeekIsAUsageError(week: String) {
        #expect(throws: (any Error).self) { try ReportCommand.parse(["--week", week]) }
    }
}

extension ReportCommandTests {
    /// The weekly review says the same whichever command wrote it: `report`, and `render` (which shares
    /// the backtest of its charts with the review) count the same episodes for the same durations. An
    /// outage of 38 minutes on the Wednesday of W46 (starting and ending off the 5-minute marks, where a
    /// 5-minute backtest would cut it differently), in purchases four a minute over two weeks.
    @Test func renderAndReportCountTheSameEpisodes() async throws {
        let path = directory.file("outage.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let start = RFC3339.parseMillis("2026-11-02T00:00:00Z")! / 1000
        let outage = RFC3339.parseMillis("2026-11-11T10:04:00Z")! / 1000
        let events = (0..<(14 * 1440)).flatMap { minute -> [PurchaseEvent] in
            let time = start + Int64(minute) * 60
            return (0..<4).map { index in
                let fails = (outage..<outage + 38 * 60).contains(time) && index % 2 == 0
                return PurchaseEvent(
                    eventID: "e\(minute)-\(index)", timestampMillis: (time + Int64(index) * 10) * 1000, productID: "coins_100",
                    actionType: .purchase, resultType: fails ? .failure : .success, errorDescription: fails ? "verification failed: 503" : nil)
            }
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        let markdown = try await ReportCommand.parse(["--db", path, "--week", "2026-W46", "--format", "markdown"]).output().text
        let out = directory.file("pages")
        try await RenderCommand.parse(["--db", path, "--at", "2026-11-17T00:00:00Z", "--range", "7d", "--out", out]).run()
        let page = try String(contentsOfFile: out + "/report-2026-W46.html", encoding: .utf8)
        func episodes(_ text: String) -> String? {
            text.range(of: #"\d+ incidents? \(\d+ paged\) from \d+ alert episodes?; the longest, [^,]+, lasted [^.]+\."#, options: .regularExpression)
                .map { String(text[$0]) }
        }
        let reported = try #require(episodes(markdown), "\(markdown)")
        #expect(reported.hasPrefix("1 incident (1 paged) from 1 alert episode"), "\(reported)")
        #expect(episodes(page) == reported)
    }
}
