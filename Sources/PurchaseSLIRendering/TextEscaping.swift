import Foundation

/// How untrusted text (ids and descriptions from events) is made safe for each output, in one place.
public enum TextEscaping: Sendable {
    /// A terminal: control and bidirectional-override characters become U+FFFD.
    case terminal
    /// Markdown: as for the terminal, and Markdown's punctuation is backslash-escaped, so event data
    /// cannot make links, images, emphasis or HTML.
    case markdown
    /// Slack mrkdwn: as for the terminal, and `&`, `<`, `>` become entities, so event data cannot make
    /// mentions (`<!channel>`, `<@U…>`) or links.
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
            return safe.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
    }
}

