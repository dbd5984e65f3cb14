public import Foundation

/// What an attempt was doing: `purchase`, `restore`, `retry`, or another token of the app's.
public struct SLIAction: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The token sent as `actionType`.
    public let rawValue: String
    /// Creates an action from its token (`[a-zA-Z][a-zA-Z0-9_-]{0,31}`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates an action from a literal.
    public init(stringLiteral value: String) { rawValue = value }

    /// A purchase the user started.
    public static let purchase: SLIAction = "purchase"
    /// Restoring earlier purchases.
    public static let restore: SLIAction = "restore"
    /// Sending a transaction again (an unfinished one found at launch, a retried grant).
    public static let retry: SLIAction = "retry"
}

/// The outcome types of the event format.
public enum SLIResultType: String, Sendable, CaseIterable {
    case start, success, alreadyGranted, failure, cancel, pending
}

/// One event of the event format (v1), as the SDK queues and sends it. Apps record attempts
/// (``PurchaseSLI/begin(_:productID:planID:groupID:offerID:appAccountToken:)``); a grant server or an
/// importer may record events itself (``PurchaseSLI/record(_:)``).
public struct SLIEvent: Sendable, Hashable {
    /// The idempotency key: a UUID made when the event is recorded, never changed afterwards.
    public var eventID: String
    /// When the step happened.
    public var timestamp: Date
    /// Store product id.
    public var productID: String
    /// Server plan, subscription group, offer.
    public var planID: String?, groupID: String?, offerID: String?
    /// What the app was doing.
    public var actionType: SLIAction
    /// The step's outcome.
    public var resultType: SLIResultType
    /// HTTP status of the grant server's answer; 0 for no answer.
    public var statusCode: Int?
    /// Where the event comes from.
    public var appVersion: String?, platform: String?, osVersion: String?, variant: String?
    /// The store's transaction id; the UUID passed to the store as `appAccountToken`.
    public var transactionID: String?, appAccountToken: String?
    /// The attempt's duration so far, in milliseconds.
    public var durationMs: Int?
    /// Free text: the outcome, the server's answer, the error.
    public var resultDescription: String?, responseDescription: String?, errorDescription: String?
    /// The price the store showed and its ISO 4217 currency.
    public var price: Double?, currency: String?

    /// Creates an event with a new eventID.
    public init(
        eventID: String = UUID().uuidString.lowercased(), timestamp: Date = Date(), productID: String, actionType: SLIAction,
        resultType: SLIResultType
    ) {
        self.eventID = eventID
        self.timestamp = timestamp
        self.productID = productID
        self.actionType = actionType
        self.resultType = resultType
    }

    /// The event as one line of NDJSON (no line break).
    var jsonLine: String {
        var json = JSONObjectWriter()
        json.add("eventID", eventID)
        json.add("timestamp", RFC3339Text.format(millis: Int64((timestamp.timeIntervalSince1970 * 1000).rounded(.down))))
        json.add("productID", productID)
        json.add("planID", planID)
        json.add("groupID", groupID)
        json.add("offerID", offerID)
        json.add("actionType", actionType.rawValue)
        json.add("resultType", resultType.rawValue)
        json.add("statusCode", statusCode)
        json.add("appVersion", appVersion)
        json.add("platform", platform)
        json.add("osVersion", osVersion)
        json.add("variant", variant)
        json.add("transactionID", transactionID)
        json.add("appAccountToken", appAccountToken)
        json.add("durationMs", durationMs)
        json.add("resultDescription", resultDescription)
        json.add("responseDescription", responseDescription)
        json.add("errorDescription", errorDescription)
        if let price, price.isFinite { json.addNumber("price", "\(price)") }
        json.add("currency", currency)
        return json.closed
    }
}

/// A flat JSON object written key by key; absent values are left out.
struct JSONObjectWriter {
    private var text = "{"
    private var hasMembers = false

    mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        addRaw(key, Self.quoted(value))
    }

    mutating func add(_ key: String, _ value: Int?) {
        guard let value else { return }
        addRaw(key, String(value))
    }

    mutating func addNumber(_ key: String, _ number: String) { addRaw(key, number) }

    private mutating func addRaw(_ key: String, _ value: String) {
        if hasMembers { text += "," }
        hasMembers = true
        text += "\"" + key + "\":" + value
    }

    var closed: String { text + "}" }

    /// `value` as a JSON string literal.
    static func quoted(_ value: String) -> String {
        var output = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}

/// RFC 3339 text of a UTC time in milliseconds (`2026-11-14T09:30:00.250Z`), computed without a calendar.
enum RFC3339Text {
    static func format(millis: Int64) -> String {
        let (seconds, milli) = (millis.floorDiv(1000), millis - millis.floorDiv(1000) * 1000)
        let days = seconds.floorDiv(86_400), secondOfDay = seconds - days * 86_400
        // Howard Hinnant's civil_from_days.
        let shifted = days + 719_468
        let era = shifted.floorDiv(146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay % 3600 / 60, 2)):"
            + "\(pad(secondOfDay % 60, 2)).\(pad(milli, 3))Z"
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
