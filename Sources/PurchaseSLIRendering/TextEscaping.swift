/// How untrusted text (ids and descriptions from events) is made safe for each output, in one place.
public enum TextEscaping: Sendable {
    /// A terminal: control and bidirectional-override characters become U+FFFD.
    case terminal
    /// Markdown: as for the terminal, and Markdown's punctuation is backslash-escaped (each scalar, so
    /// no mark combined with it hides one), so event data cannot make links, images, emphasis or HTML.
    case markdown
    /// Slack mrkdwn: as for the terminal, `&`, `<`, `>` become entities, so event data cannot make
    /// mentions (`<!channel>`, `<@U…>`) or links, and the value goes in inline code, where Slack makes no
    /// bold, italics, strikes or bare links (it has no escape for those characters); a backtick inside
    /// becomes U+02CB (ˋ), so it cannot end the code. The value copies exactly (a version, a product),
    /// with no invisible character inside.
    case slack
    /// HTML and SVG: as for the terminal, and `& < > " '` become character references (``HTML/escape(_:)``).
    case html

    /// `text` made safe for this output.
    public func escape(_ text: String) -> String {
        let safe = TerminalText.sanitized(text)
        switch self {
        case .terminal:
            return safe
        case .markdown:
            return safe.replacingScalars { Self.markdownPunctuation.contains($0) ? "\\" + String($0) : nil }
        case .html:
            return HTML.escape(safe)
        case .slack:
            guard !safe.isEmpty else { return "" }
            return "`" + Self.slackEntities(safe, backtick: "\u{02CB}") + "`"
        }
    }

    /// Trusted text (the tool's own words and numbers) as this output's markup requires: entities in
    /// Slack and HTML, as it is elsewhere; never a control or bidi character, in case a name came from
    /// stored data.
    public func escapeMarkup(_ text: String) -> String {
        let safe = TerminalText.sanitized(text)
        return switch self {
        case .terminal, .markdown: safe
        case .slack: Self.slackEntities(safe)
        case .html: HTML.escape(safe)
        }
    }

    /// What Markdown may read as markup: each is backslash-escaped in event text.
    private static let markdownPunctuation = "\\`*_{}[]()#+-.!|<>~&\"'".unicodeScalars

    /// `text` with `&`, `<` and `>` as the entities Slack requires (it shows them as the characters,
    /// also inside code), and each backtick as `backtick` when one is given; Unicode scalar by scalar.
    public static func slackEntities(_ text: String, backtick: String? = nil) -> String {
        text.replacingScalars { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "`": backtick
            default: nil
            }
        }
    }
}
