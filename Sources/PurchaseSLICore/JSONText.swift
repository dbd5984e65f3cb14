/// Minimal JSON text writing for the NDJSON that purchase-sli emits (events, rejects, query rows).
public enum JSONText {
    /// `text` as a JSON string literal, with quotes, escaping `"`, `\`, control characters, and U+2028/9.
    public static func quoted(_ text: String) -> String {
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

    /// A JSON number for a double: integers without a fraction, `null` when not finite.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

extension PurchaseEvent {
    /// The event as one line of NDJSON in the event format v1 (absent fields are left out).
    public var jsonLine: String {
        var fields = [
            "\"eventID\":" + JSONText.quoted(eventID),
            "\"timestamp\":\"" + RFC3339.format(millis: timestampMillis) + "\"",
            "\"productID\":" + JSONText.quoted(productID),
        ]
        func add(_ name: String, _ value: String?) {
            if let value { fields.append("\"\(name)\":" + JSONText.quoted(value)) }
        }
        add("planID", planID)
        add("groupID", groupID)
        add("offerID", offerID)
        add("actionType", actionType.rawValue)
        add("resultType", resultType.rawValue)
        if let statusCode { fields.append("\"statusCode\":\(statusCode)") }
        add("appVersion", appVersion)
        add("platform", platform)
        add("osVersion", osVersion)
        add("variant", variant)
        add("transactionID", transactionID)
        if let durationMs { fields.append("\"durationMs\":\(durationMs)") }
        add("resultDescription", resultDescription)
        add("responseDescription", responseDescription)
        add("errorDescription", errorDescription)
        if let price { fields.append("\"price\":" + JSONText.number(price)) }
        add("currency", currency)
        add("appAccountToken", appAccountToken)
        return "{" + fields.joined(separator: ",") + "}"
    }
}
