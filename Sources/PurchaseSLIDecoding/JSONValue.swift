import Foundation
import PurchaseSLICore

/// Any JSON value, as Foundation's `JSONDecoder` reads it: the records of formats whose structure is
/// looser than the event format's (New Relic's flat objects, OTLP's nested documents).
enum JSONValue: Decodable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members sorted by key (JSON objects have no order; a repeated key keeps one value).
    case object([Member])

    /// One member of an object.
    struct Member: Hashable {
        var key: String
        var value: JSONValue
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            self = .object(try object.allKeys.map { Member(key: $0.stringValue, value: try object.decode(JSONValue.self, forKey: $0)) }
                .sorted { $0.key < $1.key })
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
            self = .array(values)
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try value.decode(String.self))
        }
    }

    /// Parses one JSON text.
    /// - Throws: Foundation's `DecodingError` for text that is not JSON (``syntaxMessage(_:)`` words it).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
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

    /// What a JSON decoding error says, without Foundation's coding-path noise.
    static func syntaxMessage(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "not valid JSON: " + (underlying ?? context.debugDescription)
        }
        return "not valid JSON: \(error)"
    }
}
