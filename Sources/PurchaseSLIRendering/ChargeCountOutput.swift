public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// `query --of charges` as a table, JSON or CSV: per group, charges, those expecting a grant, granted,
/// not granted, refunds, and the amounts per currency.
public struct ChargeCountOutput: Sendable {
    /// The rows.
    public let rows: [ChargeCounts.Row]
    /// What they are grouped by.
    public let groupBy: [ChargeCounts.Dimension]
    /// Whether they are per time step.
    public let hasStep: Bool
    /// The start of the range.
    public let fromSeconds: Int64
    /// The end of the range.
    public let toSeconds: Int64
    /// The time grants are judged at.
    public let atSeconds: Int64

    /// Output for the rows `query` counted.
    public init(query: ChargeCountQuery, rows: [ChargeCounts.Row]) {
        self.rows = rows
        groupBy = query.groupBy
        hasStep = query.stepSeconds != nil
        fromSeconds = query.fromSeconds
        toSeconds = query.toSeconds
        atSeconds = query.atSeconds
    }

    private static let counterNames = ["charges", "expectingGrant", "granted", "ungranted", "refunds"]

    private func counters(_ row: ChargeCounts.Row) -> [Int64] {
        [row.charges, row.expectingGrant, row.granted, row.ungranted, row.refunds]
    }

    /// "149.70 USD + 12.00 EUR", or "".
    private static func money(_ amounts: [String: Double]) -> String {
        amounts.sorted { $0.key < $1.key }.map { NumberText.money($0.value, currency: $0.key) }.joined(separator: " + ")
    }

    /// Aligned columns for the terminal.
    public func table(zone: TimeZoneOffsets = .utc) -> String {
        guard !rows.isEmpty else {
            return "no store charges or refunds from \(zone.timestamp(fromSeconds)) to \(zone.timestamp(toSeconds))\n"
        }
        let header =
            (hasStep ? ["time"] : []) + groupBy.map(\.rawValue)
            + ["charges", "expecting grant", "granted", "not granted", "refunds", "charged", "not granted (amount)", "refunded"]
        let body = rows.map { row in
            (hasStep ? [zone.timestamp(row.timeSeconds ?? 0)] : []) + row.key.map { TerminalText.sanitized($0 ?? "-") }
                + counters(row).map(String.init)
                + [Self.money(row.chargedAmounts), Self.money(row.ungrantedAmounts), Self.money(row.refundedAmounts)]
        }
        let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max()! }
        let numericFrom = (hasStep ? 1 : 0) + groupBy.count
        func line(_ cells: [String]) -> String {
            let joined = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column >= numericFrom ? padding + cell : cell + padding
            }.joined(separator: "  ")
            // Empty amount cells at the end would leave the line padded with spaces.
            return String(joined.reversed().drop { $0 == " " }.reversed())
        }
        return ([line(header)] + body.map(line)).joined(separator: "\n")
            + "\n(not granted: expecting a grant, past the grace time at \(zone.timestamp(atSeconds)), no grant)\n"
    }

    /// `{"from", "to", "at", "by", "rows": [{"time" (with a step), each dimension of "by", "charges",
    /// "expectingGrant", "granted", "ungranted", "refunds", "chargedAmounts": {"USD": 9.99},
    /// "ungrantedAmounts", "refundedAmounts"}]}`.
    public var json: String {
        struct Counts: Encodable {
            let from: JSONTime
            let to: JSONTime
            let at: JSONTime
            let by: [String]
            let rows: [JSONMembers<JSONCell>]
        }
        let rows = rows.map { row in
            var cells: [(String, JSONCell)] = hasStep ? [("time", .text(RFC3339.format(seconds: row.timeSeconds ?? 0)))] : []
            cells += zip(groupBy, row.key).map { ($0.rawValue, $1.map(JSONCell.text) ?? .null) }
            cells += zip(Self.counterNames, counters(row)).map { ($0, .integer($1)) }
            cells += [
                ("chargedAmounts", .amounts(row.chargedAmounts)), ("ungrantedAmounts", .amounts(row.ungrantedAmounts)),
                ("refundedAmounts", .amounts(row.refundedAmounts)),
            ]
            return JSONMembers(cells)
        }
        return JSONTextEncoder.text(
            Counts(from: JSONTime(fromSeconds), to: JSONTime(toSeconds), at: JSONTime(atSeconds), by: groupBy.map(\.rawValue), rows: rows))
    }

    /// One line per row and currency of any amount (a row without amounts once).
    public var csv: String {
        let header =
            (hasStep ? ["time"] : []) + groupBy.map(\.rawValue) + Self.counterNames
            + ["currency", "chargedAmount", "ungrantedAmount", "refundedAmount"]
        var lines = [header.joined(separator: ",")]
        for row in rows {
            let head = (hasStep ? [RFC3339.format(seconds: row.timeSeconds ?? 0)] : []) + row.key.map { $0 ?? "" } + counters(row).map(String.init)
            let currencies = Set(row.chargedAmounts.keys).union(row.ungrantedAmounts.keys).union(row.refundedAmounts.keys).sorted()
            for currency in currencies.isEmpty ? [nil] : currencies.map(Optional.some) {
                let money =
                    currency.map {
                        [
                            $0, JSONText.number(row.chargedAmounts[$0] ?? 0), JSONText.number(row.ungrantedAmounts[$0] ?? 0),
                            JSONText.number(row.refundedAmounts[$0] ?? 0),
                        ]
                    } ?? ["", "", "", ""]
                lines.append((head + money).map(QueryOutput.csvCell).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
