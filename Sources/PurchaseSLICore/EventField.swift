#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fields of the event format (v1) that purchase-sli reads; any other key is ignored.
public enum EventField: Int, Sendable, CaseIterable, CustomStringConvertible {
    case eventID, timestamp, productID, planID, groupID, offerID, actionType, resultType, statusCode
    case appVersion, platform, osVersion, variant, transactionID, durationMs
    case resultDescription, responseDescription, errorDescription

    /// The field's JSON key.
    public var name: String { Self.names[rawValue] }

    public var description: String { name }

    private static let names = [
        "eventID", "timestamp", "productID", "planID", "groupID", "offerID", "actionType", "resultType", "statusCode",
        "appVersion", "platform", "osVersion", "variant", "transactionID", "durationMs",
        "resultDescription", "responseDescription", "errorDescription",
    ]

    /// Finds the field whose JSON key is exactly `key` (UTF-8 bytes). O(key length).
    public init?(key: UnsafeRawBufferPointer) {
        guard key.count < EventField.byKeyLength.count else { return nil }
        for (field, name) in EventField.byKeyLength[key.count] where memcmp(name, key.baseAddress!, key.count) == 0 {
            self = field
            return
        }
        return nil
    }

    /// Fields and their key bytes, bucketed by key length, so a lookup compares at most a few keys.
    private static let byKeyLength: [[(EventField, [UInt8])]] = {
        var table = [[(EventField, [UInt8])]](repeating: [], count: 32)
        for field in allCases { table[field.name.utf8.count].append((field, Array(field.name.utf8))) }
        return table
    }()
}

/// A JSON value as found under a known key, before validation.
public enum JSONFieldValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// A JSON string, unescaped.
    case string(String)
    /// A JSON number, as a double (integers up to 2^53 are exact).
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// A JSON array (its contents are not kept).
    case array
    /// A JSON object (its contents are not kept).
    case object

    /// The JSON type's name, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// The known fields of one JSON event object, as parsed but not yet validated.
public struct RawEvent: Sendable, Hashable {
    /// Values by field; a field absent from the object is absent here. Duplicate keys: the last wins.
    public var values: [JSONFieldValue?]

    /// An event with no fields.
    public init() { values = Array(repeating: nil, count: EventField.allCases.count) }

    /// The value under `field`, or nil when the key was absent.
    public subscript(field: EventField) -> JSONFieldValue? {
        get { values[field.rawValue] }
        set { values[field.rawValue] = newValue }
    }
}

