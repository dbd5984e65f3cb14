import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering
import Testing

@Suite struct FreshnessTextTests {
    private let at = RFC3339.parseMillis("2026-11-22T18:00:00Z")! / 1000

    @Test("events clients dropped make the whole feed's line say INCOMPLETE, however fresh; an action's line does not repeat it")
    func incomplete() {
        let fresh = DataFreshness(atSeconds: at, newestEventSeconds: ["purchase": at - 120], staleAfterSeconds: 3600, clientDroppedEvents: 1234)
        #expect(FreshnessText.line(fresh) == "last event 1 min ago (2026-11-22T17:58:00Z) · INCOMPLETE: clients dropped 1,234 events unsent "
                    + "in the day before 2026-11-22T18:00:00Z (their queues on disk were full): the counts miss them")
        #expect(!FreshnessText.line(fresh, action: "purchase").contains("INCOMPLETE"))
        var complete = fresh
        complete.clientDroppedEvents = 0
        #expect(FreshnessText.line(complete) == "last event 1 min ago (2026-11-22T17:58:00Z)")
    }
}
