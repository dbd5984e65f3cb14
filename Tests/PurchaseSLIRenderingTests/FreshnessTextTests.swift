import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering
import Testing

@Suite struct FreshnessTextTests {
    private let at = RFC3339.parseMillis("2026-11-22T18:00:00Z")! / 1000

    @Test(
        "events clients dropped make the whole feed's line say INCOMPLETE with their share, however fresh, from 0.1 % of the day's events on",
        arguments: [
            (
                Int64(1234), Int64(100_000),
                " · INCOMPLETE: clients dropped 1,234 events (1.22 % of the day's events) unsent in the day before "
                    + "2026-11-22T18:00:00Z (their queues on disk were full): the counts miss them"
            ),
            (
                100, 99_900,
                " · INCOMPLETE: clients dropped 100 events (0.10 % of the day's events) unsent in the day before "
                    + "2026-11-22T18:00:00Z (their queues on disk were full): the counts miss them"
            ),
            (99, 99_901, ""),
            (0, 100_000, ""),
            (
                5, 0,
                " · INCOMPLETE: clients dropped 5 events (100.00 % of the day's events) unsent in the day before "
                    + "2026-11-22T18:00:00Z (their queues on disk were full): the counts miss them"
            ),
        ])
    func incomplete(dropped: Int64, counted: Int64, suffix: String) {
        let fresh = DataFreshness(
            atSeconds: at, newestEventSeconds: ["purchase": at - 120], staleAfterSeconds: 3600, clientDroppedEvents: dropped, countedEvents: counted)
        #expect(FreshnessText.line(fresh) == "last event 1 min ago (2026-11-22T17:58:00Z)" + suffix)
        #expect(!FreshnessText.line(fresh, action: "purchase").contains("INCOMPLETE"))
    }
}
