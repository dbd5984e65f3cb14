import PurchaseSLICore

/// Words of an alert, with each number, time and untrusted value marked, so that every output (terminal,
/// Markdown, Slack, HTML, Alertmanager) formats and escapes them its own way: an alert rule writes its
/// text once.
///
/// A literal is the rule's own words; an interpolated `String` is untrusted (a product or error from the
/// events) and escaped by the output; numbers go through labelled interpolations:
///
///     "\(scope: labels): 409s at \(percent: rate), \(count: observed) of \(count: exposure)"
public struct AlertText: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// One part of the text.
    public enum Piece: Sendable, Hashable {
        /// The rule's own words, shown as they are.
        case words(String)
        /// A value from events or notifications (an id, a product, an error): escaped by each output.
        case value(String)
        /// A count with thousands separators: 12,345.
        case count(Int64)
        /// A share as a percentage, "n/a" for nil.
        case percent(Double?)
        /// A decimal number with this many digits after the point, "n/a" for nil: a burn rate.
        case decimal(Double?, digits: Int)
        /// A duration in minutes, hours and days: "2 h 5 min".
        case duration(Int64)
        /// A short duration to the second under a minute: "43 s".
        case seconds(Int64)
        /// A window's length as the policy writes it: "30m", "1h".
        case step(Int64)
        /// A time (seconds since the epoch) in RFC 3339.
        case time(Int64)
        /// An amount of money and its currency: "4.99 USD".
        case money(Double, currency: String)
        /// A p-value: "p = 3.1e-08".
        case pValue(Double)
    }

    /// The pieces, in order.
    public var pieces: [Piece]

    /// Text of these pieces.
    public init(pieces: [Piece]) {
        self.pieces = pieces
    }

    /// The rule's own words.
    public init(stringLiteral value: String) {
        pieces = [.words(value)]
    }

    /// Text written with interpolations.
    public init(stringInterpolation: StringInterpolation) {
        pieces = stringInterpolation.pieces
    }

    /// The pieces with no formatting: words and values as they are, numbers plainly (for tests and logs).
    public var description: String {
        pieces.map { piece in
            switch piece {
            case .words(let text), .value(let text): text
            case .count(let value), .duration(let value), .seconds(let value), .step(let value), .time(let value): String(value)
            case .percent(let value), .decimal(let value, _): value.map { String($0) } ?? "n/a"
            case .money(let amount, let currency): "\(amount) \(currency)"
            case .pValue(let value): String(value)
            }
        }.joined()
    }

    /// Amounts per currency, currencies in order, each to itself: "56.43 USD + 9,120.00 JPY"; nil for none.
    public static func amounts(_ worth: [String: Double]) -> AlertText? {
        worth.isEmpty ? nil : joined(worth.sorted { $0.key < $1.key }.map { "\(money: $0.value, currency: $0.key)" }, separator: " + ")
    }

    /// Texts joined with a separator of the rule's words.
    public static func joined(_ texts: [AlertText], separator: String) -> AlertText {
        var pieces: [Piece] = []
        for (index, text) in texts.enumerated() {
            if index > 0 { pieces.append(.words(separator)) }
            pieces += text.pieces
        }
        return AlertText(pieces: pieces)
    }

    /// Appends another text.
    public static func + (lhs: AlertText, rhs: AlertText) -> AlertText { AlertText(pieces: lhs.pieces + rhs.pieces) }

    /// Builds the pieces of an interpolated literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []

        /// Starts a text.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// The rule's own words.
        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { pieces.append(.words(literal)) }
        }

        /// An untrusted value (from events or notifications).
        public mutating func appendInterpolation(_ value: String) { pieces.append(.value(value)) }
        /// Words the rule computed (a dimension's name, a severity), shown as they are.
        public mutating func appendInterpolation(words: String) { pieces.append(.words(words)) }
        /// Another text.
        public mutating func appendInterpolation(_ text: AlertText) { pieces += text.pieces }
        /// A count.
        public mutating func appendInterpolation(count: Int64) { pieces.append(.count(count)) }
        /// A count.
        public mutating func appendInterpolation(count: Int) { pieces.append(.count(Int64(count))) }
        /// A count and its noun, singular for one ("1 409", "2 409s").
        public mutating func appendInterpolation(count: Int64, of noun: CountedNoun) {
            pieces += [.count(count), .words(" " + (count == 1 ? noun.one : noun.many))]
        }
        /// A share as a percentage.
        public mutating func appendInterpolation(percent: Double?) { pieces.append(.percent(percent)) }
        /// A decimal number (a burn rate) with `digits` after the point.
        public mutating func appendInterpolation(decimal: Double?, digits: Int = 1) { pieces.append(.decimal(decimal, digits: digits)) }
        /// A duration in seconds, shown in minutes, hours and days.
        public mutating func appendInterpolation(duration: Int64) { pieces.append(.duration(duration)) }
        /// A short duration in seconds, to the second under a minute.
        public mutating func appendInterpolation(seconds: Int64) { pieces.append(.seconds(seconds)) }
        /// A window's length as the policy writes it.
        public mutating func appendInterpolation(step: Int64) { pieces.append(.step(step)) }
        /// A time, seconds since the epoch.
        public mutating func appendInterpolation(time: Int64) { pieces.append(.time(time)) }
        /// An amount of money.
        public mutating func appendInterpolation(money: Double, currency: String) { pieces.append(.money(money, currency: currency)) }
        /// A p-value.
        public mutating func appendInterpolation(pValue: Double) { pieces.append(.pValue(pValue)) }

        /// Where an alert applies: its action, and its store and slice if any ("purchase, productID=coins_100");
        /// the action and store are the tool's own names (validated), the slice's value comes from events.
        public mutating func appendInterpolation(scope labels: SeriesLabels) {
            appendLiteral(labels.actionType)
            if let store = labels.store { appendLiteral(", store=\(store)") }
            if let slice = labels.slice {
                appendLiteral(", \(slice.dimension.rawValue)=")
                appendInterpolation(slice.value ?? "(none)")
            }
        }

        /// A slice as `dimension=value`.
        public mutating func appendInterpolation(slice: SeriesLabels.Slice) {
            appendLiteral("\(slice.dimension.rawValue)=")
            appendInterpolation(slice.value ?? "(none)")
        }
    }
}

/// What a count counts, in the singular and the plural: ("409", "409s"), ("valid event", "valid events").
public struct CountedNoun: Sendable, Hashable {
    /// The noun for one.
    public var one: String
    /// The noun for any other count.
    public var many: String

    /// A noun with its plural.
    public init(_ one: String, _ many: String) {
        self.one = one
        self.many = many
    }
}
