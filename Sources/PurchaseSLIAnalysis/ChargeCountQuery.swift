public import PurchaseSLICore

/// A count of the stores' charges (`query --of charges`, `GET /v1/query?of=charges`): the range, the time
/// step, the grouping, the filters, and the time grants are judged at. Times are whole minutes.
public struct ChargeCountQuery: Sendable, Hashable {
    /// Start of the range (seconds, inclusive).
    public var fromSeconds: Int64
    /// End of the range (seconds, exclusive).
    public var toSeconds: Int64
    /// When grants are judged: a charge granted after it counts as not granted.
    public var atSeconds: Int64
    /// The time step of the rows, or nil for one row per group over the whole range.
    public var stepSeconds: Int64?
    /// The dimensions the rows are grouped by, in order.
    public var groupBy: [ChargeCounts.Dimension]
    /// The values each filtered dimension may take (nil: no value).
    public var filters: [ChargeCounts.Dimension: Set<String?>]

    /// Parses the textual arguments shared by `purchase-sli query --of charges` and `GET /v1/query`; the
    /// error names the argument (`from`, `to`, `at`, `by`, `where`, `step`).
    ///
    /// - Parameters:
    ///   - from: start, in any form of ``TimeArgument`` (rounded down to its minute, as are `to` and `at`).
    ///   - to: end, exclusive.
    ///   - at: when grants are judged (nil: `now`).
    ///   - by: dimension names, comma-separated.
    ///   - filters: `DIM=VALUE` each (`DIM=` matches charges without a value).
    ///   - step: a whole number of minutes such as `5m`, `1h`, `1d`.
    ///   - nowSeconds: the clock that `now` and `now-7d` refer to.
    public init(
        from: String, to: String, at: String?, by: String?, filters: [String], step: String?, nowSeconds: Int64
    ) throws(QueryArgumentError) {
        func minute(_ text: String, _ name: String) throws(QueryArgumentError) -> Int64 {
            guard let time = TimeArgument(text, nowSeconds: nowSeconds) else {
                throw QueryArgumentError("\(name): expected \(TimeArgument.forms), got \"\(text)\"")
            }
            return time.seconds - time.seconds.floorDividedBy(.secondsPerMinute).remainder
        }
        func dimension(_ name: Substring, _ argument: String) throws(QueryArgumentError) -> ChargeCounts.Dimension {
            guard let dimension = ChargeCounts.Dimension(rawValue: String(name)) else {
                throw QueryArgumentError(
                    "\(argument): with charges expected one of "
                        + "\(ChargeCounts.Dimension.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(name)\"")
            }
            return dimension
        }
        fromSeconds = try minute(from, "from")
        toSeconds = try minute(to, "to")
        guard fromSeconds < toSeconds else { throw QueryArgumentError("from must be before to") }
        atSeconds = try minute(at ?? "now", "at")
        groupBy = []
        for name in (by ?? "").split(separator: ",") {
            let named = try dimension(name, "by")
            guard !groupBy.contains(named) else { throw QueryArgumentError("by: \(name) is named twice") }
            groupBy.append(named)
        }
        self.filters = [:]
        for filter in filters {
            guard let equals = filter.firstIndex(of: "=") else { throw QueryArgumentError("where: expected DIM=VALUE, got \"\(filter)\"") }
            let value = filter[filter.index(after: equals)...]
            self.filters[try dimension(filter[..<equals], "where"), default: []].insert(value.isEmpty ? nil : String(value))
        }
        stepSeconds = nil
        if let step {
            guard let parsed = TimeStep(parsing: step), parsed.seconds % .secondsPerMinute == 0, parsed.seconds > 0 else {
                throw QueryArgumentError("step: expected a whole number of minutes such as 5m, 1h or 1d, got \"\(step)\"")
            }
            guard (toSeconds - fromSeconds) / parsed.seconds <= 1_000_000 else {
                throw QueryArgumentError("step: \(step) makes more than a million time steps; use a larger step")
            }
            stepSeconds = parsed.seconds
        }
    }

    /// The rows of the ledger's charges (which must hold the range's) under `rule`.
    public func rows(ledger: ChargeLedger, rule: SLOPolicy.ReconciliationRule) -> [ChargeCounts.Row] {
        ChargeCounts.rows(
            ledger: ledger, rule: rule, fromSeconds: fromSeconds, toSeconds: toSeconds, stepSeconds: stepSeconds,
            groupBy: groupBy, filters: filters, atSeconds: atSeconds)
    }
}
