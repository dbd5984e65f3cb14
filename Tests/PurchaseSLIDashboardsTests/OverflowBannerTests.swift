import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// A page whose range touches a day on which the caps counted events as `__other__` says so, for the app
/// it shows: its tables cannot name what was turned away. A page of an app whose budget had room, or of
/// days the caps turned nothing away, has no such banner.
@Suite struct OverflowBannerTests {
    private let start: Int64 = 1_794_614_400  // 2026-11-14T00:00:00Z
    private let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// The on-call page of `app` (nil: every app) at `at` over a day, of a store where a small app's four
    /// products and plans met a cap of two (two events turned away, in each dimension) and another app's
    /// two fit.
    private func page(app: String?, at: Int64, lateApp: Bool = false) async throws -> String {
        let store = try await cappedStore(lateApp: lateApp)
        let context = try await DashboardContext(store: store, policy: try shippedPolicy(), app: app, atSeconds: at, rangeSeconds: 86_400)
        let oncall = try #require(try shippedDefinitions().first { $0.file == "oncall.html" })
        let freshness = DataFreshness(atSeconds: at, newestEventSeconds: ["purchase": start + 600], staleAfterSeconds: 3600)
        return try await DashboardPage.load(
            definition: oncall, context: context, alerts: AlertSnapshot(firing: [], episodes: [], freshness: freshness)
        )
        .document(navigation: [], generatedAtSeconds: at).rendered
    }

    /// A store where a small app's four products and plans met a cap of two and another app's two fit;
    /// with `lateApp`, a third app came after the day's two apps.
    private func cappedStore(lateApp: Bool = false) async throws -> SQLiteBucketStore {
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = 2
        let store = try SQLiteBucketStore(path: directory.file("capped.sqlite"), configuration: configuration)
        let apps = [("com.example.<small>", 4), ("com.example.roomy", 2)] + (lateApp ? [("com.example.late", 1)] : [])
        let events = apps.flatMap { (name: String, plans: Int) -> [PurchaseEvent] in
            (0..<plans).map { plan in
                PurchaseEvent(
                    eventID: "\(name)-\(plan)", timestampMillis: (start + 600) * 1000, productID: "coins_\(plan)", planID: "plan-\(plan)",
                    actionType: .purchase, resultType: .success, app: name)
            }
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        return store
    }

    @Test func everyAppsPageNamesTheAppWhoseBudgetWasFull() async throws {
        let page = try await page(app: nil, at: start + 3600)
        #expect(
            page.contains(
                "<strong>CAPPED</strong> events counted as <code>__other__</code> on 2026-11-14 (UTC): 2 in <code>planID</code>, 2 in "
                    + "<code>productID</code>. Tables by those "
                    + "dimensions show them as <code>__other__</code> and alerts cannot name them; totals and rates stay exact. Apps whose "
                    + "budget was full: com.example.&lt;small&gt; (2 in <code>planID</code>, 2 in <code>productID</code>)."))
        #expect(page.contains("raised in the policy (apps: {com.example.&lt;small&gt;: {cardinalityCap: …, seriesCap: …}})."))
    }

    @Test func anAppsPageShowsItsOwnOverflowOnly() async throws {
        let small = try await page(app: "com.example.<small>", at: start + 3600)
        #expect(
            small.contains("<strong>CAPPED</strong> events counted as <code>__other__</code> on 2026-11-14 (UTC): 2 in <code>planID</code>, 2 in"))
        #expect(!small.contains("Apps whose budget was full"))
        let roomy = try await page(app: "com.example.roomy", at: start + 3600)
        #expect(!roomy.contains("CAPPED"))
    }

    /// The apps past the day's apps lose their names: every app's page counts them, and each app's page
    /// says its own events may be among them.
    @Test func anAppPastTheDaysAppsIsCountedOnEveryPage() async throws {
        let every = try await page(app: nil, at: start + 3600, lateApp: true)
        #expect(every.contains("(UTC): 1 of apps past the day's apps, under the app <code>__other__</code>, 2 in <code>planID</code>"))
        let roomy = try await page(app: "com.example.roomy", at: start + 3600, lateApp: true)
        #expect(
            roomy.contains(
                "(UTC): 1 of apps past the day's apps, under the app <code>__other__</code> (this app's among them if it was one: its "
                    + "name is not kept). Tables"))
    }

    @Test func aRangeOfOtherDaysHasNoBanner() async throws {
        #expect(!(try await page(app: nil, at: start + 3 * 86_400)).contains("CAPPED"))
        #expect(try await page(app: nil, at: start + 2 * 86_400 - 60).contains("CAPPED"), "a range that still touches the day")
    }

    @Test func theWeeklyReviewSaysSoInBothFormats() async throws {
        let store = try await cappedStore()
        let week = ISOWeek(containing: start)
        let every = try await WeeklyReport(week: week, store: store, policy: .default, episodes: [])
        #expect(
            every.markdown.contains(
                "**Capped:** events counted as `__other__` on 2026-11-14 (UTC): 2 in `planID`, 2 in `productID`. Tables by those dimensions "
                    + "show them as `__other__` and alerts cannot name them; totals and rates stay exact. Apps whose budget was full: "
                    + "com\\.example\\.\\<small\\> (2 in `planID`, 2 in `productID`)."))
        #expect(every.document(navigation: [], generatedAtSeconds: start).rendered.contains("<strong>CAPPED</strong> events counted as"))
        let roomy = try await WeeklyReport(week: week, store: store, policy: .default, app: "com.example.roomy", episodes: [])
        #expect(!roomy.markdown.contains("Capped") && !roomy.document(navigation: [], generatedAtSeconds: start).rendered.contains("CAPPED"))
    }
}
