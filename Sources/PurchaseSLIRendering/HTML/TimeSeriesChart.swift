import Foundation
public import PurchaseSLICore

/// A time-series line chart as inline SVG: one line per series (gaps where a value is missing), an
/// optional threshold line (the SLO), shaded bands (alert episodes, maintenance windows), axes with units and times in a zone, and one
/// hover column per time step whose tooltip lists every series' value (SVG `<title>`, no script).
public struct TimeSeriesChart: Sendable {
    /// One line.
    public struct Series: Sendable {
        /// The legend's name for it.
        public var label: String
        /// One value per step (nil: no data).
        public var values: [Double?]
        /// Each step's interval, drawn as a bar through its point (empty: none), so a point made of a
        /// handful of events does not read as a fall.
        public var intervals: [ClosedRange<Double>?]
        /// Which of the six colours it takes (nil: its position), so that one thing, an app version, has
        /// one colour on every chart of a page.
        public var colour: Int?
        /// Drawn dashed: a comparison (the same hours of the week before), not the data itself.
        public var isDashed: Bool

        /// Creates a series.
        public init(label: String, values: [Double?], intervals: [ClosedRange<Double>?] = [], colour: Int? = nil, isDashed: Bool = false) {
            self.label = label
            self.values = values
            self.intervals = intervals
            self.colour = colour
            self.isDashed = isDashed
        }

        /// The colour class's number.
        func colourIndex(at position: Int) -> Int { (colour ?? position) % 6 }
    }

    /// A shaded span of time: an alert episode, or a maintenance window.
    public struct Band: Sendable {
        /// Start, in seconds since the epoch.
        public var startSeconds: Int64
        /// End (exclusive).
        public var endSeconds: Int64
        /// What happened, for the tooltip.
        public var label: String
        /// The short name written on the band, e.g. "PAGE burn purchase".
        public var caption: String
        /// Pages are shaded red, tickets amber.
        public var isPage: Bool
        /// A maintenance window (its minutes left out of the budget): shaded grey, named at the plot's foot.
        public var isMaintenance: Bool

        /// Creates a band.
        public init(startSeconds: Int64, endSeconds: Int64, label: String, caption: String, isPage: Bool, isMaintenance: Bool = false) {
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
            self.label = label
            self.caption = caption
            self.isPage = isPage
            self.isMaintenance = isMaintenance
        }

        /// The band's class: `band`, `band ticket` or `band maintenance` (and its label's likewise).
        var kindClass: String { isMaintenance ? " maintenance" : isPage ? "" : " ticket" }
    }

    /// A moment marked with a vertical line: a version reaching 1 % of its platform, a store's release paused.
    public struct Marker: Sendable, Hashable {
        /// When, in seconds since the epoch.
        public var timeSeconds: Int64
        /// The short name written by the line ("4.12.0 1 %").
        public var caption: String
        /// What happened, for the tooltip.
        public var label: String

        /// Creates a marker.
        public init(timeSeconds: Int64, caption: String, label: String) {
            self.timeSeconds = timeSeconds
            self.caption = caption
            self.label = label
        }
    }

    /// Start of the first step, in seconds since the epoch.
    public var startSeconds: Int64
    /// Width of each step, in seconds.
    public var stepSeconds: Int64
    /// The lines, drawn in order (at most six colours, then they repeat).
    public var series: [Series]
    /// What the y axis measures, with its unit: "success rate (%)".
    public var yLabel: String
    /// How a value is written on the axis and in tooltips.
    public var format: @Sendable (Double) -> String
    /// A horizontal line and its label (the objective), if any.
    public var threshold: (value: Double, label: String)?
    /// Shaded spans.
    public var bands: [Band] = []
    /// The y range; by default from the data (and the threshold), padded.
    public var yDomain: ClosedRange<Double>?
    /// Bounds the default y range may not cross (0 to 1 for rates).
    public var yLimits: ClosedRange<Double>?
    /// Moments marked with a vertical line (releases, pauses).
    public var markers: [Marker] = []
    /// The zone of the time axis, the tooltips and the Data table.
    public var zone: TimeZoneOffsets

