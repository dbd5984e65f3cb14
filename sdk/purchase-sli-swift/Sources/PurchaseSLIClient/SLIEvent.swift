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
    /// A transaction StoreKit delivered outside a purchase call (`Transaction.updates`): Ask to Buy
    /// approved, a purchase on another device, an offer code redeemed, a renewal completed in the background.
    public static let update: SLIAction = "update"
}

/// The outcome types of the event format (`resultType`): one step of an attempt.
public enum SLIResultType: String, Sendable, Hashable, CaseIterable {
    /// An attempt began.
    case start
    /// The grant server granted the purchase.
    case success
    /// The grant server answered 409: granted before; counted as a success.
    case alreadyGranted
    /// The attempt failed (store error, verification, the grant server's status or no answer).
    case failure
    /// The user cancelled (or the store reported a cancel).
    case cancel
    /// Waiting for approval (Ask to Buy, a bank's confirmation): neither success nor failure.
    case pending
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
    /// The app's bundle id (``SLIConfiguration/app`` when not set).
    public var app: String?
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

    /// The event as one line of NDJSON in the event format v1 (no line break): what the SDK queues and
    /// sends, and what `purchase-sli ingest` reads from a file.
    public var jsonLine: String {
        var json = JSONObjectWriter()
        json.add("eventID", eventID)
        json.add("timestamp", timestamp.formatted(Self.timestampStyle))
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
        if let price, price.isFinite { json.addNumber("price", Self.jsonNumber(price)) }
        json.add("currency", currency)
        json.add("app", app)
        return json.closed
    }

    /// RFC 3339 in UTC with milliseconds (truncated), as the service reads `timestamp`.
    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(secondsFromGMT: 0)!)

    /// A finite number as JSON: whole numbers without a fraction.
    private static func jsonNumber(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
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

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, and U+2028,
    /// U+2029 and DEL as `\u` escapes (some JavaScript readers take them for line breaks).
    static func quoted(_ text: String) -> String {
        var output = "\""
        output.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
