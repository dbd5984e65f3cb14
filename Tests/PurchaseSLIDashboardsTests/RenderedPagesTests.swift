import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import Testing

/// Every page of the shipped dashboards, rendered from a real SQLite store holding an outage and a
/// phased release, read back as markup.
@Suite(.outageFixture) struct RenderedPagesTests {
    let pages: [String: String]

    init() throws {
        pages = try RenderedFixture.get().pages
    }

    @Test func everyDashboardTheIndexAndEachIncidentsReportIsWritten() {
        #expect(Set(pages.keys.filter { !$0.hasPrefix("incident-") }) == ["index.html", "oncall.html", "rollout.html", "report-2026-W46.html"])
        let incidents = Set(pages.values.flatMap { $0.matches(of: #/href="(incident-[0-9a-f-]+\.html)"/#).map { String($0.output.1) } })
        #expect(!incidents.isEmpty && Set(pages.keys.filter { $0.hasPrefix("incident-") }) == incidents)
    }

    @Test func everyPageIsWellFormedSelfContainedAndSmall() throws {
        for (name, page) in pages.sorted(by: { $0.key < $1.key }) {
            let problems = MarkupCheck.problems(in: page)
            #expect(problems.isEmpty, "\(name): \(problems.prefix(5).joined(separator: "\n"))")
            #expect(page.components(separatedBy: "<svg").count == page.components(separatedBy: "</svg>").count, "\(name): an <svg> left open")
            #expect(page.range(of: #"=[0-9.]+/?>"#, options: .regularExpression) == nil, "\(name): an unquoted attribute value")
            #expect(
                page.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;; style-src &#39;sha256-"),
                "\(name)")
            #expect(!page.contains("\u{FFFD}"), "\(name): a character replaced by escaping, though the events hold none")
            #expect(page.range(of: "<script", options: .caseInsensitive) == nil, "\(name)")
            #expect(page.range(of: "http://", options: .caseInsensitive) == nil, "\(name)")
            #expect(page.range(of: "https://", options: .caseInsensitive) == nil, "\(name)")
            #expect(page.range(of: #"(src|url|xlink:href|srcset)\s*[=(]"#, options: .regularExpression) == nil, "\(name): something to load")
            #expect(page.utf8.count <= 1_000_000, "\(name): \(page.utf8.count) bytes")
            #expect(page.hasSuffix("</body></html>\n"), "\(name)")
        }
    }

    @Test func theOnCallPageSaysWhatIsBroken() throws {
        let page = try #require(pages["oncall.html"])
        #expect(page.contains("<h2>Objectives</h2>"))
        for action in ["purchase", "restore", "retry"] {
            #expect(page.contains("<div class=\"card\"><h3>\(action) "), "objective card of \(action)")
        }
        // The outage: the purchase objective pages, and so does the alert, naming what the failures said.
        #expect(page.contains("<h3>purchase <span class=\"status bad\">PAGE</span>"))
        let alerts = try #require(page.between("<h2>Alerts firing</h2>", "</section>"))
        #expect(
            alerts.contains(
                "<div class=\"alert page\" id=\"\(AlertFinding.Identity(kind: .successRateBurn, labels: SeriesLabels(actionType: "purchase")).anchor)\"><p><span class=\"status bad\">PAGE</span> <strong>PurchaseSuccessRateBurn</strong> purchase"
            ))
        // Its action's last 6 hours at 1-minute steps, the episode named on its band; first on a phone.
        #expect(alerts.contains("<h3>purchase: the last 6 h, per 1 min</h3>") && alerts.contains("PAGE burn purchase</text>"))
        #expect(page.contains("<section class=\"firing-first\"><h2>Alerts firing</h2>"))
        #expect(alerts.contains("verification failed: 503 Service Unavailable"))
        #expect(!alerts.contains("No alert firing"))
        // The chart shades the episode, and the top errors put the outage first.
        #expect(page.contains("<rect class=\"band\""))
        let errors = try #require(page.between("<h3>Top failure reasons, last 1 d</h3>", "</section>"))
        #expect(errors.hasPrefix("\n<div class=\"scroll\"><table><tr><th class=\"text\">errorDescription</th>"))
        #expect(errors.between("<td class=\"text\">", "</td>") == "verification failed: 503 Service Unavailable")
        #expect(page.contains("<h3>purchase by productID, worst first</h3>") && page.contains("<h3>purchase by planID, worst first</h3>"))
    }

    @Test func theRolloutPageGivesTheVerdict() throws {
        let page = try #require(pages["rollout.html"])
        #expect(page.contains("<h3>App version adoption: share of events per 15 min</h3>"))
        let rollout = try #require(page.between("<h3>Rollout of 4.12.0 against 4.11.0</h3>", "</section>"))
        #expect(
            rollout.hasPrefix(
                "<div class=\"banner bad\"><strong>ROLL BACK 4.12.0: purchases are lost on 4.12.0 that succeed on 4.11.0 (so far about "))
        #expect(rollout.contains(" purchases failed that would have succeeded on 4.11.0)."))
        #expect(rollout.contains("success rate of purchase, planID=pro-monthly"))
        #expect(rollout.contains("<span class=\"status bad\">worse</span>"))
        // The purchase flow's success rate with each point's interval, and the verdict's course.
        #expect(rollout.contains("<h4>purchase success rate per ") && rollout.contains("<line class=\"interval s0\""))
        let history = try #require(rollout.between("<h4>The verdict over the release: ", "</table>"))
        #expect(history.contains("<span class=\"status bad\">rollback</span>"), "\(history)")
        #expect(page.contains("<h3>Purchases by feature-flag variant</h3>") && page.contains("<td class=\"text\">storekit2</td>"))
    }

