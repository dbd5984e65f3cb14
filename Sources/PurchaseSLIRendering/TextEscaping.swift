import Foundation

/// How untrusted text (ids and descriptions from events) is made safe for each output, in one place.
public enum TextEscaping: Sendable {
    /// A terminal: control and bidirectional-override characters become U+FFFD.
    case terminal
    /// Markdown: as for the terminal, and Markdown's punctuation is backslash-escaped, so event data
    /// cannot make links, images, emphasis or HTML.
    case markdown
    /// Slack mrkdwn: as for the terminal, `&`, `<`, `>` become entities, so event data cannot make
    /// mentions (`<!channel>`, `<@U…>`) or links, and a zero-width space (U+200B) goes around `*`, `_`, `~`
    /// and backticks and after `.` and `:`, so it cannot make bold, italics, strikes, code or bare links
    /// either (Slack has no escape for those characters; the text looks the same).
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
            var escaped = ""
            for character in safe {
                if "\\`*_{}[]()#+-.!|<>~&\"'".contains(character) { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped
        case .html:
            return HTML.escape(safe)
        case .slack:
            var escaped = ""
            for character in Self.slackEntities(safe) {
                if "*_~`".contains(character) {
                    escaped += "\u{200B}\(character)\u{200B}"
                } else {
                    escaped.append(character)
                    if ".:".contains(character) { escaped += "\u{200B}" }
                }
            }
            return escaped
        }
    }

    /// `text` with `&`, `<` and `>` as the entities Slack requires (it shows them as the characters,
    /// also inside code).
    static func slackEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

