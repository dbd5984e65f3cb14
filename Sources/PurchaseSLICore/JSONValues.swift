/// A time encoded as its RFC 3339 text in UTC: `"2026-11-19T14:00:00Z"`, with milliseconds only when
/// it has some (`"2026-11-19T14:00:00.250Z"`).
public struct JSONTime: Encodable, Sendable, Hashable {
    /// Milliseconds since the epoch.
    public let millis: Int64

    /// The time `seconds` after the epoch.
    public init(_ seconds: Int64) { millis = seconds * .millisPerSecond }

    /// The time `millis` milliseconds after the epoch.
    public init(millis: Int64) { self.millis = millis }

    /// The time `seconds` after the epoch, or nil (`null`) without one.
    public static func optional(_ seconds: Int64?) -> JSONTime? { seconds.map { JSONTime($0) } }

    /// Encodes the RFC 3339 text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(RFC3339.format(millis: millis))
    }
}

/// A JSON object whose members are values of one type under keys known at run time (labels, currencies,
/// actions), in the order given: a dictionary would order them by hash.
public struct JSONMembers<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The members, in the order they are written.
    public let members: [(key: String, value: Value)]

    /// The object of `members`, in their order. Inlinable, so that a caller's long list of rows builds its
    /// members without looking up the tuple's type at run time for each row.
    @inlinable public init(_ members: some Sequence<(String, Value)>) { self.members = members.map { (key: $0.0, value: $0.1) } }

    /// Encodes each member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        for member in members { try container.encode(member.value, forKey: JSONKey(member.key)) }
    }
}

/// A JSON object's key known only at run time (a label, a currency, an action).
public struct JSONKey: CodingKey, Sendable {
    /// The key.
    public let stringValue: String
    /// Always nil: the key of an object, never an index.
    public var intValue: Int? { nil }

    /// The key `text`.
    public init(_ text: String) { stringValue = text }
    /// The key `stringValue`.
    public init(stringValue: String) { self.stringValue = stringValue }
    /// Never: the key of an object, never an index.
    public init?(intValue: Int) { nil }
}
