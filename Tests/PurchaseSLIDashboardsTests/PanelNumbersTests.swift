import Foundation
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage
import Testing

/// The numbers a page shows are those `query` gives for the same range, counted here straight from the
/// store and formatted as the page formats them.
@Suite(.outageFixture) struct PanelNumbersTests {
    let fixture: RenderedFixture

    init() throws {
        fixture = try RenderedFixture.get()
    }

    /// Counts of `actionType` over `[from, to)`, grouped by `groupBy`, by key.
    private func counts(from: Int64, to: Int64, groupBy: [EventDimension] = [], action: String) async throws -> [[String?]: OutcomeCounts] {
        let rows = try await fixture.store.counts(CountQuery(fromSeconds: from, toSeconds: to, groupBy: groupBy, filters: [.actionType: [action]]))
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0.counts) })
    }

    /// The cells of the table row whose first cell is `label` (tags inside a cell dropped).
    private func row(_ label: String, in html: Substring) throws -> [String] {
        let start = try #require(html.range(of: "<tr><td class=\"text\">\(label)</td>") ?? html.range(of: "<tr><td>\(label)</td>"))
        let end = try #require(html[start.upperBound...].range(of: "</tr>"))
        let cells = html[start.lowerBound..<end.lowerBound].components(separatedBy: "</td>").dropLast()
        return cells.map { $0.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression) }
    }

    /// The range is one day and three days: steps of 5 and 15 minutes, and a page time 17 minutes past the
    /// hour, so a table that summed whole steps from before the range would count events the query does not.
    @Test(arguments: [86_400, 3 * 86_400] as [Int64])
    func tableRowsAreTheQueryOverTheRange(rangeSeconds: Int64) async throws {
        let context = try await OutageFixture.context(fixture.store, rangeSeconds: rangeSeconds)
        let page = try await #require(try renderPages(try shippedDefinitions(), context: context)["oncall.html"])
        let table = try #require(page.between("<h3>purchase by productID, worst first</h3>", "</section>"))
        let expected = try await counts(from: context.fromSeconds, to: context.atSeconds, groupBy: [.productID], action: "purchase")
        #expect(expected.count == 3)
        for (key, counts) in expected {
            let cells = try row(try #require(key[0] ?? nil), in: table)
            #expect(cells[1] == NumberText.percent(counts.successRate), "\(key) success rate")
            #expect(cells[2] == NumberText.count(counts.failure), "\(key) failures")
            #expect(cells[4] == NumberText.count(counts.valid), "\(key) valid")
            #expect(cells[5] == NumberText.percent(Double(counts.conflicts) / Double(counts.valid)), "\(key) 409 rate")
            #expect(cells[6] == NumberText.percent(Double(counts.cancel) / Double(counts.valid + counts.cancel)), "\(key) cancel rate")
        }
        let all = expected.values.reduce(OutcomeCounts(), +)
        #expect(table.contains("failures beyond the \(NumberText.percent(Double(all.failure) / Double(all.valid))) average failure rate"))
    }

    @Test func objectiveWindowsAreTheQueryOverTheirWindows() async throws {
        let context = try await OutageFixture.context(fixture.store, rangeSeconds: 3 * 86_400)
        let page = try #require(fixture.pages["oncall.html"])
        for (action, target) in [("purchase", 0.99), ("retry", 0.95)] {
            let card = try #require(page.between("<div class=\"card\"><h3>\(action) ", "</div></div>"))
            for (window, label) in [(3600, "1 h"), (6 * 3600, "6 h"), (86_400, "24 h"), (7 * 86_400, "7 d")] as [(Int64, String)] {
                let counts = try await #require(try counts(from: context.atSeconds - window, to: context.atSeconds, action: action)[[]])
                let rate = try #require(counts.successRate)
                #expect(
                    try row(label, in: card) == [
                        label, NumberText.percent(rate), String(format: "%.1f×", (1 - rate) / (1 - target)), NumberText.count(counts.valid),
                    ], "\(action) \(label)")
            }
        }
        // While purchases burn, the big number is the alert's: its short window and figure, as its text says
        // them ("success rate 0.00 % over the last 6m"). The purchase budget over 28 days is overspent.
        let purchase = try #require(page.between("<div class=\"card\"><h3>purchase ", "</div></div>"))
        let alertText = try #require(page.between("<strong>PurchaseSuccessRateBurn</strong> purchase: success rate ", " against"))
        let (figure, span) = (alertText.components(separatedBy: " over the last ")[0], alertText.components(separatedBy: " over the last ")[1])
        #expect(purchase.contains("<div class=\"big bad\">\(figure)</div>"), "\(alertText)")
        #expect(purchase.contains("success rate over the last \(span) ("), "\(purchase)")

        let month = try await #require(try counts(from: context.atSeconds - 28 * 86_400, to: context.atSeconds, action: "purchase")[[]])
        let left = 1 - Double(month.failure) / (0.01 * Double(month.valid))
        #expect(left < 0 && purchase.contains("overspent by \(NumberText.percent(-left))"))
    }

    @Test func topErrorsAreTheErrorQueryOverTheWindow() async throws {
        let context = try await OutageFixture.context(fixture.store, rangeSeconds: 3 * 86_400)
        let page = try #require(fixture.pages["oncall.html"])
        let panel = try #require(page.between("<h3>Top failure reasons, last 1 d</h3>", "</section>"))
        let rows = try await fixture.store.errorCounts(
            CountQuery(
                fromSeconds: context.atSeconds - 86_400, toSeconds: context.atSeconds, groupBy: [.errorDescription],
                filters: [.resultType: ["failure"]]))
        #expect(rows.count == 3)
        for row in rows {
            let cells = try self.row(try #require(row.key[0] ?? nil), in: panel)
            #expect(cells[1] == NumberText.count(row.events), "\(row.key)")
        }
    }
}
