import PurchaseSLICore

/// Any JSON value: the records of formats whose structure is looser than the event format's (New
/// Relic's flat objects, OTLP's nested documents).
enum JSONValue: Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members sorted by key (JSON objects have no order; the parser refuses a repeated key).
    case object([Member])

    /// One member of an object.
    struct Member: Hashable {
        var key: String
        var value: JSONValue
    }

    /// Parses one JSON text (``JSONValueParser``).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
        try JSONValueParser.parse(bytes)
    }

    /// The value under `key` of an object; nil for a missing key or a value that is not an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value as a field of the event format reads it (arrays and objects by their kind only).
    var fieldValue: JSONFieldValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let value): .number(value)
        case .string(let value): .string(value)
        case .array: .array
        case .object: .object
        }
    }

    /// The JSON text of the value, members in key order: the same text for the same value, whatever
    /// order or spacing it arrived in.
    var canonicalText: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value): JSONText.number(value)
        case .string(let value): JSONText.quoted(value)
        case .array(let values): "[" + values.map(\.canonicalText).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { JSONText.quoted($0.key) + ":" + $0.value.canonicalText }.joined(separator: ",") + "}"
        }
    }
}
