import Foundation
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLITestSupport
import Testing

/// Pages rendered five days after the outage fixture's last event: old data never reads as a healthy
/// present.
@Suite struct StalePagesTests {
    @Test func pagesOfAFeedThatStoppedSayStaleAndNeverOK() throws {
        let directory = try TemporaryDirectory()
        let store = try OutageFixture.makeStore(in: directory)
        let later = OutageFixture.end + 5 * 86_400
        let context = DashboardContext(store: store, policy: try shippedPolicy(), atSeconds: later, rangeSeconds: 7 * 86_400)
        let pages = try renderPages(try shippedDefinitions(), context: context)
        let oncall = try #require(pages["oncall.html"])
        #expect(!oncall.contains("<span class=\"status ok\">OK</span>"), "an OK badge on five-day-old data")
        #expect(oncall.contains("<div class=\"banner warn\"><strong>STALE</strong> last event 5 d"))
        // Each action pages for its loss of signal, or reads STALE where too little was expected to page.
        for action in ["purchase", "restore", "retry"] {
            #expect(oncall.contains("<h3>\(action) <span class=\"status bad\">PAGE</span>")
                    || oncall.contains("<h3>\(action) <span class=\"status none\">STALE</span>"), "\(action)")
        }
        // The feed stopped: purchases page for the loss of signal, days on.
        #expect(oncall.contains("<strong>NoPurchaseEvents</strong> no purchase events at all for 5 d"))
        let index = try #require(pages["index.html"])
        #expect(index.contains("STALE: last event 5 d"))
        let rollout = try #require(pages["rollout.html"])
        #expect(rollout.contains("NO VERDICT on 4.12.0") && !rollout.contains("PROCEED") && !rollout.contains("ROLL BACK"))
    }

    @Test func pagesOfAFreshFeedSayWhenTheLastEventCame() throws {
        let directory = try TemporaryDirectory()
        let store = try OutageFixture.makeStore(in: directory)
        let pages = try renderPages(try shippedDefinitions(), context: try OutageFixture.context(store, rangeSeconds: 86_400))
        let oncall = try #require(pages["oncall.html"])
        #expect(!oncall.contains("STALE") && !oncall.contains("NO DATA"))
        #expect(oncall.contains("· last event under a minute ago (2026-11-16T12:16:00Z)"))
    }
}
