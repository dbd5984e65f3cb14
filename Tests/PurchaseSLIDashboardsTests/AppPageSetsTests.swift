import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// `render --each-app` and `serve`'s publisher write one page set per app into `apps/<dir>/` beside the
/// every-app set: each shows its app alone and links back to the top, whose index lists every app with what
/// fires for it; alert text of such an app links into its own directory.
@Suite struct AppPageSetsTests {
    private static let end: Int64 = 1_794_657_600  // 2026-11-14T12:00:00Z
    private static let failing = "com.example.Coins_App"
    private static let fine = "com.example.premium"
    private let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// Two hours of purchases of three apps, one every 10 s each: the failing app's last 20 minutes fail with
    /// a 503, the fine one and one never listed succeed throughout.
    private func store() async throws -> SQLiteBucketStore {
        let store = try SQLiteBucketStore(path: directory.file("apps.sqlite"))
        let events = [Self.failing, Self.fine, "com.example.unlisted"].flatMap { app in
            (0..<720).map { index -> PurchaseEvent in
                let time = Self.end - 7200 + Int64(index) * 10
                let fails = app == Self.failing && time >= Self.end - 1200
                return PurchaseEvent(
                    eventID: "\(app)-\(index)", timestampMillis: time * 1000, productID: "coins_100", actionType: .purchase,
                    resultType: fails ? .failure : .success, statusCode: fails ? 503 : 200, app: app)
            }
        }
        _ = try await store.record(events, receivedAtMillis: Self.end * 1000)
        return store
    }

    /// The shipped dashboards, and a page of the fine app alone.
    private func definitions() throws -> [DashboardDefinition] {
        try shippedDefinitions() + [
            DashboardDefinition(title: "Premium", file: "premium.html", summary: "The premium app.", app: Self.fine, panels: [.alerts])
        ]
    }

    /// The sets rendered at the fixture's end over a day, alert text linking under `baseURL`.
    private func sets(baseURL: String? = "https://sli.example.com") async throws -> [DashboardRenderer.PageSet] {
        let context = try await DashboardContext(store: try await store(), policy: try shippedPolicy(), atSeconds: Self.end, rangeSeconds: 86_400)
        return try await DashboardRenderer(definitions: try definitions(), context: context, links: PageLinks(baseURL: baseURL))
            .render(eachApp: [Self.fine, Self.failing], generatedAtSeconds: Self.end)
    }

    private func page(_ name: String, of set: DashboardRenderer.PageSet) throws -> String {
        try #require(set.files.first { $0.name == name }, "\(set.directory)/\(name)").html
    }

    @Test func eachAppHasItsOwnDirectoryBesideTheTop() async throws {
        let sets = try await sets()
        #expect(sets.map(\.directory) == ["apps/com.example.premium", "apps/com.example.-43oins-5f-41pp", ""])
        let (fine, failing) = (sets[0], sets[1])
        // Each app's set: the dashboards without `app:` and its own, its review, its index; not another app's page.
        #expect(Set(fine.files.map(\.name)) == ["oncall.html", "rollout.html", "premium.html", "report-2026-W45.html", "index.html"])
        #expect(!failing.files.contains { $0.name == "premium.html" })
        #expect(failing.files.contains { $0.name.hasPrefix("incident-") && $0.name.hasSuffix("-com.example.-43oins-5f-41pp.html") })
        // The top set keeps every definition.
        #expect(sets[2].files.contains { $0.name == "premium.html" })
    }

    @Test func anAppsPagesShowItAloneAndLinkBackToTheTop() async throws {
        let sets = try await sets()
        let failingIndex = try page("index.html", of: sets[1])
        #expect(failingIndex.contains("<title>purchase-sli dashboards · com.example.Coins_App"))
        #expect(failingIndex.contains("<a href=\"../../index.html\">All apps</a>"))
        #expect(failingIndex.contains("alert firing") && failingIndex.contains("app=com.example.Coins_App"))
        let fineOncall = try page("oncall.html", of: sets[0])
        #expect(fineOncall.contains("No alert firing") || fineOncall.contains("no alert firing"))
        #expect(!fineOncall.contains("Coins_App"), "the fine app's page knows nothing of the failing one")
        // Its alert text links into its own directory, where its incident's page is written.
        let failingOncall = try page("oncall.html", of: sets[1])
        let incident = try #require(sets[1].files.first { $0.name.hasPrefix("incident-") }).name
        #expect(failingOncall.contains("https://sli.example.com/apps/com.example.-43oins-5f-41pp/\(incident)"))
    }

