import Foundation

/// A setting's value as one of its sources gives it: text from an option or an environment variable, a
/// list from a repeated option or a comma-separated variable, or a JSON value from the config file.
enum SettingValue: Decodable, CustomStringConvertible {
    case text(String)
    case number(Double)
    case bool(Bool)
    case list([String])
    /// A JSON value no setting takes (null, an object, an array of anything but strings).
    case unsupported

    /// Decodes a config file's value strictly: `true` is not a number, `1` not a boolean, `"8080"` a text.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let list = try? container.decode([String].self) {
            self = .list(list)
        } else {
            self = .unsupported
        }
    }

    /// The items of a comma-separated environment variable, trimmed, without empty ones.
    static func commaSeparated(_ text: String) -> SettingValue {
        .list(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// The value as errors quote it.
    var description: String {
        switch self {
        case .text(let text): "\"\(text)\""
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? "\(Int64(number))" : "\(number)"
        case .bool(let bool): "\(bool)"
        case .list(let items): "[\(items.map { "\"\($0)\"" }.joined(separator: ", "))]"
        case .unsupported: "a value of another kind"
        }
    }

    /// The text of an option, a variable or a JSON string; nil for any other kind.
    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// A whole number from text or JSON; nil for a fraction or any other kind.
    var wholeNumber: Int? {
        switch self {
        case .text(let text): Int(text)
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? Int(number) : nil
        default: nil
        }
    }

    /// A finite number from text or JSON.
    var number: Double? {
        switch self {
        case .text(let text): Double(text).flatMap { $0.isFinite ? $0 : nil }
        case .number(let number): number.isFinite ? number : nil
        default: nil
        }
    }

    /// A list from a repeated option, a variable or a JSON array of strings.
    var list: [String]? {
        if case .list(let items) = self { return items }
        return nil
    }
}
