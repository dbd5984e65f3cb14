import Foundation
import PurchaseSLICore
import Testing

@testable import PurchaseSLIRendering

/// The line charts: whole on a phone, axes that never repeat a label, band names that never overlap.
@Suite struct TimeSeriesChartTests {
    private let start: Int64 = 1_795_046_400  // 2026-11-20T00:00:00Z

    /// A success-rate chart of 6 hours at 1-minute steps.
    private func chart(bands: [TimeSeriesChart.Band] = []) -> TimeSeriesChart {
        TimeSeriesChart(
            startSeconds: start, stepSeconds: 60,
            series: [.init(label: "purchase", values: (0..<360).map { $0 < 300 ? 0.99 : 0.4 })], yLabel: "success rate (%)",
            format: { NumberText.percent($0) }, bands: bands, yLimits: 0...1)
    }

    /// The `<svg class="NAME">` of a chart's HTML.
    private func svg(_ html: String, _ name: String) throws -> Substring {
        try #require(html.between("<svg class=\"\(name)\"", "</svg>"))
    }

    /// The y axis's labels of an SVG (right-aligned at the plot's left edge, the zone's name left out),
    /// and where they end.
    private func yLabels(_ svg: Substring) -> (labels: [String], right: Double?) {
        let found = svg.matches(of: try! Regex("<text x=\"([0-9.]+)\" y=\"[0-9.]+\" text-anchor=\"end\">([^<]+)</text>")).map {
            (Double($0.output[1].substring ?? "") ?? 0, String($0.output[2].substring ?? ""))
        }.filter { $0.1 != "UTC" }
        return (found.map(\.1), found.first?.0)
    }

    @Test func aPhoneGetsTheWholeChartWithItsYAxis() throws {
        let html = chart().html.markup
        let wide = try svg(html, "wide")
        let narrow = try svg(html, "narrow")
        #expect(yLabels(wide).labels == yLabels(narrow).labels)
        #expect(yLabels(narrow).labels.contains("100.00 %"), "\(narrow.prefix(600))")
        // Room on the left for "100.00 %" beside the axis's name, at the phone's 16-unit text.
        #expect((yLabels(narrow).right ?? 0) >= 22 + 8 * 9.7 && (yLabels(wide).right ?? 0) >= 16 + 8 * 6.7, "\(narrow.prefix(600))")
        // Hover columns are for a pointer: the wide one has one per step, the phone's none.
        #expect(wide.components(separatedBy: "class=\"hover\"").count - 1 == 360)
        #expect(!narrow.contains("class=\"hover\""))
        // The stylesheet shows one of the two: no chart scrolls its axis out of sight.
        #expect(Stylesheet.css.contains(".chart>svg.narrow{display:none}") && Stylesheet.css.contains(".chart>svg.wide{display:none}"))
        #expect(!Stylesheet.css.contains("min-width:640px"))
    }

    @Test(arguments: [
        (0.0...1.0, ["0", "1"]),
        (-0.08...1.08, ["0", "1"]),
        (0.0...3.0, ["0", "1", "2", "3"]),
        (0.0...200.0, ["0", "50", "100", "150", "200"]),
        (0.0...240.0, ["0", "100", "200"]),
    ])
    func aCountAxisNeverRepeatsALabel(domain: ClosedRange<Double>, labels: [String]) {
        let format: (Double) -> String = { NumberText.count(Int64($0.rounded())) }
        #expect(TimeSeriesChart.ticks(domain, format: format).map(format) == labels)
    }

    @Test func bandNamesThatWouldOverlapTakeASecondRowThenOnlyTheirTooltip() throws {
        let bands = [0, 10, 20].map { minute in
            TimeSeriesChart.Band(
                startSeconds: start + Int64(minute) * 60, endSeconds: start + Int64(minute + 30) * 60,
                label: "episode \(minute)", caption: "TICKET cancel spike coins_500 \(minute)", isPage: false)
        }
        let html = chart(bands: bands).html.markup
        for name in ["wide", "narrow"] {
            let svg = try svg(html, name)
            #expect(svg.contains("TICKET cancel spike coins_500 0<") && svg.contains("TICKET cancel spike coins_500 10<"))
            #expect(!svg.contains("TICKET cancel spike coins_500 20<"), "a third name on top of the other two")
            #expect(svg.contains("<title>episode 20</title>"))
            let rows = Set(svg.matches(of: #/<text class="band-label ticket" x="[0-9.]+" y="([0-9.]+)"/#).map { String($0.output.1) })
            #expect(rows.count == 2)
        }
    }

    /// A release on the plot's first minute is named on the right of its line, not over the y axis's labels;
    /// the first time label starts at the axis, and none runs into the next.
    @Test func labelsAtThePlotsLeftEdgeStayInsideIt() throws {
        var chart = chart()
        chart.markers = [TimeSeriesChart.Marker(timeSeconds: start, caption: "4.12.0 at 2 %", label: "4.12.0 reached 2 %")]
        let html = chart.html.markup
        for name in ["wide", "narrow"] {
            let svg = try svg(html, name)
            let left = try #require(yLabels(svg).right) + 6
            let marker = try #require(svg.firstMatch(of: #/<text class="marker-label" x="([0-9.]+)"/#).flatMap { Double($0.output.1) })
            #expect(marker > left + 3, "\(name): the marker's name at \(marker), the plot from \(left)")
            let times = svg.matches(of: #/<text x="([0-9.]+)" y="[0-9.]+" text-anchor="(start|middle)">([^<]+)</text>/#).map {
                (x: Double($0.output.1) ?? 0, anchor: String($0.output.2))
            }
            #expect(times.first.map { $0.anchor == "start" && abs($0.x - left) < 0.1 } == true, "\(name): \(times)")
        }
    }
}

extension String {
    /// The text between the first `start` and the next `end` after it, or nil.
    fileprivate func between(_ start: String, _ end: String) -> Substring? {
        guard let from = range(of: start)?.upperBound, let to = self[from...].range(of: end)?.lowerBound else { return nil }
        return self[from..<to]
    }
}
