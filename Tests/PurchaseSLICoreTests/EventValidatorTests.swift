import PurchaseSLICore
import Testing

/// A valid event to start from; each case changes one field.
private let base: [String: String] = [
    "eventID": "\"3f1c2a9e-1b7d-4c55-9a0e-2f4b6d8e0a11\"",
    "timestamp": "\"2026-11-14T09:30:00Z\"",
    "productID": "\"coins_100\"",
    "actionType": "\"purchase\"",
    "resultType": "\"success\"",
]

private func record(_ changes: [String: String?]) -> String {
    var fields = base
    for (key, value) in changes { fields[key] = value }
    return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
}

private let now = RFC3339.parseMillis("2026-11-21T12:00:00Z")!

private func validateWithWarnings(_ text: String) -> Result<ValidatedEvent, EventValidationError> {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBytes { EventValidator(nowMillis: now).validate(record: UnsafeRawBufferPointer($0)) }
}

private func validate(_ text: String) -> Result<PurchaseEvent, EventValidationError> {
    validateWithWarnings(text).map(\.event)
}

@Suite struct EventValidatorTests {
    @Test func acceptsAMinimalEvent() throws {
        let event = try validate(record([:])).get()
        #expect(event.eventID == "3f1c2a9e-1b7d-4c55-9a0e-2f4b6d8e0a11")
        #expect(event.timestampMillis == RFC3339.parseMillis("2026-11-14T09:30:00Z"))
        #expect(event.actionType == .purchase && event.resultType == .success && event.planID == nil)
    }

    @Test func readsEveryOptionalField() throws {
        let event = try validate(
            record([
                "planID": "\"coins-small\"", "groupID": "\"premium\"", "offerID": "\"intro-7d\"", "statusCode": "409",
                "appVersion": "\"4.12.0\"", "platform": "\"iOS\"", "osVersion": "\"18.1\"", "variant": "\"storekit2\"",
                "transactionID": "\"2000000123\"", "durationMs": "1234", "resultDescription": "\"ok\"",
                "responseDescription": "\"already granted\"", "errorDescription": "null", "unknownField": "{\"a\":[1,2]}",
                "app": "\"com.example.coins\"",
            ])
        ).get()
        #expect(event.app == "com.example.coins" && event.value(of: .app) == "com.example.coins")
        #expect(event.planID == "coins-small" && event.groupID == "premium" && event.offerID == "intro-7d")
        #expect(event.statusCode == 409 && event.isConflict && event.durationMs == 1234)
        #expect(event.appVersion == "4.12.0" && event.platform == "iOS" && event.osVersion == "18.1")
        #expect(event.variant == "storekit2" && event.transactionID == "2000000123")
        #expect(event.resultDescription == "ok" && event.responseDescription == "already granted")
        #expect(event.errorDescription == nil)
    }

