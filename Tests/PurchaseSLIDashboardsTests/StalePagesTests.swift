import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLITestSupport
import Testing

/// Pages rendered five days after the outage fixture's last event: old data never reads as a healthy
/// present.
@Suite struct StalePagesTests {
    @Test func pagesOfAFeedThatStoppedSayStaleAndNeverOK() async throws {
        let directory = try TemporaryDirectory()
        let store = try await OutageFixture.makeStore(in: directory)
        let later = OutageFixture.end + 5 * 86_400
        let context = try await DashboardContext(store: store, policy: try shippedPolicy(), atSeconds: later, rangeSeconds: 7 * 86_400)
        let pages = try await renderPages(try shippedDefinitions(), context: context)
        let oncall = try #require(pages["oncall.html"])
        #expect(!oncall.contains("<span class=\"status ok\">OK</span>"), "an OK badge on five-day-old data")
        #expect(oncall.contains("<div class=\"banner warn\"><strong>STALE</strong> last event 5 d"))
        // Every action pages for its loss of signal, days on: each card's one status says what fires, and
        // its line says how old the data is.
        for action in ["purchase", "restore", "retry"] {
            #expect(oncall.contains("<h3>\(action) <span class=\"status bad\">PAGE: NoPurchaseEvents</span></h3>"), "\(action)")
        }
        #expect(oncall.contains("STALE: last purchase event 5 d"))
        #expect(oncall.contains("<strong>NoPurchaseEvents</strong> no purchase events at all for 5 d"))
        // Its chart of the last 6 hours draws the silence: a line at 0 across the 6 hours, an axis of 0 and 1.
        let chart = try #require(oncall.between("<h3>purchase: the last 6 h, per 1 min</h3>", "</section>"))
        let wide = try #require(chart.between("<svg class=\"wide\"", "</svg>"))
        #expect(wide.contains("<path class=\"series s0\" d=\"M"))
        #expect(wide.matches(of: #/<text x="52.0" y="[0-9.]+" text-anchor="end">([^<]+)</text>/#).map { String($0.output.1) } == ["0", "1"])
        #expect(wide.components(separatedBy: "class=\"hover\"").count - 1 == 360)
        let index = try #require(pages["index.html"])
        #expect(index.contains("STALE: last event 5 d"))
        let rollout = try #require(pages["rollout.html"])
        #expect(rollout.contains("NO VERDICT on 4.12.0") && !rollout.contains("PROCEED") && !rollout.contains("ROLL BACK"))
    }

    @Test func pagesOfAFreshFeedSayWhenTheLastEventCame() async throws {
        let directory = try TemporaryDirectory()
        let store = try await OutageFixture.makeStore(in: directory)
        let pages = try await renderPages(try shippedDefinitions(), context: try await OutageFixture.context(store, rangeSeconds: 86_400))
        let oncall = try #require(pages["oncall.html"])
        #expect(!oncall.contains("STALE") && !oncall.contains("NO DATA"))
        #expect(oncall.contains("· last event under a minute ago (2026-11-16T12:16:00Z)"))
    }
}
