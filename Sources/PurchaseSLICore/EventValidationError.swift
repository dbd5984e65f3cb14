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
