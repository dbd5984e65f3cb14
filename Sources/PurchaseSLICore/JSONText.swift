/// Minimal JSON text writing for the NDJSON that purchase-sli emits (events, rejects, query rows).
public enum JSONText {
    /// `text` as a JSON string literal, with quotes, escaping `"`, `\`, control characters, and U+2028/9.
    public static func quoted(_ text: String) -> String {
        // Most text needs no escape (ids, names): one copy.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 < 0x7F }) { return "\"" + text + "\"" }
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

    /// `texts` as a JSON array of string literals (``quoted(_:)``), in their order.
    public static func array(_ texts: some Sequence<String>) -> String {
        var output = "["
        for text in texts {
            if output.utf8.count > 1 { output += "," }
            output += quoted(text)
        }
        return output + "]"
    }

    /// A JSON number for a double: integers without a fraction, `null` when not finite.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

extension PurchaseEvent {
    /// The event as one line of NDJSON in the event format v1, its fields in ``EventField`` order (absent
    /// fields are left out).
    public var jsonLine: String {
        let fields = EventField.allCases.compactMap { field in jsonValue(of: field).map { "\"\(field.name)\":" + $0 } }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The JSON text of one field's value, or nil when the event has none.
    private func jsonValue(of field: EventField) -> String? {
        switch field {
        case .eventID: JSONText.quoted(eventID)
        case .timestamp: "\"" + RFC3339.format(millis: timestampMillis) + "\""
        case .statusCode: statusCode.map { String($0) }
        case .durationMs: durationMs.map { String($0) }
        case .transactionID: transactionID.map(JSONText.quoted)
        case .resultDescription: resultDescription.map(JSONText.quoted)
        case .responseDescription: responseDescription.map(JSONText.quoted)
        case .price: price.map(JSONText.number)
        case .currency: currency.map(JSONText.quoted)
        case .appAccountToken: appAccountToken.map(JSONText.quoted)
        case .productID, .planID, .groupID, .offerID, .actionType, .resultType, .appVersion, .platform, .osVersion, .variant,
            .errorDescription, .app:
            field.dimension.flatMap { value(of: $0) }.map(JSONText.quoted)
        }
    }
}
