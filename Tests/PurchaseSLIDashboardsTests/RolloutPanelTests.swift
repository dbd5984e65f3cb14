import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLITestSupport
import Testing

/// The rollout panel when there is no verdict to show: its data says why, and the page says it.
@Suite struct RolloutPanelTests {
    static let definition = """
        title: Rollout
        file: rollout.html
        panels:
          - rollout
          - kind: rollout
            candidate: 9.9.9
        """

    @Test func aRangeWithOneVersionAndAnUnknownCandidateSayWhyThereIsNoVerdict() async throws {
        let directory = try TemporaryDirectory()
        let store = try await OutageFixture.makeStore(in: directory)
        // The fixture's first day has 4.11.0 alone (4.12.0 arrives a day in).
        let context = try await DashboardContext(
            store: store, policy: try shippedPolicy(), atSeconds: OutageFixture.start + 86_400 - 3600, rangeSeconds: 12 * 3600)
        let data = try await context.load(try DashboardDefinition(yaml: Self.definition), firing: [])
        try #require(data.panels.count == 2)
        guard case .rollout(.noCandidate) = data.panels[0] else {
            Issue.record("\(data.panels[0])")
            return
        }
        guard case .rollout(.unavailable(let candidate, let reason)) = data.panels[1] else {
            Issue.record("\(data.panels[1])")
            return
        }
        #expect(candidate == "9.9.9" && reason.hasPrefix("no events of app version 9.9.9 before "))
        let html = DashboardPage(
            data: data, frame: context.frame,
            alerts: AlertSnapshot(
                firing: [], episodes: [],
                freshness: DataFreshness(atSeconds: context.atSeconds, newestEventSeconds: [:], staleAfterSeconds: 3600))
        ).document(navigation: [], generatedAtSeconds: context.atSeconds).rendered
        #expect(html.contains("<h3>Rollout</h3><p class=\"muted\">Only one app version has events in the range: nothing to compare.</p>"))
        #expect(html.contains("<h3>Rollout of 9.9.9</h3><p class=\"muted\">no events of app version 9.9.9 before "))
        #expect(!html.contains("PROCEED") && !html.contains("ROLL BACK"))
    }
}