    @Test func theTopIndexListsEveryAppWithWhatFiresForItTheUrgentFirst() async throws {
        let top = try page("index.html", of: try await sets()[2])
        let section = try #require(top.range(of: "Apps, each judged on its own events")).upperBound
        let list = top[section...]
        let failing = try #require(list.range(of: "<a href=\"apps/com.example.-43oins-5f-41pp/index.html\">com.example.Coins_App</a>"))
        let fine = try #require(list.range(of: "<a href=\"apps/com.example.premium/index.html\">com.example.premium</a>"))
        #expect(failing.lowerBound < fine.lowerBound, "the app with a page firing comes first")
        #expect(top[section..<failing.lowerBound].contains("<span class=\"status bad\">PAGE</span>"))
        #expect(top[failing.upperBound..<fine.lowerBound].contains("href=\"apps/com.example.-43oins-5f-41pp/oncall.html#alert-"))
        #expect(top[fine.upperBound...].prefix(200).contains("no alert firing"))
        #expect(top[failing.upperBound..<fine.lowerBound].contains("<span class=\"status ok\">OK</span>"))
        #expect(!top.contains("com.example.unlisted"), "only the apps asked for are listed")
        // The banner is of every app together, and names the app paging on its own events.
        #expect(top.contains("for every app together"))
        #expect(top.contains("Firing on their own events: <a href=\"apps/com.example.-43oins-5f-41pp/index.html\">com.example.Coins_App</a> (page)"))
    }

    /// An app whose alerts do not fire is not OK while its index warns: data stopped, events dropped unsent,
    /// an incident still owing charges.
    @Test(arguments: [
        (DataFreshness(atSeconds: end, newestEventSeconds: ["purchase": end - 7200], staleAfterSeconds: 3600), "STALE"),
        (DataFreshness(atSeconds: end, newestEventSeconds: [:], staleAfterSeconds: 3600), "NO DATA"),
        (
            DataFreshness(
                atSeconds: end, newestEventSeconds: ["purchase": end - 60], staleAfterSeconds: 3600, clientDroppedEvents: 50, countedEvents: 1000),
            "INCOMPLETE"
        ),
        (DataFreshness(atSeconds: end, newestEventSeconds: ["purchase": end - 60], staleAfterSeconds: 3600), "OK"),
    ])
    func anAppsLineSaysWhatItsIndexWarnsOf(freshness: DataFreshness, badge: String) throws {
        let frame = DashboardFrame(
            policy: .default, app: nil, atSeconds: Self.end, rangeSeconds: 86_400, zone: .utc,
            records: DashboardRecords(maintenance: [], rolloutActions: []))
        var index = IndexPage(entries: [], frame: frame, alerts: AlertSnapshot(firing: [], episodes: [], freshness: freshness))
        index.apps = [
            IndexPage.AppEntry(
                app: Self.fine, directory: "apps/x", alertPage: "oncall.html", alerts: AlertSnapshot(firing: [], episodes: [], freshness: freshness))
        ]
        let page = index.document(navigation: [], generatedAtSeconds: Self.end).rendered
        #expect(page.contains("<span class=\"status \(badge == "OK" ? "ok" : "warn")\">\(badge)</span> <a href=\"apps/x/index.html\">"))
    }

    @Test func withoutAppsThePagesAreAsBefore() async throws {
        let context = try await DashboardContext(store: try await store(), policy: try shippedPolicy(), atSeconds: Self.end, rangeSeconds: 86_400)
        let files = try await DashboardRenderer(definitions: try definitions(), context: context).render(generatedAtSeconds: Self.end)
        let index = try #require(files.first { $0.name == "index.html" }).html
        #expect(!index.contains("Apps, each judged") && !index.contains("All apps"))
    }

    /// Alert text of an app whose pages are written apart links there; of any other app, and of every app
    /// together, to the top pages.
    @Test(
        arguments: [
            (Self.failing, "https://sli.example.com/apps/com.example.-43oins-5f-41pp"),
            ("com.example.unlisted", "https://sli.example.com"),
            (nil, "https://sli.example.com"),
        ] as [(String?, String)])
    func alertTextLinksToTheAppsOwnPages(app: String?, base: String) async throws {
        var links = PageLinks(baseURL: "https://sli.example.com")
        links.appsWithPages = [Self.failing]
        let alerting = try await AlertContext(store: store(), policy: shippedPolicy(), app: app)
        let context = links.linking(alerting, definitions: try shippedDefinitions())
        #expect(context.pagesURL == base)
        #expect(context.alertPageURL == base + "/oncall.html")
    }
}
