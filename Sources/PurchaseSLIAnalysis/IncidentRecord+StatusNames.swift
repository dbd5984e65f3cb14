import Foundation

extension IncidentRecord.Status {
    /// A value that names no status.
    public struct UnknownName: Error, Sendable, CustomStringConvertible {
        /// The value (its first 64 characters).
        public let value: String

        /// What was expected and what came.
        public var description: String { "expected open, resolved or settled (or several, comma-separated), got \"\(value)\"" }
    }

    /// The statuses `values` name, each value a status or a comma-separated list of them
    /// (`open,resolved`); nil when there is no value (every status).
    /// - Throws: ``UnknownName`` with the first value that names none.
    public static func named(_ values: [String]) throws(UnknownName) -> Set<Self>? {
        guard !values.isEmpty else { return nil }
        var statuses = Set<Self>()
        for name in values.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            guard let status = Self(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw UnknownName(value: String(name.prefix(64)))
            }
            statuses.insert(status)
        }
        return statuses
    }
}
