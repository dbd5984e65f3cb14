/// Why one event was rejected: the field at fault and what was expected.
public struct EventValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The event field at fault (its JSON key), or `json` / `record` for a record that is not an event object.
    public let field: String
    /// What was wrong and what was expected.
    public let reason: String

    /// Creates an error for a field.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }

    static func missing(_ field: EventField) -> Self {
        Self(field: field.name, reason: "required field is missing")
    }

    static func wrongType(_ field: EventField, expected: String, got value: JSONFieldValue) -> Self {
        Self(field: field.name, reason: "expected \(expected), got \(value.typeName)")
    }

    /// The record is not well-formed JSON.
    public static func syntax(_ error: JSONSyntaxError) -> Self {
        Self(field: "json", reason: error.description)
    }

    /// The record is longer than the limit in force.
    public static func recordTooLong(limit: Int) -> Self {
        Self(field: "record", reason: "longer than the limit of \(limit) bytes")
    }
}

/// An accepted event and the problems of the optional fields left out of it.
public struct ValidatedEvent: Sendable, Hashable {
    /// The event, without the optional fields that were not valid.
    public var event: PurchaseEvent
    /// One per optional field left out: the field and what was expected.
    public var warnings: [EventValidationError]

    /// Creates a validated event.
    public init(event: PurchaseEvent, warnings: [EventValidationError]) {
        self.event = event
        self.warnings = warnings
    }
}
