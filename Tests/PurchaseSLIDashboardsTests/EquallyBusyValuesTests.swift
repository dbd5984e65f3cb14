import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// A chart by a dimension draws its five busiest values and the rest as "other", a table its worst rows up
/// to its limit: values alike there are taken by label, so a page shows the same lines and rows whatever
/// order its data came in (a dictionary's, which changes from run to run).
@Suite struct EquallyBusyValuesTests {
    @Test func equallyBusyValuesAreTakenByLabel() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let end = seconds("2026-11-16T12:00:00Z")
        // Ten app versions, three purchases each at the same minutes: every one as busy as the others.
        let events = (0..<10).flatMap { version in
            (0..<3).map { index in
                PurchaseEvent(
                    eventID: "v\(version)-\(index)", timestampMillis: (end - 3600 + Int64(index) * 600) * 1000, productID: "coins_100",
                    planID: "coins-small", actionType: .purchase, resultType: .success, appVersion: "1.0.\(version)", platform: "iOS")
            }
        }
        _ = try await store.record(events, receivedAtMillis: end * 1000)
        let definition = try DashboardDefinition(
            yaml: """
                title: Versions
                file: versions.html
                panels:
                  - {kind: chart, title: Purchases per app version, metric: successRate, actionType: purchase, by: appVersion}
                  - {kind: table, title: Versions, by: appVersion, limit: 3}
                """)
        let context = try await DashboardContext(store: store, policy: try shippedPolicy(), atSeconds: end, rangeSeconds: 6 * 3600)
        let page = try #require(try await renderPages([definition], context: context)["versions.html"])
        let header = try #require(page.between("<details class=\"chart-data\">", "</tr>"))
        let lines = header.components(separatedBy: "<th>").dropFirst().map { $0.components(separatedBy: " success rate").first ?? "" }
        #expect(lines == ["1.0.0", "1.0.1", "1.0.2", "1.0.3", "1.0.4", "other"], "\(header)")
        let table = try #require(page.between("<h3>Versions", "</table>"))
        let rows = table.components(separatedBy: "<tr><td class=\"text\">").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(rows == ["1.0.0", "1.0.1", "1.0.2"], "\(table)")
    }
}
