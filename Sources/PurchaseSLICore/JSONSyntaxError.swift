/// A JSON event record that is not well-formed JSON, or not a JSON object.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Byte offset in the record where the problem was found.
    public let offset: Int
    /// What was wrong, e.g. `expected ',' or '}' after a value`.
    public let message: String

    /// Creates an error at a byte offset.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "invalid JSON at byte \(offset + 1): \(message)" }
}