    /// Creates a chart.
    public init(
        startSeconds: Int64, stepSeconds: Int64, series: [Series], yLabel: String,
        format: @escaping @Sendable (Double) -> String, threshold: (value: Double, label: String)? = nil,
        bands: [Band] = [], yDomain: ClosedRange<Double>? = nil, yLimits: ClosedRange<Double>? = nil, zone: TimeZoneOffsets = .utc
    ) {
        self.startSeconds = startSeconds
        self.stepSeconds = stepSeconds
        self.series = series
        self.yLabel = yLabel
        self.format = format
        self.threshold = threshold
        self.bands = bands
        self.yDomain = yDomain
        self.yLimits = yLimits
        self.zone = zone
    }

    /// The size a chart is drawn at, in the SVG's own units, and what it holds.
    private struct Layout {
        var name: String
        var width: Double, height: Double, left: Double, right: Double, top: Double, bottom: Double
        /// The most time labels.
        var timeLabels: Int
        /// Where the time labels' baseline is, below the plot.
        var timeLabelOffset: Double
        /// Whether each step has a hover column with its values (a pointer's; phones have none).
        var hover: Bool
        /// About how wide a character of a band's name is, and the height of its line (the stylesheet's
        /// 10 units wide, 14 on a phone).
        var bandLabelCharacterWidth: Double, bandLabelLineHeight: Double
        /// About how wide a character of an axis label is at most (the stylesheet's 11 units, 16 on a
        /// phone), and the height of the y axis's name written up the left edge.
        var axisCharacterWidth: Double, yLabelHeight: Double

        static let wide = Layout(
            name: "wide", width: 960, height: 240, left: 58, right: 12, top: 10, bottom: 34, timeLabels: 8, timeLabelOffset: 16, hover: true,
            bandLabelCharacterWidth: 5.6, bandLabelLineHeight: 11, axisCharacterWidth: 6.7, yLabelHeight: 16)
        /// For a phone: whole, with its y axis, its text at the stylesheet's 16 units (about 12 px on a
        /// 390 px screen), so that nothing scrolls out of sight.
        static let narrow = Layout(
            name: "narrow", width: 480, height: 310, left: 92, right: 14, top: 10, bottom: 54, timeLabels: 4, timeLabelOffset: 22, hover: false,
            bandLabelCharacterWidth: 7.8, bandLabelLineHeight: 15, axisCharacterWidth: 9.7, yLabelHeight: 22)

        /// The layout with room on the left for the y axis's name and its widest label (`characters` long):
        /// an overspent budget's "−100 %" must not run into "error budget left (%)".
        func fitting(tickLabelCharacters characters: Int) -> Layout {
            var fitted = self
            fitted.left = max(left, yLabelHeight + Double(characters) * axisCharacterWidth + 8)
            return fitted
        }
    }

    /// The chart: a legend, then the SVG, drawn wide for a screen and narrow for a phone (the stylesheet
    /// shows the one that fits), then its numbers folded away as a table (which the pages also write as CSV,
    /// ``TableCSV``).
    public var html: HTML {
        legend + "<div class=\"chart\">" + svg(.wide) + svg(.narrow) + "</div>" + dataTable
    }

    /// Each step's values (and intervals) as a table: a time column, a column per series.
    private var dataTable: HTML {
        let steps = series.map(\.values.count).max() ?? 0
        var header: [HTML] = ["<th class=\"text\">time (\(zone.shortName))</th>"]
        for line in series {
            header.append("<th>\(line.label) \(yLabel)</th>")
            if !line.intervals.isEmpty { header += ["<th>\(line.label) 95 % low</th>", "<th>\(line.label) 95 % high</th>"] }
        }
        // A chart in percent (its axis says "(%)") charts fractions: its numbers are written as percents.
        let scale = yLabel.hasSuffix("(%)") ? 100.0 : 1
        func cell(_ value: Double?) -> HTML {
            guard let value else { return "<td></td>" }
            return "<td data-value=\"\(String(value * scale))\">\(format(value))</td>"
        }
        let rows = (0..<steps).map { step -> HTML in
            var cells: [HTML] = ["<td class=\"text\">\(zone.timestamp(startSeconds + Int64(step) * stepSeconds))</td>"]
            for line in series {
                cells.append(cell(line.values.indices.contains(step) ? line.values[step] : nil))
                if !line.intervals.isEmpty {
                    let interval = line.intervals.indices.contains(step) ? line.intervals[step] : nil
                    cells += [cell(interval?.lowerBound), cell(interval?.upperBound)]
                }
            }
            return "<tr>\(HTML.joined(cells))</tr>"
        }
        return "<details class=\"chart-data\"><summary>Data</summary><div class=\"scroll\"><table><tr>\(HTML.joined(header))</tr>"
            + "\(HTML.joined(rows))</table></div></details>"
    }

