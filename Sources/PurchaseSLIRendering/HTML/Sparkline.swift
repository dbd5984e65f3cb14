import Foundation

/// A small line for a table cell: the shape of a rate over the page's range, with a tooltip.
public struct Sparkline: Sendable {
    /// One value per step (nil: no data).
    public var values: [Double?]
    /// What the tooltip says first: "success rate per hour".
    public var caption: String
    /// How a value is written in the tooltip.
    public var format: @Sendable (Double) -> String
    /// Whether a higher value is worse (the line turns red when the last value is the worst).
    public var higherIsWorse: Bool

    /// Creates a sparkline.
    public init(values: [Double?], caption: String, format: @escaping @Sendable (Double) -> String, higherIsWorse: Bool) {
        self.values = values
        self.caption = caption
        self.format = format
        self.higherIsWorse = higherIsWorse
    }

    /// The SVG.
    public var html: HTML {
        let present = values.compactMap { $0 }
        guard let low = present.min(), let high = present.max(), values.count > 1 else { return "<span class=\"muted\">–</span>" }
        let span = max(high - low, 1e-9)
        var path = ""
        var drawing = false
        for (index, value) in values.enumerated() {
            guard let value else {
                drawing = false
                continue
            }
            let x = 120 * Double(index) / Double(values.count - 1)
            let y = 22 - 20 * (value - low) / span
            path += (drawing ? "L" : "M") + String(format: "%.1f,%.1f", x, y)
            drawing = true
        }
        let worst = higherIsWorse ? high : low
        let style = present.last == worst && high - low > 0 ? "s4" : "s0"
        return "<svg class=\"spark\" viewBox=\"0 0 120 24\" role=\"img\" aria-label=\"\(caption)\"><title>\(caption): "
            + "\(format(low)) to \(format(high)), last \(present.last.map(format) ?? "none")</title>"
            + "<path class=\"series \(style)\" d=\"\(HTML(trusted: path))\"/></svg>"
    }
}