    /// An app version has one colour on every chart of the rollout page: the adoption chart (oldest first),
    /// the rollout's (candidate first) and the charts by app version.
    @Test func aVersionHasOneColourOnEveryChart() throws {
        let page = try #require(pages["rollout.html"])
        var colours: [String: Set<String>] = [:]
        for legend in page.matches(of: /<div class="legend">(.*?)<\/div>/) {
            for item in legend.1.matches(of: /<i class="k([0-5])"><\/i>([0-9.]+)</) { colours[String(item.2), default: []].insert(String(item.1)) }
        }
        #expect(colours.keys.sorted() == ["4.11.0", "4.12.0"] && colours.values.allSatisfy { $0.count == 1 }, "\(colours)")
        #expect(colours["4.11.0"] != colours["4.12.0"])
    }

    @Test func chartLabelsStayInsideTheirCharts() throws {
        // A week ending at midnight puts the last day's label on the chart's right edge.
        let week = TimeSeriesChart(
            startSeconds: seconds("2026-11-11T00:00:00Z"), stepSeconds: 3600,
            series: [.init(label: "purchase", values: Array(repeating: 0.99, count: 7 * 24))],
            yLabel: "success rate (%)", format: { NumberText.percent($0) })
        for (name, page) in pages.merging(["chart": week.html.markup], uniquingKeysWith: { $1 }) {
            let charts = page.matches(of: /<svg class="(wide|narrow)" viewBox="0 0 ([0-9]+) [0-9]+"(.*?)<\/svg>/.dotMatchesNewlines())
            #expect(!charts.isEmpty || name == "index.html" || name.hasPrefix("incident-"), "\(name)")
            for chart in charts {
                // About 6.5 units a character in 11-unit system-ui on a wide chart, 9.5 in the phone's 16 units.
                let (size, chartWidth) = (chart.1 == "wide" ? 6.5 : 9.5, try #require(Double(chart.2)))
                for label in chart.3.matches(of: /<text x="([0-9.]+)" y="[0-9.]+" text-anchor="(start|middle|end)">([^<]*)<\/text>/) {
                    let x = try #require(Double(label.1))
                    let width = size * Double(label.3.count)
                    let (left, right) = label.2 == "end" ? (x - width, x) : label.2 == "middle" ? (x - width / 2, x + width / 2) : (x, x + width)
                    #expect(left >= 0 && right <= chartWidth, "\(name), \(chart.1): \"\(label.3)\" spans \(Int(left)) to \(Int(right))")
                }
            }
        }
        #expect(week.html.markup.contains("text-anchor=\"end\">Nov 18</text>"))
    }

    @Test func theIndexLinksEveryPageAndSaysWhatFires() throws {
        let page = try #require(pages["index.html"])
        #expect(page.contains("<li><a href=\"oncall.html\">On-call</a>") && page.contains("<li><a href=\"rollout.html\">Rollout</a>"))
        #expect(page.contains("<div class=\"banner bad\"><strong>"))
        let status = try #require(page.between("<div class=\"banner bad\"><strong>", "</div>"))
        #expect(
            status.range(
                of: #"^\d+ alerts? firing</strong> \([1-9]\d* pages?\) at 2026-11-16T12:17:00Z:<ul>"#,
                options: .regularExpression) != nil, "\(status)")
        // Each firing alert is named and linked to its text on the on-call page.
        let anchor = AlertFinding.Identity(kind: .successRateBurn, labels: SeriesLabels(actionType: "purchase")).anchor
        #expect(
            status.contains(
                "<span class=\"status bad\">PAGE</span> <a href=\"oncall.html#\(anchor)\">PurchaseSuccessRateBurn actionType=purchase</a> since "))
    }
}

/// The checker itself: each of these must be caught (a test that cannot fail checks nothing).
@Suite struct MarkupCheckTests {
    @Test(arguments: [
        ("<svg viewBox=\"0 0 1 1\"><rect x=\"1\" width=123/></svg>", "double quotes"),
        ("<svg onload=alert(1)></svg>", "onload"),
        ("<p><script>alert(1)</script></p>", "<script"),
        ("<div><svg viewBox=\"0 0 1 1\"></div>", "closes <svg>"),
        ("<p>a > b</p>", "raw >"),
        ("<p>fish & chips</p>", "an &"),
        ("<a href=\"javascript:alert(1)\">x</a>", "not a page"),
        ("<p title=\"x\">t</p>", "\"title\""),
        ("<section><p>t</p>", "never closed"),
        ("<img src=\"x.png\">", "<img"),
    ])
    func theMarkupCheckCatches(_ markup: String, _ problem: String) {
        let problems = MarkupCheck.problems(in: "<!DOCTYPE html>" + markup)
        #expect(problems.contains { $0.contains(problem) }, "\(problems)")
        #expect(
            MarkupCheck.problems(
                in: "<!DOCTYPE html><p class=\"a\">&lt;b&gt; &amp; &quot;c&#39;</p><svg viewBox=\"0 0 1 1\"><path d=\"M0,0\"/></svg>"
            ).isEmpty)
    }
}