    private func svg(_ standard: Layout) -> HTML {
        let steps = series.map(\.values.count).max() ?? 0
        let domain = resolvedDomain
        let yTicks = Self.ticks(domain, format: format)
        let layout = standard.fitting(tickLabelCharacters: yTicks.map { format($0).count }.max() ?? 0)
        let plotWidth = layout.width - layout.left - layout.right
        let plotHeight = layout.height - layout.top - layout.bottom
        let endSeconds = startSeconds + Int64(steps) * stepSeconds
        func x(_ seconds: Int64) -> Double {
            layout.left + plotWidth * Double(seconds - startSeconds) / Double(max(1, endSeconds - startSeconds))
        }
        func y(_ value: Double) -> Double {
            let clamped = min(max(value, domain.lowerBound), domain.upperBound)
            return layout.top + plotHeight * (1 - (clamped - domain.lowerBound) / (domain.upperBound - domain.lowerBound))
        }
        var svg: HTML =
            "<svg class=\"\(layout.name)\" viewBox=\"0 0 \(Int(layout.width)) \(Int(layout.height))\" role=\"img\" aria-label=\"\(yLabel)\">"
        var labelRows: [[ClosedRange<Double>]] = [[], []]
        var footRow: [ClosedRange<Double>] = []
        for band in bands where band.endSeconds > startSeconds && band.startSeconds < endSeconds {
            let x0 = x(max(band.startSeconds, startSeconds))
            let x1 = x(min(band.endSeconds, endSeconds))
            svg +=
                "<rect class=\"band\(band.kindClass)\" x=\"\(number(x0))\" y=\"\(number(layout.top))\" "
                + "width=\"\(number(max(1.5, x1 - x0)))\" height=\"\(number(plotHeight))\"><title>\(lines(band.label.components(separatedBy: "\n")))</title></rect>"
            // Named inside the plot: from the band's start, or up to its end when it lies in the right part; on
            // the first row where it overlaps no other band's name, else only in the band's tooltip.
            let fromEnd = x0 > layout.width * 0.6
            let width = Double(band.caption.count) * layout.bandLabelCharacterWidth
            let extent = fromEnd ? (x1 - 2 - width)...(x1 - 2) : (x0 + 2)...(x0 + 2 + width)
            let baseline: Double
            if band.isMaintenance {
                // Maintenance is named on the plot's last line, apart from the alerts' names at its top.
                guard !footRow.contains(where: { $0.overlaps(extent) }) else { continue }
                footRow.append(extent)
                baseline = layout.top + plotHeight - 4
            } else {
                guard let row = labelRows.indices.first(where: { row in !labelRows[row].contains { $0.overlaps(extent) } }) else { continue }
                labelRows[row].append(extent)
                baseline = layout.top + layout.bandLabelLineHeight * Double(row + 1)
            }
            svg +=
                "<text class=\"band-label\(band.kindClass)\" x=\"\(number(fromEnd ? x1 - 2 : x0 + 2))\" "
                + "y=\"\(number(baseline))\" text-anchor=\"\(fromEnd ? "end" : "start")\">\(band.caption)</text>"
        }
        var markerRight = -Double.infinity
        for marker in markers.sorted(by: { $0.timeSeconds < $1.timeSeconds })
        where marker.timeSeconds >= startSeconds && marker.timeSeconds < endSeconds {
            let position = x(marker.timeSeconds)
            svg +=
                "<line class=\"marker\" x1=\"\(number(position))\" x2=\"\(number(position))\" y1=\"\(number(layout.top))\" "
                + "y2=\"\(number(layout.top + plotHeight))\"><title>\(marker.label)</title></line>"
            // Named up the line from its foot, on its left (on its right when the y axis's labels are there),
            // unless the last name would overlap it.
            let side = position - layout.left > layout.bandLabelLineHeight + 2 ? position - 3 : position + 3 + layout.bandLabelLineHeight
            guard side - markerRight > layout.bandLabelLineHeight + 2 else { continue }
            markerRight = side
            let foot = layout.top + plotHeight - 4
            svg +=
                "<text class=\"marker-label\" x=\"\(number(side))\" y=\"\(number(foot))\" "
                + "transform=\"rotate(-90 \(number(side)) \(number(foot)))\">\(marker.caption)</text>"
        }
        for tick in yTicks {
            svg +=
                "<line class=\"grid-line\" x1=\"\(number(layout.left))\" x2=\"\(number(layout.width - layout.right))\" "
                + "y1=\"\(number(y(tick)))\" y2=\"\(number(y(tick)))\"/>"
                + "<text x=\"\(number(layout.left - 6))\" y=\"\(number(y(tick) + 4))\" text-anchor=\"end\">\(format(tick))</text>"
        }
        var labelledUpTo = -Double.infinity
        for tick in TimeAxis.ticks(from: startSeconds, to: endSeconds, atMost: layout.timeLabels, in: zone) {
            // A label centred on the last tick would run past the SVG's edge and be cut ("Nov 1" for Nov 18);
            // one centred on the first would run into the y axis's lowest label. A label that would overlap
            // the one before it is left out (its tick stays).
            let position = x(tick.seconds)
            let width = Double(tick.label.count) * layout.axisCharacterWidth
            let (anchor, from) =
                position > layout.width - layout.right - 30
                ? ("end", position - width) : position < layout.left + 30 ? ("start", position) : ("middle", position - width / 2)
            svg +=
                "<line class=\"axis\" x1=\"\(number(position))\" x2=\"\(number(position))\" "
                + "y1=\"\(number(layout.height - layout.bottom))\" y2=\"\(number(layout.height - layout.bottom + 4))\"/>"
            guard from > labelledUpTo + 4 else { continue }
            labelledUpTo = from + width
            svg +=
                "<text x=\"\(number(position))\" y=\"\(number(layout.height - layout.bottom + layout.timeLabelOffset))\" "
                + "text-anchor=\"\(anchor)\">\(tick.label)</text>"
        }
        svg += "<text x=\"\(number(layout.width - layout.right))\" y=\"\(number(layout.height - 4))\" text-anchor=\"end\">\(zone.shortName)</text>"
        svg +=
            "<text x=\"4\" y=\"\(number(layout.top + plotHeight / 2))\" transform=\"rotate(-90 10 \(number(layout.top + plotHeight / 2)))\" "
            + "text-anchor=\"middle\">\(yLabel)</text>"
        if let threshold {
            svg +=
                "<line class=\"threshold\" x1=\"\(number(layout.left))\" x2=\"\(number(layout.width - layout.right))\" "
                + "y1=\"\(number(y(threshold.value)))\" y2=\"\(number(y(threshold.value)))\"/>"
        }
        for (index, line) in series.enumerated() {
            // Each step's interval as a translucent bar through its point.
            for (step, interval) in line.intervals.enumerated() {
                guard let interval else { continue }
                let middle = x(startSeconds + Int64(step) * stepSeconds + stepSeconds / 2)
                svg +=
                    "<line class=\"interval s\(line.colourIndex(at: index))\" x1=\"\(number(middle))\" x2=\"\(number(middle))\" "
                    + "y1=\"\(number(y(interval.upperBound)))\" y2=\"\(number(y(interval.lowerBound)))\"/>"
            }
        }
        for (index, line) in series.enumerated() {
            var path = ""
            var drawing = false
            for (step, value) in line.values.enumerated() {
                guard let value else {
                    drawing = false
                    continue
                }
                let point = "\(number(x(startSeconds + Int64(step) * stepSeconds + stepSeconds / 2)).markup),\(number(y(value)).markup)"
                path += (drawing ? "L" : "M") + point
                drawing = true
            }
            if !path.isEmpty {
                svg += "<path class=\"series s\(line.colourIndex(at: index))\(line.isDashed ? " dashed" : "")\" d=\"\(HTML(trusted: path))\"/>"
            }
        }
        for step in 0..<steps where layout.hover {
            let time = startSeconds + Int64(step) * stepSeconds
            let values = series.map { line -> String in
                guard line.values.indices.contains(step), let value = line.values[step] else { return "\(line.label): no data" }
                guard line.intervals.indices.contains(step), let interval = line.intervals[step] else { return "\(line.label): \(format(value))" }
                return "\(line.label): \(format(value)) (95 %: \(format(interval.lowerBound)) to \(format(interval.upperBound)))"
            }
            svg +=
                "<rect class=\"hover\" x=\"\(number(x(time)))\" y=\"\(number(layout.top))\" width=\"\(number(plotWidth / Double(steps)))\" "
                + "height=\"\(number(plotHeight))\"><title>\(lines([zone.timestamp(time)] + values))</title></rect>"
        }
        return svg + "</svg>"
    }