    /// An event with every field set, written as JSON and validated again, is the same event: every field of
    /// the format is both written and read (a field added to one but not the other breaks this).
    @Test func anEventWithEveryFieldRoundTripsThroughItsJSONLine() throws {
        let event = PurchaseEvent(
            eventID: "e-1", timestampMillis: now - 1000, productID: "premium_monthly", planID: "pro-monthly", groupID: "premium",
            offerID: "intro-7d", actionType: .restore, resultType: .alreadyGranted, statusCode: 409, appVersion: "4.12.0",
            platform: "iOS", osVersion: "18.1", variant: "storekit2", transactionID: "2000000123", durationMs: 1234,
            resultDescription: "granted before", responseDescription: "409 already granted", errorDescription: "already \"granted\"",
            price: 9.99, currency: "USD", appAccountToken: "5f3b2c1a-7d4e-4f60-9a8b-0c1d2e3f4a5b", app: "com.example.coins")
        let validated = try validateWithWarnings(event.jsonLine).get()
        #expect(validated.warnings.isEmpty)
        #expect(validated.event == event)
        for field in EventField.allCases { #expect(event.jsonLine.contains("\"\(field.name)\":"), "\(field) is written") }
    }

    /// Each case: the changed fields, the field reported, and a part of the reason.
    @Test(
        arguments: [
            (["eventID": nil], "eventID", "required field is missing"),
            (["eventID": "null"], "eventID", "required field is null"),
            (["eventID": "42"], "eventID", "expected a string, got a number"),
            (["eventID": "\"\""], "eventID", "expected 1–128 characters"),
            (["eventID": "\"has space\""], "eventID", "expected 1–128 characters"),
            (["eventID": "\"" + String(repeating: "a", count: 129) + "\""], "eventID", "expected 1–128 characters"),
            (["timestamp": nil], "timestamp", "required field is missing"),
            (["timestamp": "\"2026-11-14 09:30:00\""], "timestamp", "expected an RFC 3339 time"),
            (["timestamp": "\"2026-11-14T09:30:00\""], "timestamp", "expected an RFC 3339 time"),
            (["timestamp": "\"2026-02-30T09:30:00Z\""], "timestamp", "expected an RFC 3339 time"),
            (["timestamp": "1763112600"], "timestamp", "expected a string, got a number"),
            (["timestamp": "\"2026-11-21T12:06:00Z\""], "timestamp", "timestamp in the future"),
            (["productID": nil], "productID", "required field is missing"),
            (["productID": "\"\""], "productID", "must not be empty"),
            (["productID": "\"coins\\u0007\""], "productID", "control characters"),
            (["productID": "\"" + String(repeating: "p", count: 256) + "\""], "productID", "longer than 255 characters"),
            (["actionType": "\"buy now\""], "actionType", "expected purchase, restore, retry or a token"),
            (["actionType": "\"9lives\""], "actionType", "expected purchase, restore, retry or a token"),
            (["resultType": "\"ok\""], "resultType", "expected one of start, success, alreadyGranted"),
            (["resultType": "\"Success\""], "resultType", "expected one of start, success, alreadyGranted"),
        ] as [([String: String?], String, String)])
    func rejectsWithTheFieldAndReason(changes: [String: String?], field: String, reason: String) {
        switch validate(record(changes)) {
        case .success: Issue.record("expected \(field) to be rejected")
        case .failure(let error):
            #expect(error.field == field)
            #expect(error.reason.contains(reason), "reason was: \(error.reason)")
        }
    }

    /// An optional field that is not valid is left out with a warning naming it; the event is kept, so
    /// a bad `planID` does not lose the purchase it describes.
    @Test(
        arguments: [
            (["planID": "\"" + String(repeating: "p", count: 256) + "\""], "planID", "longer than 255 characters"),
            (["planID": "7"], "planID", "expected a string or null, got a number"),
            (["statusCode": "99"], "statusCode", "expected 0 (no response) or a whole number from 100 to 599, got 99"),
            (["statusCode": "600"], "statusCode", "from 0 to 599, got 600"),
            (["statusCode": "200.5"], "statusCode", "expected a whole number"),
            (["statusCode": "\"200\""], "statusCode", "expected a whole number or null, got a string"),
            (["durationMs": "-1"], "durationMs", "from 0 to"),
            (["durationMs": "true"], "durationMs", "got a boolean"),
            (["appVersion": "\"" + String(repeating: "9", count: 65) + "\""], "appVersion", "longer than 64 characters"),
            (["variant": "[]"], "variant", "got an array"),
            (["app": "\"" + String(repeating: "a", count: 256) + "\""], "app", "longer than 255 characters"),
            (["app": "7"], "app", "expected a string or null, got a number"),
            (["transactionID": "\"" + String(repeating: "1", count: 129) + "\""], "transactionID", "longer than 128"),
            (["errorDescription": "{}"], "errorDescription", "got an object"),
            (["offerID": "\"intro\\u0007\"", "groupID": "\"premium\""], "offerID", "control characters"),
        ] as [([String: String?], String, String)])
    func leavesOutAnInvalidOptionalFieldWithAWarning(changes: [String: String?], field: String, reason: String) throws {
        let validated = try validateWithWarnings(record(changes)).get()
        #expect(validated.warnings.map(\.field) == [field])
        #expect(validated.warnings.first?.reason.contains(reason) == true, "reason was: \(validated.warnings)")
        #expect(validated.event.productID == "coins_100" && validated.event.resultType == .success)
        #expect(validated.event.planID == nil && validated.event.statusCode == nil && validated.event.durationMs == nil)
        #expect(validated.event.appVersion == nil && validated.event.variant == nil && validated.event.errorDescription == nil)
        #expect(validated.event.app == nil)
        if changes["groupID"] != nil { #expect(validated.event.groupID == "premium", "the valid fields beside it stay") }
    }

    /// A price with its ISO 4217 currency is kept; a bad one is left out with a warning, and a price
    /// without a currency says nothing.
    @Test(
        arguments: [
            (["price": "9.99", "currency": "\"USD\""], 9.99, "USD", nil),
            (["price": "0", "currency": "\"JPY\""], 0, "JPY", nil),
            (["currency": "\"EUR\""], nil, "EUR", nil),
            (["price": "9.99"], nil, nil, "price"),
            (["price": "-1", "currency": "\"USD\""], nil, "USD", "price"),
            (["price": "\"9.99\"", "currency": "\"USD\""], nil, "USD", "price"),
            (["price": "2000000", "currency": "\"USD\""], nil, "USD", "price"),
            (["price": "9.99", "currency": "\"usd\""], nil, nil, "currency"),
            (["price": "9.99", "currency": "\"US$\""], nil, nil, "currency"),
        ] as [([String: String?], Double?, String?, String?)])
    func readsAPriceWithItsCurrency(changes: [String: String?], price: Double?, currency: String?, warned: String?) throws {
        let validated = try validateWithWarnings(record(changes)).get()
        #expect(validated.event.price == price && validated.event.currency == currency)
        // A bad currency also leaves the price without one: both are named.
        #expect(
            validated.warnings.map(\.field) == (warned == "currency" ? ["price", "currency"] : warned.map { [$0] } ?? []),
            "\(validated.warnings)")
        #expect(validated.event.productID == "coins_100")
    }

    /// Mobile networking code writes 0 for "no response" (a timeout, no connection, a TLS failure):
    /// exactly the failures that must be counted.
    @Test func statusCodeZeroIsNoResponseAndKept() throws {
        let validated = try validateWithWarnings(record(["statusCode": "0", "resultType": "\"failure\""])).get()
        #expect(validated.warnings.isEmpty && validated.event.statusCode == 0)
        #expect(!validated.event.isConflict)
    }

    @Test(arguments: ["purchase", "restore", "retry", "subscribe", "upgrade_plan", "a-b"])
    func keepsAnyActionToken(action: String) throws {
        #expect(try validate(record(["actionType": "\"\(action)\""])).get().actionType.rawValue == action)
    }

    @Test func acceptsEventsOfAnyAgeAndSlightlyAhead() throws {
        _ = try validate(record(["timestamp": "\"2019-01-01T00:00:00Z\""])).get()
        _ = try validate(record(["timestamp": "\"2026-11-21T12:04:59+00:00\""])).get()
    }

    @Test func truncatesLongDescriptionsToTheirFirst1024Characters() throws {
        let long = String(repeating: "é", count: 1500)
        let event = try validate(record(["errorDescription": "\"\(long)\""])).get()
        #expect(event.errorDescription?.unicodeScalars.count == 1024)
        #expect(event.errorDescription == String(repeating: "é", count: 1024))
    }

    @Test func treatsEmptyOptionalIdentifiersAsAbsent() throws {
        #expect(try validate(record(["planID": "\"\""])).get().planID == nil)
    }

    /// A repeated known key makes the event ambiguous (JSON parsers keep the first, the last, or fail):
    /// it is rejected naming the key; a repeated unknown key is ignored like the key itself.
    @Test func rejectsARepeatedKnownKeyNamingIt() throws {
        let repeated =
            #"{"eventID":"a","timestamp":"2026-11-14T09:30:00Z","productID":"coins_100","actionType":"purchase","resultType":"failure","resultType":"success"}"#
        guard case .failure(let error) = validate(repeated) else {
            Issue.record("a repeated resultType was accepted")
            return
        }
        #expect(error.field == "resultType" && error.reason.contains("appears more than once"))
        let unknownTwice =
            #"{"eventID":"a","timestamp":"2026-11-14T09:30:00Z","productID":"p","actionType":"purchase","resultType":"success","x":1,"x":2}"#
        #expect(try validate(unknownTwice).get().productID == "p")
    }

    @Test func reportsMalformedJSONAsTheJSONField() {
        guard case .failure(let error) = validate("{\"eventID\": }") else {
            Issue.record("malformed JSON accepted")
            return
        }
        #expect(error.field == "json")
        #expect(error.reason.contains("expected a value"))
    }
}

@Suite struct EventFieldTests {
    @Test func everyKeyFindsItsFieldAndNearMissesFindNone() {
        for field in EventField.allCases {
            let found = Array(field.name.utf8).withUnsafeBytes { EventField(key: $0) }
            #expect(found == field)
        }
        for nearMiss in ["eventId", "EventID", "planIDs", "timestamps", "", "x", "errordescription"] {
            #expect(Array(nearMiss.utf8).withUnsafeBytes { EventField(key: $0) } == nil, "\(nearMiss)")
        }
    }
}
