import Foundation
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// Beside every table and chart of the pages, a CSV file with the same numbers: one link per table, each
/// file written next to the page, the numbers those `query` gives (unformatted where the page formats them).
@Suite(.outageFixture) struct PageCSVTests {
    let fixture: RenderedFixture

    init() throws {
        fixture = try RenderedFixture.get()
    }

    /// The CSV's rows as cells (the fixture's cells hold no comma or quote).
    private func rows(_ path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test func everyTableAndChartHasItsCSVWrittenBesideThePage() async throws {
        let directory = try TemporaryDirectory()
        let files = fixture.pages.map { DashboardRenderer.File(name: $0.key, html: $0.value) }
        _ = try DashboardFiles.write(files, to: directory.path)
        for file in files {
            let page = try String(contentsOfFile: directory.file(file.name), encoding: .utf8)
            let tables = page.components(separatedBy: "<table").count - 1
            let links = page.components(separatedBy: "<p class=\"csv\"><a href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            #expect(links.count == tables, "\(file.name): \(tables) tables, \(links.count) links")
            for link in links { #expect(FileManager.default.fileExists(atPath: directory.file(link)), "\(link)") }
            #expect(MarkupCheck.problems(in: page).isEmpty, "\(file.name): \(MarkupCheck.problems(in: page).prefix(3))")
        }
        let charts = try #require(fixture.pages["oncall.html"]).components(separatedBy: "<div class=\"chart\">").count - 1
        #expect(charts >= 3 && (fixture.pages["oncall.html"] ?? "").components(separatedBy: "<details class=\"chart-data\">").count - 1 == charts)

        // The objectives card of purchases: the windows' counts, unformatted.
        let windows = ["window", "success rate (%)", "burn rate", "valid"]
        let card = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().first {
                $0.hasPrefix("oncall.table-") && $0.contains("-purchase") && (try? rows(directory.file($0)))?.first == windows
            })
        let table = try rows(directory.file(card))
        let day = try await #require(
            try fixture.store.counts(
                CountQuery(fromSeconds: OutageFixture.end - 86_400, toSeconds: OutageFixture.end, filters: [.actionType: ["purchase"]])
            ).first?.counts)
        let row = try #require(table.first { $0.first == "24 h" })
        #expect(row[3] == "\(day.valid)" && Double(row[1]).map { abs($0 - (day.successRate ?? 0) * 100) < 1e-9 } == true, "\(row)")

        // A chart: valid events by action per step (15 min over 3 days), the steps `query --step` counts.
        let chart = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.contains("valid-events-by-action") })
        let series = try rows(directory.file(chart))
        let header = try #require(series.first)
        let column = try #require(header.firstIndex { $0.hasPrefix("purchase ") })
        let step = try #require(RFC3339.parseMillis(series[2][0])) / 1000 - (try #require(RFC3339.parseMillis(series[1][0]))) / 1000
        #expect(step == 900)
        let hours = try await fixture.store.counts(
            CountQuery(
                // From the whole step the chart starts with.
                fromSeconds: (OutageFixture.end - 3 * 86_400) / step * step, toSeconds: OutageFixture.end, step: TimeStep(seconds: step),
                filters: [.actionType: ["purchase"]]))
        let byHour = Dictionary(uniqueKeysWithValues: hours.map { (RFC3339.format(seconds: $0.timeSeconds ?? 0), $0.counts.valid) })
        var compared = 0
        for line in series.dropFirst() where byHour[line[0]] != nil && Int64(line[0].prefix(4)) != nil {
            #expect(Double(line[column]) == Double(byHour[line[0]] ?? -1), "\(line)")
            compared += 1
        }
        #expect(compared >= 280)
    }

    @Test func aRenderingRemovesTheTablesThePageNoLongerHasAndNoOtherPages() throws {
        let directory = try TemporaryDirectory()
        func page(_ headings: [String]) -> String {
            headings.map { "<h3>\($0) <span class=\"status bad\">PAGE</span></h3><table><tr><td>1</td></tr></table>" }.joined()
        }
        _ = try DashboardFiles.write(
            [.init(name: "oncall.html", html: page(["purchase", "restore"])), .init(name: "oncall-eu.html", html: page(["purchase"]))],
            to: directory.path)
        _ = try DashboardFiles.write([.init(name: "oncall.html", html: page(["purchase"]))], to: directory.path)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".csv") })
        #expect(files == ["oncall.table-1-purchase.csv", "oncall-eu.table-1-purchase.csv"], "a status is not part of the name")
    }

    @Test func cellsAreUnescapedQuotedAndNeverAFormula() {
        let html = """
            <h3>Top failure reasons &amp; more</h3><div class="scroll"><table><tr><th>reason</th><th data-value="share (%)">share</th></tr>
            <tr><td class="text">=HYPERLINK("http://evil")</td><td data-value="12.5">12.5 %</td></tr>
            <tr><td class="text"><code>a, &quot;b&quot; &lt;c&gt;</code></td><td data-value="-4.4">−4.4 %</td></tr></table></div>
            <section><h3>Chart</h3><div class="chart"></div><details class="chart-data"><summary>Data</summary><div class="scroll"><table>
            <tr><th>time</th></tr></table></div></details></section>
            """
        let (page, files) = TableCSV.attach(to: html, pageName: "report-2026-W47.html")
        #expect(files.map(\.name) == ["report-2026-W47.table-1-top-failure-reasons-more.csv", "report-2026-W47.table-2-chart.csv"])
        #expect(files.first?.text == "reason,share (%)\r\n\"'=HYPERLINK(\"\"http://evil\"\")\",12.5\r\n\"a, \"\"b\"\" <c>\",-4.4\r\n")
        #expect(
            page.contains(
                "</table><p class=\"csv\"><a href=\"report-2026-W47.table-1-top-failure-reasons-more.csv\" download=\"report-2026-W47.table-1-top-failure-reasons-more.csv\">CSV</a></p></div>"
            ))
        #expect(
            page.contains(
                "</table></div></details><p class=\"csv\"><a href=\"report-2026-W47.table-2-chart.csv\" download=\"report-2026-W47.table-2-chart.csv\">CSV</a></p></section>"
            ))
    }
}