    private var legend: HTML {
        var items = series.enumerated().map { index, line -> HTML in
            "<span><i class=\"k\(line.colourIndex(at: index))\(line.isDashed ? " dashed" : "")\"></i>\(line.label)</span>"
        }
        if series.contains(where: { !$0.intervals.isEmpty }) { items.append("<span>bars: each point's 95 % interval</span>") }
        if let threshold { items.append("<span><i class=\"kt\"></i>\(threshold.label)</span>") }
        if bands.contains(where: { !$0.isMaintenance }) { items.append("<span><i class=\"kb\"></i>alert firing (named on the band)</span>") }
        if markers.contains(where: { $0.timeSeconds >= startSeconds }) {
            items.append("<span><i class=\"kr\"></i>releases (1 %), steps, pauses</span>")
        }
        if bands.contains(where: \.isMaintenance) {
            items.append("<span><i class=\"km\"></i>maintenance (left out of the error budget)</span>")
        }
        return "<div class=\"legend\">\(HTML.joined(items))</div>"
    }

    private var resolvedDomain: ClosedRange<Double> {
        if let yDomain { return yDomain }
        var values = series.flatMap { $0.values.compactMap { $0 } }
        if let threshold { values.append(threshold.value) }
        guard var low = values.min(), var high = values.max() else { return 0...1 }
        if high - low < 1e-9 {  // a flat line: give it a readable scale (0 to 1 % for a rate of 0)
            high = low + max(abs(low) * 0.1, 0.01)
            low = max(yLimits?.lowerBound ?? -.infinity, low - (high - low))
        }
        let pad = max((high - low) * 0.08, abs(high) * 0.001, 1e-9)
        guard let yLimits else { return (low - pad)...(high + pad) }
        let lower = max(low - pad, yLimits.lowerBound)
        let upper = min(high + pad, yLimits.upperBound)
        return lower < upper ? lower...upper : yLimits
    }

