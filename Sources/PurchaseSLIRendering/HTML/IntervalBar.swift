import Foundation

/// A horizontal bar for a table cell: a value and, optionally, its confidence interval as a whisker,
/// on a shared scale from 0 to `scale`.
public struct IntervalBar: Sendable {
    /// The value.
    public var value: Double
    /// Its interval, if any.
    public var interval: ClosedRange<Double>?
    /// The value the full width stands for.
    public var scale: Double
    /// Whether the bar is drawn in the colour of bad news.
    public var isBad: Bool
    /// The tooltip.
    public var caption: String

    /// Creates a bar.
    public init(value: Double, interval: ClosedRange<Double>? = nil, scale: Double, isBad: Bool, caption: String) {
        self.value = value
        self.interval = interval
        self.scale = scale
        self.isBad = isBad
        self.caption = caption
    }

    /// The SVG, 160 by 14.
    public var html: HTML {
        func x(_ value: Double) -> String { String(format: "%.1f", 160 * min(max(value / max(scale, 1e-12), 0), 1)) }
        var svg: HTML =
            "<svg class=\"spark\" viewBox=\"0 0 160 14\" role=\"img\" aria-label=\"\(caption)\"><title>\(caption)</title>"
            + "<rect class=\"fmuted\" x=\"0\" y=\"5\" width=\"160\" height=\"4\"/>"
            + "<rect class=\"\(isBad ? "fbad" : "f0")\" x=\"0\" y=\"3\" width=\"\(x(value))\" height=\"8\"/>"
        if let interval {
            svg +=
                "<line class=\"whisker\" x1=\"\(x(interval.lowerBound))\" x2=\"\(x(interval.upperBound))\" y1=\"7\" y2=\"7\"/>"
                + "<line class=\"whisker\" x1=\"\(x(interval.lowerBound))\" x2=\"\(x(interval.lowerBound))\" y1=\"3\" y2=\"11\"/>"
                + "<line class=\"whisker\" x1=\"\(x(interval.upperBound))\" x2=\"\(x(interval.upperBound))\" y1=\"3\" y2=\"11\"/>"
        }
        return svg + "</svg>"
    }
}
