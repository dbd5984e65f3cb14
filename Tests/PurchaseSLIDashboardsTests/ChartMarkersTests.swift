import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// The on-call charts mark the release of 4.12.0 (its first hour at 1 % of iOS events) and the pause of
/// its App Store release, and overlay the same hours of the week before, whose numbers are that week's.
@Suite struct ChartMarkersTests {
    static let start = seconds("2026-11-10T00:00:00Z")
    static let release = seconds("2026-11-18T10:00:00Z")
    static let end = seconds("2026-11-19T00:00:00Z")

    /// Nine days of 120 purchases an hour on iOS; on day d (from 0) d of every 120 fail; from the release
    /// every tenth purchase is on 4.12.0.
    static func events() -> [PurchaseEvent] {
        var events: [PurchaseEvent] = []
        for hour in 0..<(9 * 24) {
            let day = hour / 24
            for index in 0..<120 {
                let time = start + Int64(hour) * 3600 + Int64(index) * 30
                events.append(
                    PurchaseEvent(
                        eventID: "\(hour)-\(index)", timestampMillis: time * 1000, productID: "coins_100", planID: nil, actionType: .purchase,
                        resultType: index < day ? .failure : .success, appVersion: time >= release && index % 10 == 0 ? "4.12.0" : "4.11.0",
                        platform: "iOS"))
            }
        }
        return events
    }

    @Test func releasesAndPausesAreMarkedAndTheWeekBeforeOverlaid() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        _ = try await store.record(Self.events(), receivedAtMillis: 0)
        try await RolloutActionRepository(store.sql).record(
            RolloutAction(
                store: .apple, app: "", candidate: "4.12.0", releaseStartSeconds: Self.release, verdict: "rollback", isDryRun: false,
                outcome: .paused,
                status: 200, detail: "PATCH phasedReleaseState PAUSED", step: 5, timeSeconds: Self.release + 7200, attempts: 1))
        let context = try await DashboardContext(store: store, policy: try shippedPolicy(), atSeconds: Self.end, rangeSeconds: 86_400)
        let pages = try await renderPages(try shippedDefinitions(), context: context)
        let oncall = try #require(pages["oncall.html"])
        #expect(oncall.contains(">4.12.0 iOS 1 %</text>"))
        #expect(oncall.contains(">4.12.0 paused</text>"))
        #expect(oncall.contains("4.12.0 reached 10.0 % of iOS events in the hour from 2026-11-18T10:00:00Z"))
        #expect(oncall.contains("App Store release of 4.12.0 paused by the rollback verdict at 2026-11-18T12:00:00Z"))
        #expect(oncall.contains("<path class=\"series s0 dashed\""), "the week before, dashed")

        // The overlay's numbers are the week before's: on day 1, 1 of 120 failed an hour.
        _ = try DashboardFiles.write(pages.map { DashboardRenderer.File(name: $0.key, html: $0.value) }, to: directory.file("out"))
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.file("out")).first {
                $0.hasPrefix("oncall.table-") && $0.contains("purchase-success-rate-with")
            })
        let rows = try String(contentsOfFile: directory.file("out/" + name), encoding: .utf8).split(separator: "\r\n").map {
            $0.split(separator: ",").map(String.init)
        }
        #expect(rows.first == ["time (UTC)", "purchase success rate (%)", "purchase a week before success rate (%)"])
        // Per 5 minutes, 10 purchases: on day d the first d of each hour fail (day 8 now, day 1 a week before).
        func rate(day: Int, at time: Int64) -> Double {
            let first = Int((time % 3600) / 300) * 10
            return Double(10 - max(0, min(10, day - first))) * 10
        }
        #expect(rows.count == 24 * 12 + 1)
        for row in rows.dropFirst() {
            let time = try #require(RFC3339.parseMillis(row[0])) / 1000
            #expect(row.count == 3 && Double(row[1]) == rate(day: 8, at: time) && Double(row[2]) == rate(day: 1, at: time), "\(row)")
        }
    }
}