    /// About five round values across the domain, as few fewer as it takes for no two to read the same
    /// once formatted (a count axis from 0 to 1 reads 0 and 1, not 0, 0, 1, 1, 1).
    static func ticks(_ domain: ClosedRange<Double>, format: (Double) -> String) -> [Double] {
        guard domain.upperBound > domain.lowerBound else { return [domain.lowerBound] }
        var least = (domain.upperBound - domain.lowerBound) / 4
        while true {
            let magnitude = pow(10, floor(log10(least)))
            let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= least } ?? least
            var ticks: [Double] = []
            var tick = ceil(domain.lowerBound / step) * step
            while tick <= domain.upperBound + step * 1e-9 {
                ticks.append(tick == 0 ? 0 : tick)  // not "-0"
                tick += step
            }
            let labels = ticks.map(format)
            if ticks.count <= 1 || Set(labels).count == labels.count { return ticks }
            least = step * 1.01
        }
    }

    /// Tooltip lines, each escaped (escaping turns a newline into U+FFFD), one per line.
    private func lines(_ texts: [String]) -> HTML {
        HTML.joined(texts.map { text -> HTML in "\(text)" }, separator: "\n")
    }

    private func number(_ value: Double) -> HTML {
        HTML(trusted: String(format: "%.1f", value))
    }
}
