import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension CapOverflow {
    /// A banner saying what the caps counted as `__other__` on the days read, per dimension and, for every
    /// app (`app` nil), per app whose budget was full, with the policy key that raises an app's caps; empty
    /// when they turned nothing away. Tables and alerts by those dimensions cannot name what was turned
    /// away: a page that shows no failing product is not a page where none failed.
    func banner(app: String?) -> HTML {
        guard !isEmpty else { return "" }
        return "<div class=\"banner warn\"><strong>CAPPED</strong> " + sentence(app: app, style: .html) + "</div>"
    }

    /// ``banner(app:)`` as a Markdown paragraph (event text escaped), or nil when nothing was turned away.
    func markdown(app: String?) -> String? {
        guard !isEmpty else { return nil }
        return "**Capped:** " + sentence(app: app, style: .markdown).markup
    }

    /// How the sentence is marked up.
    private enum Style {
        case html
        case markdown

        /// A word of ours (a dimension, `__other__`) as code.
        func code(_ word: String) -> HTML {
            self == .html ? "<code>\(word)</code>" : HTML(trusted: "`\(word)`")
        }

        /// Event text (an app's name), escaped.
        func text(_ text: String) -> HTML {
            self == .html ? "\(text)" : HTML(trusted: TextEscaping.markdown.escape(text))
        }
    }

    /// The banner's words.
    private func sentence(app: String?, style: Style) -> HTML {
        let days = Set(counts.map(\.day))
        let first = RFC3339.format(seconds: days.min()! * .secondsPerDay).prefix(10)
        let last = RFC3339.format(seconds: days.max()! * .secondsPerDay).prefix(10)
        let when = first == last ? "on \(first) (UTC)" : "on \(days.count) days from \(first) to \(last) (UTC)"
        let other = style.code(EventDimension.overflowValue)
        var text: HTML =
            "events counted as " + other + " \(when): " + Self.parts(byDimension, style: style, ownApp: app != nil)
            + ". Tables by those dimensions show them as "
            + other + " and alerts cannot name them; totals and rates stay exact."
        let apps = byApp.filter { !$0.app.isEmpty && $0.app != EventDimension.overflowValue }
        if app == nil, !apps.isEmpty {
            let named = apps.prefix(5).map { style.text($0.app) + " (" + Self.parts($0.byDimension, style: style, ownApp: false) + ")" }
            text +=
                " Apps whose budget was full: " + HTML.joined(named, separator: "; ")
                + (apps.count > 5 ? " and \(apps.count - 5) more" as HTML : "") + "."
        }
        let example = style.text(app ?? apps.first?.app ?? "com.example.app")
        return text + " An app's caps are raised in the policy (apps: {" + example + ": {cardinalityCap: …, seriesCap: …}})."
    }

    /// "2,295 in `planID`, 12 in series past the series cap"; on one app's page (`ownApp`) the apps past
    /// the day's apps are said to maybe hold its own events (their names are not kept).
    private static func parts(_ byDimension: [(dimension: String, events: Int64)], style: Style, ownApp: Bool) -> HTML {
        HTML.joined(
            byDimension.map { entry -> HTML in
                let events = NumberText.count(entry.events)
                return switch entry.dimension {
                case "series": "\(events) in series past the series cap"
                case EventDimension.app.rawValue:
                    "\(events) of apps past the day's apps, under the app " + style.code(EventDimension.overflowValue)
                        + (ownApp ? " (this app's among them if it was one: its name is not kept)" : "")
                default: "\(events) in " + style.code(entry.dimension)
                }
            }, separator: ", ")
    }
}
