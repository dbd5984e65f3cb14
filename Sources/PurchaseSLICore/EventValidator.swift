/// Turns the fields of a parsed JSON object into a ``PurchaseEvent``, enforcing the event format v1.
///
/// Fields are checked in a fixed order and the first problem is reported, so the same input always
/// gives the same error. The validator is pure: the wall clock comes in as ``now``.
public struct EventValidator: Sendable {
    /// Longest free-text description kept, in Unicode scalars; longer ones are truncated.
    public static let maximumDescriptionLength = 1024
    /// How far ahead of ``now`` a timestamp may be before it is rejected as in the future.
    public static let defaultFutureTolerance: Int64 = 5 * .millisPerMinute
    /// How the eventIDs purchase-sli computes for records without one begin; no sender's id may.
    public static let computedEventIDPrefix = "purchase-sli:"

    /// The current time in milliseconds since the epoch, against which future timestamps are judged.
    public var nowMillis: Int64
    /// Allowed clock skew into the future, in milliseconds.
    public var futureToleranceMillis: Int64
    /// Events older than this many milliseconds before ``nowMillis`` are rejected; nil accepts any age.
    public var maximumAgeMillis: Int64?

    /// Creates a validator judging timestamps against `nowMillis`.
    public init(nowMillis: Int64, futureToleranceMillis: Int64 = defaultFutureTolerance, maximumAgeMillis: Int64? = nil) {
        self.nowMillis = nowMillis
        self.futureToleranceMillis = futureToleranceMillis
        self.maximumAgeMillis = maximumAgeMillis
    }

    /// Validates one record's bytes: parses the JSON and checks every field.
    public func validate(record: UnsafeRawBufferPointer) -> Result<ValidatedEvent, EventValidationError> {
        var warnings: [EventValidationError] = []
        return Result { () throws(EventValidationError) in
            ValidatedEvent(event: try event(fromRecord: record, warnings: &warnings), warnings: warnings)
        }
    }

    /// The event in one record's bytes, or the first problem with a required field. An optional field
    /// that is not valid is left out of the event and its problem appended to `warnings`: the event
    /// still counts, as it would without the field.
    public func event(
        fromRecord record: UnsafeRawBufferPointer, warnings: inout [EventValidationError]
    ) throws(EventValidationError) -> PurchaseEvent {
        let raw: RawEvent
        do {
            raw = try EventJSONParser.parse(record)
        } catch {
            throw .syntax(error)
        }
        return try makeEvent(raw, warnings: &warnings)
    }

    /// Validates the known fields of one event object.
    public func validate(_ raw: RawEvent) -> Result<ValidatedEvent, EventValidationError> {
        var warnings: [EventValidationError] = []
        do {
            return .success(ValidatedEvent(event: try makeEvent(raw, warnings: &warnings), warnings: warnings))
        } catch {
            return .failure(error)
        }
    }

    private func makeEvent(_ raw: RawEvent, warnings: inout [EventValidationError]) throws(EventValidationError) -> PurchaseEvent {
        if let repeated = raw.repeatedField {
            throw EventValidationError(
                field: repeated.name, reason: "the key appears more than once in the event; send each field once")
        }
        let eventID = try eventID(raw)
        let timestamp = try timestampMillis(raw)
        if timestamp > nowMillis + futureToleranceMillis {
            throw EventValidationError(
                field: "timestamp",
                reason:
                    "timestamp in the future: \(RFC3339.format(millis: timestamp)) is more than \(futureToleranceMillis / .millisPerMinute) minutes "
                    + "after the receiving clock (\(RFC3339.format(millis: nowMillis)))")
        }
        if let maximumAgeMillis, timestamp < nowMillis - maximumAgeMillis {
            throw EventValidationError(
                field: "timestamp",
                reason:
                    "timestamp too old: \(RFC3339.format(millis: timestamp)) is more than \(TimeStep(seconds: maximumAgeMillis / .millisPerSecond)) "
                    + "before the receiving clock (\(RFC3339.format(millis: nowMillis)))")
        }
        let productID = try requiredString(raw, .productID)
        guard !productID.isEmpty else { throw EventValidationError(field: "productID", reason: "must not be empty") }
        try Self.checkIdentifier(productID, .productID, maximumLength: EventDimension.productID.maximumLength!)

        let actionText = try requiredString(raw, .actionType)
        guard ActionType.isValidToken(actionText) else {
            throw EventValidationError(
                field: "actionType",
                reason: "expected purchase, restore, retry or a token [a-zA-Z][a-zA-Z0-9_-]{0,31}, got \(quoted(actionText))")
        }
        let resultText = try requiredString(raw, .resultType)
        guard let resultType = ResultType(rawValue: resultText) else {
            throw EventValidationError(
                field: "resultType", reason: "expected one of \(ResultType.spellings), got \(quoted(resultText))")
        }
        var event = PurchaseEvent(
            eventID: eventID, timestampMillis: timestamp, productID: productID, actionType: ActionType(rawValue: actionText),
            resultType: resultType)
        for field in EventField.allCases {
            do {
                try readOptional(field, of: raw, into: &event)
            } catch {
                warnings.append(error)
            }
        }
        return event
    }

