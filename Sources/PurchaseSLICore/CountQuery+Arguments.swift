/// A query argument that cannot be understood, with what was expected.
public struct QueryArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message, naming the argument (`from`, `to`, `by`, `where`, `step`).
    public let message: String

    /// Creates an error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension CountQuery {
    /// Parses the textual arguments shared by `purchase-sli query` and `GET /v1/query`.
    ///
    /// - Parameters:
    ///   - from: start, in any form of ``TimeArgument``.
    ///   - to: end, exclusive.
    ///   - by: dimension names, comma-separated.
    ///   - filters: `DIM=VALUE` each (`DIM=` matches events without a value).
    ///   - step: a whole number of minutes such as `5m`, `1h`, `1d`.
    ///   - nowSeconds: the clock that `now` and `now-7d` refer to.
    public init(
        from: String, to: String, by: String?, filters: [String], step: String?, nowSeconds: Int64
    ) throws(QueryArgumentError) {
        guard let fromTime = TimeArgument(from, nowSeconds: nowSeconds) else {
            throw QueryArgumentError("from: expected \(TimeArgument.forms), got \"\(from)\"")
        }
        guard let toTime = TimeArgument(to, nowSeconds: nowSeconds) else {
            throw QueryArgumentError("to: expected \(TimeArgument.forms), got \"\(to)\"")
        }
        guard fromTime.seconds < toTime.seconds else { throw QueryArgumentError("from must be before to") }
        var groupBy: [EventDimension] = []
        for name in (by ?? "").split(separator: ",").map(trimmingSpaces) where !name.isEmpty {
            guard let dimension = EventDimension(name: name) else {
                throw QueryArgumentError("by: unknown dimension \"\(name)\"; expected one of \(EventDimension.spellings)")
            }
            guard !groupBy.contains(dimension) else { throw QueryArgumentError("by: \(name) is named twice") }
            groupBy.append(dimension)
        }
        var filterValues: [EventDimension: Set<String?>] = [:]
        for filter in filters {
            guard let equals = filter.firstIndex(of: "="), let dimension = EventDimension(name: String(filter[..<equals])) else {
                throw QueryArgumentError(
                    "where: expected DIM=VALUE with DIM one of \(EventDimension.spellings), got \"\(filter)\"")
            }
            let value = String(filter[filter.index(after: equals)...])
            if dimension == .resultType, ResultType(rawValue: value) == nil {
                throw QueryArgumentError("where resultType: expected one of \(ResultType.spellings), got \"\(value)\"")
            }
            filterValues[dimension, default: []].insert(value.isEmpty ? nil : value)
        }
        var timeStep: TimeStep?
        if let step {
            guard let parsed = TimeStep(parsing: step), parsed.seconds % .secondsPerMinute == 0 else {
                throw QueryArgumentError("step: expected a whole number of minutes such as 5m, 1h or 1d, got \"\(step)\"")
            }
            guard (toTime.seconds - fromTime.seconds) / parsed.seconds <= 1_000_000 else {
                throw QueryArgumentError("step: \(step) makes more than a million time steps; use a larger step")
            }
            timeStep = parsed
        }
        self.init(
            fromSeconds: fromTime.seconds, toSeconds: toTime.seconds, step: timeStep, groupBy: groupBy, filters: filterValues)
    }
}

private func trimmingSpaces(_ text: Substring) -> String {
    String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
}
