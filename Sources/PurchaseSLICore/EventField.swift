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
///
/// Stored inline (no array), so parsing an event allocates only the strings it keeps.
public struct RawEvent: Sendable, Hashable {
    private var eventIDValue, timestampValue, productIDValue, planIDValue, groupIDValue, offerIDValue, actionTypeValue, resultTypeValue, statusCodeValue, appVersionValue, platformValue, osVersionValue, variantValue, transactionIDValue, durationMsValue, resultDescriptionValue, responseDescriptionValue, errorDescriptionValue: JSONFieldValue?

    /// The timestamp in milliseconds when the byte parser already read it (then `self[.timestamp]` is nil).
    public var timestampMillis: Int64?

    /// An event with no fields.
    public init() {}

    /// The value under `field`, or nil when the key was absent. Duplicate keys: the last wins.
    public subscript(field: EventField) -> JSONFieldValue? {
        get {
            switch field {
            case .eventID: eventIDValue
            case .timestamp: timestampValue
            case .productID: productIDValue
            case .planID: planIDValue
            case .groupID: groupIDValue
            case .offerID: offerIDValue
            case .actionType: actionTypeValue
            case .resultType: resultTypeValue
            case .statusCode: statusCodeValue
            case .appVersion: appVersionValue
            case .platform: platformValue
            case .osVersion: osVersionValue
            case .variant: variantValue
            case .transactionID: transactionIDValue
            case .durationMs: durationMsValue
            case .resultDescription: resultDescriptionValue
            case .responseDescription: responseDescriptionValue
            case .errorDescription: errorDescriptionValue
            }
        }
        set {
            switch field {
            case .eventID: eventIDValue = newValue
            case .timestamp: timestampValue = newValue
            case .productID: productIDValue = newValue
            case .planID: planIDValue = newValue
            case .groupID: groupIDValue = newValue
            case .offerID: offerIDValue = newValue
            case .actionType: actionTypeValue = newValue
            case .resultType: resultTypeValue = newValue
            case .statusCode: statusCodeValue = newValue
            case .appVersion: appVersionValue = newValue
            case .platform: platformValue = newValue
            case .osVersion: osVersionValue = newValue
            case .variant: variantValue = newValue
            case .transactionID: transactionIDValue = newValue
            case .durationMs: durationMsValue = newValue
            case .resultDescription: resultDescriptionValue = newValue
            case .responseDescription: responseDescriptionValue = newValue
            case .errorDescription: errorDescriptionValue = newValue
            }
        }
    }
}