    /// Sets an optional field of `event` from `raw`; an error when its value is not valid (the caller keeps
    /// it as a warning and leaves the field out). Does nothing for the required fields, already read.
    private func readOptional(_ field: EventField, of raw: RawEvent, into event: inout PurchaseEvent) throws(EventValidationError) {
        switch field {
        case .eventID, .timestamp, .productID, .actionType, .resultType: return
        case .statusCode: event.statusCode = try statusCode(raw)
        case .transactionID: event.transactionID = try optionalIdentifier(raw, .transactionID, maximumLength: 128)
        case .durationMs: event.durationMs = try optionalInteger(raw, .durationMs, range: 0...(1 << 53))
        case .resultDescription: event.resultDescription = try optionalDescription(raw, .resultDescription)
        case .responseDescription: event.responseDescription = try optionalDescription(raw, .responseDescription)
        case .errorDescription: event.errorDescription = try optionalDescription(raw, .errorDescription)
        case .price: event.price = try price(raw)
        case .currency: event.currency = try currency(raw)
        case .appAccountToken: event.appAccountToken = try appAccountToken(raw)
        case .planID, .groupID, .offerID, .appVersion, .platform, .osVersion, .variant, .app:
            guard let dimension = field.dimension, let maximumLength = dimension.maximumLength else { return }
            event.setValue(try optionalIdentifier(raw, field, maximumLength: maximumLength), of: dimension)
        }
    }

    /// A price from 0 to 1,000,000 with its currency; a price without a currency says nothing.
    private func price(_ raw: RawEvent) throws(EventValidationError) -> Double? {
        switch raw[.price] {
        case nil, .null: return nil
        case .number(let value):
            guard value.isFinite, value >= 0, value <= 1_000_000 else {
                throw EventValidationError(field: "price", reason: "expected a number from 0 to 1000000, got \(formatNumber(value))")
            }
            guard (try? currency(raw)) ?? nil != nil else {
                throw EventValidationError(field: "price", reason: "a price needs its currency (an ISO 4217 code such as USD)")
            }
            return value
        case let other?:
            throw .wrongType(.price, expected: "a number or null", got: other)
        }
    }

    /// A UUID in its usual text form (8-4-4-4-12 hexadecimal digits, either case), lowercased: StoreKit
    /// prints it in capitals and the App Store's notifications in small letters.
    private func appAccountToken(_ raw: RawEvent) throws(EventValidationError) -> String? {
        guard let text = try optionalString(raw, .appAccountToken) else { return nil }
        guard let token = AppAccountToken.normalized(text) else {
            throw EventValidationError(
                field: "appAccountToken",
                reason: "expected a UUID such as 5f3b2c1a-7d4e-4f60-9a8b-0c1d2e3f4a5b, got \(quoted(text))")
        }
        return token
    }

