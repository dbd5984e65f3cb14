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
    case price, currency, appAccountToken, app

    /// The field's JSON key.
    public var name: String { Self.names[rawValue] }

    public var description: String { name }

    /// The dimension this field carries, or nil for a field that is not one (``EventDimension/field``).
    public var dimension: EventDimension? { EventDimension.byField[rawValue] }

    private static let names = [
        "eventID", "timestamp", "productID", "planID", "groupID", "offerID", "actionType", "resultType", "statusCode",
        "appVersion", "platform", "osVersion", "variant", "transactionID", "durationMs",
        "resultDescription", "responseDescription", "errorDescription", "price", "currency",
        "appAccountToken", "app",
    ]

    /// Finds the field whose JSON key is exactly `key` (UTF-8 bytes). O(key length), no allocation.
    public init?(key: UnsafeRawBufferPointer) {
        func matches(_ name: StaticString) -> Bool {
            name.utf8CodeUnitCount == key.count && memcmp(name.utf8Start, key.baseAddress!, key.count) == 0
        }
        switch key.count {
        case 3: if matches("app") { self = .app } else { return nil }
        case 5: if matches("price") { self = .price } else { return nil }
        case 6: if matches("planID") { self = .planID } else { return nil }
        case 7:
            if matches("eventID") {
                self = .eventID
            } else if matches("groupID") {
                self = .groupID
            } else if matches("offerID") {
                self = .offerID
            } else if matches("variant") {
                self = .variant
            } else {
                return nil
            }
        case 8: if matches("platform") { self = .platform } else if matches("currency") { self = .currency } else { return nil }
        case 9:
            if matches("timestamp") {
                self = .timestamp
            } else if matches("productID") {
                self = .productID
            } else if matches("osVersion") {
                self = .osVersion
            } else {
                return nil
            }
        case 10:
            if matches("actionType") {
                self = .actionType
            } else if matches("resultType") {
                self = .resultType
            } else if matches("statusCode") {
                self = .statusCode
            } else if matches("appVersion") {
                self = .appVersion
            } else if matches("durationMs") {
                self = .durationMs
            } else {
                return nil
            }
        case 13: if matches("transactionID") { self = .transactionID } else { return nil }
        case 15: if matches("appAccountToken") { self = .appAccountToken } else { return nil }
        case 16: if matches("errorDescription") { self = .errorDescription } else { return nil }
        case 17: if matches("resultDescription") { self = .resultDescription } else { return nil }
        case 19: if matches("responseDescription") { self = .responseDescription } else { return nil }
        default: return nil
        }
    }
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
    private var eventIDValue, timestampValue, productIDValue, planIDValue, groupIDValue, offerIDValue, actionTypeValue, resultTypeValue,
        statusCodeValue, appVersionValue, platformValue, osVersionValue, variantValue, transactionIDValue, durationMsValue, resultDescriptionValue,
        responseDescriptionValue, errorDescriptionValue, priceValue, currencyValue, appAccountTokenValue, appValue: JSONFieldValue?

    /// The timestamp in milliseconds when the byte parser already read it (then `self[.timestamp]` is nil).
    public var timestampMillis: Int64?

    /// The eventID a decoder computed from the record's content (``EventValidator/computedEventIDPrefix``
    /// and a hash), taken when the record names no eventID of its own.
    public var computedEventID: String?

    /// The first known field whose key appeared more than once, or nil. JSON leaves the meaning of a
    /// repeated key open (parsers keep the first, the last, or fail), so the validator rejects the event
    /// rather than guess which value the sender meant.
    public var repeatedField: EventField?

    /// An event with no fields.
    public init() {}

    /// The value under `field`, or nil when the key was absent (of a repeated key, the last; see
    /// ``repeatedField``).
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
            case .price: priceValue
            case .currency: currencyValue
            case .appAccountToken: appAccountTokenValue
            case .app: appValue
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
            case .price: priceValue = newValue
            case .currency: currencyValue = newValue
            case .appAccountToken: appAccountTokenValue = newValue
            case .app: appValue = newValue
            }
        }
    }
}
