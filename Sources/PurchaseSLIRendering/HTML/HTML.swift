/// A fragment of HTML (or SVG) that is safe to insert into a page: its literal parts are written by our
/// code, and every `String` interpolated into it is escaped — the one place where untrusted text from
/// events becomes markup. Interpolating another `HTML` inserts it as is.
///
///     let cell: HTML = "<td title=\"\(plan)\">\(plan)</td>"   // plan is escaped twice over, safely
public struct HTML: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The markup.
    public private(set) var markup: String

    /// Markup written by our code (not escaped).
    public init(stringLiteral value: String) {
        markup = value
    }

    /// Markup built by interpolation: strings escaped, HTML fragments as is.
    public init(stringInterpolation: StringInterpolation) {
        markup = stringInterpolation.markup
    }

    /// Trusted markup made at run time by our own code (numbers, generated SVG paths); never event text.
    public init(trusted markup: String) {
        self.markup = markup
    }

    public var description: String { markup }

    /// Fragments one after another.
    public static func joined(_ fragments: [HTML], separator: HTML = "") -> HTML {
        HTML(trusted: fragments.map(\.markup).joined(separator: separator.markup))
    }

    /// Two fragments one after the other.
    public static func + (lhs: HTML, rhs: HTML) -> HTML {
        HTML(trusted: lhs.markup + rhs.markup)
    }

    /// Appends a fragment.
    public static func += (lhs: inout HTML, rhs: HTML) {
        lhs.markup += rhs.markup
    }

    /// `text` with `& < > " '` replaced by character references: safe in element content, in quoted
    /// attribute values, and in SVG text alike. Control and bidirectional-override characters become
    /// U+FFFD, as in the terminal. Unicode scalar by scalar, as a browser reads them: a prepended or
    /// combining mark beside a `<` makes one `Character` with it, never one scalar.
    public static func escape(_ text: String) -> String {
        TerminalText.sanitized(text).replacingScalars { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            default: nil
            }
        }
    }

    /// Builds markup: literals as written, `String`s escaped, `HTML` as is, numbers as text.
    public struct StringInterpolation: StringInterpolationProtocol {
        var markup = ""

        /// Reserves room for the literal parts.
        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// A literal part, written by our code.
        public mutating func appendLiteral(_ literal: String) {
            markup += literal
        }

        /// Untrusted text: escaped.
        public mutating func appendInterpolation(_ text: String) {
            markup += HTML.escape(text)
        }

        /// A fragment that is already safe.
        public mutating func appendInterpolation(_ fragment: HTML) {
            markup += fragment.markup
        }

        /// A whole number.
        public mutating func appendInterpolation<Number: BinaryInteger>(_ number: Number) {
            markup += String(number)
        }
    }
}