    /// An ISO 4217 currency code: three capital letters.
    private func currency(_ raw: RawEvent) throws(EventValidationError) -> String? {
        guard let text = try optionalString(raw, .currency) else { return nil }
        guard text.utf8.count == 3, text.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
            throw EventValidationError(
                field: "currency", reason: "expected an ISO 4217 code of three capital letters such as USD, got \(quoted(text))")
        }
        return text
    }

    /// An HTTP status from 100 to 599, or 0: what mobile networking code reports when no response came
    /// (a timeout, no connection, a TLS failure), exactly the failures that must not be lost.
    private func statusCode(_ raw: RawEvent) throws(EventValidationError) -> Int? {
        guard let code = try optionalInteger(raw, .statusCode, range: 0...599) else { return nil }
        guard code == 0 || code >= 100 else {
            throw EventValidationError(
                field: "statusCode", reason: "expected 0 (no response) or a whole number from 100 to 599, got \(code)")
        }
        return Int(code)
    }

    private func timestampMillis(_ raw: RawEvent) throws(EventValidationError) -> Int64 {
        if let millis = raw.timestampMillis { return millis }
        let text = try requiredString(raw, .timestamp)
        guard let millis = RFC3339.parseMillis(text) else {
            throw EventValidationError(
                field: "timestamp",
                reason: "expected an RFC 3339 time with offset, e.g. 2026-11-14T09:30:00Z, got \(quoted(text))")
        }
        return millis
    }

    /// The event's own eventID, else the one its decoder computed; an id of the sender's may not begin
    /// with ``computedEventIDPrefix``, or a sender could claim the id of another sender's record.
    private func eventID(_ raw: RawEvent) throws(EventValidationError) -> String {
        if let computed = raw.computedEventID, raw[.eventID] == nil || raw[.eventID] == .null { return computed }
        let eventID = try requiredString(raw, .eventID)
        guard !eventID.isEmpty, eventID.utf8.count <= 128, Self.isValidEventID(eventID) else {
            throw EventValidationError(
                field: "eventID", reason: "expected 1–128 characters of A–Z a–z 0–9 . _ : -, got \(quoted(eventID))")
        }
        guard !eventID.hasPrefix(Self.computedEventIDPrefix) else {
            throw EventValidationError(
                field: "eventID",
                reason: "eventIDs beginning with \(Self.computedEventIDPrefix) are reserved for the ids purchase-sli computes for "
                    + "records that name none; send an id of your own (a UUID) or none, got \(quoted(eventID))")
        }
        return eventID
    }

    private func requiredString(_ raw: RawEvent, _ field: EventField) throws(EventValidationError) -> String {
        switch raw[field] {
        case .string(let text): return text
        case nil: throw .missing(field)
        case .null: throw EventValidationError(field: field.name, reason: "required field is null")
        case let other?: throw .wrongType(field, expected: "a string", got: other)
        }
    }

    private func optionalString(_ raw: RawEvent, _ field: EventField) throws(EventValidationError) -> String? {
        switch raw[field] {
        case nil, .null: return nil
        case .string(let text): return text
        case let other?: throw .wrongType(field, expected: "a string or null", got: other)
        }
    }

    /// An optional identifier; the empty string counts as absent.
    private func optionalIdentifier(
        _ raw: RawEvent, _ field: EventField, maximumLength: Int
    ) throws(EventValidationError) -> String? {
        guard let text = try optionalString(raw, field), !text.isEmpty else { return nil }
        try Self.checkIdentifier(text, field, maximumLength: maximumLength)
        return text
    }

    /// Checks an identifier field's value: at most `maximumLength` Unicode scalars, no control characters;
    /// the error names `field`.
    public static func checkIdentifier(_ text: String, _ field: EventField, maximumLength: Int) throws(EventValidationError) {
        let isPrintableASCII = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.count <= maximumLength && !bytes.contains { $0 < 0x20 || $0 >= 0x7F }
        }
        if isPrintableASCII == true { return }
        var length = 0
        for scalar in text.unicodeScalars {
            length += 1
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                throw EventValidationError(field: field.name, reason: "must not contain control characters")
            }
        }
        if length > maximumLength {
            throw EventValidationError(
                field: field.name, reason: "longer than \(maximumLength) characters (\(length))")
        }
    }

    private func optionalDescription(_ raw: RawEvent, _ field: EventField) throws(EventValidationError) -> String? {
        guard let text = try optionalString(raw, field) else { return nil }
        let scalars = text.unicodeScalars
        guard text.utf8.count > Self.maximumDescriptionLength,
            let cut = scalars.index(scalars.startIndex, offsetBy: Self.maximumDescriptionLength, limitedBy: scalars.endIndex),
            cut != scalars.endIndex
        else { return text }
        return String(scalars[..<cut])
    }

    private func optionalInteger(
        _ raw: RawEvent, _ field: EventField, range: ClosedRange<Int64>
    ) throws(EventValidationError) -> Int64? {
        switch raw[field] {
        case nil, .null: return nil
        case .number(let value):
            guard value.isFinite, value.rounded() == value else {
                throw EventValidationError(field: field.name, reason: "expected a whole number, got \(value)")
            }
            guard value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
                throw EventValidationError(
                    field: field.name,
                    reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(formatNumber(value))")
            }
            return Int64(value)
        case let other?:
            throw .wrongType(field, expected: "a whole number or null", got: other)
        }
    }

    private func formatNumber(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private func quoted(_ text: String) -> String {
        let shown = text.unicodeScalars.count > 80 ? String(text.unicodeScalars.prefix(80)) + "…" : text
        return "\"" + shown.unicodeScalars.map { $0.value < 0x20 ? $0.escaped(asASCII: true) : String($0) }.joined() + "\""
    }

    private static func isValidEventID(_ eventID: String) -> Bool {
        var copy = eventID
        return copy.withUTF8 { bytes in
            for byte in bytes where !eventIDBytes[Int(byte)] { return false }
            return true
        }
    }

    /// Whether each byte value may appear in an eventID: A–Z a–z 0–9 . _ : -
    private static let eventIDBytes: [Bool] = (0...255).map { value in
        let byte = UInt8(value)
        return byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
    }
}
