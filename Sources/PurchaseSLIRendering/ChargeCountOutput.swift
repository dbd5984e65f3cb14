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

    /// `{"from", "to", "at", "by", "rows": [{…, "charges", …, "chargedAmounts": {"USD": 9.99}}]}`.
    public var json: String {
        func amounts(_ values: [String: Double]) -> String {
            "{" + values.sorted { $0.key < $1.key }.map { JSONText.quoted($0.key) + ":" + JSONText.number($0.value) }.joined(separator: ",") + "}"
        }
        let body = rows.map { row in
            var fields = hasStep ? ["\"time\":\"\(RFC3339.format(seconds: row.timeSeconds ?? 0))\""] : []
            fields += zip(groupBy, row.key).map { JSONText.quoted($0.rawValue) + ":" + ($1.map(JSONText.quoted) ?? "null") }
            fields += zip(Self.counterNames, counters(row)).map { "\"\($0)\":\($1)" }
            fields += [
                "\"chargedAmounts\":" + amounts(row.chargedAmounts), "\"ungrantedAmounts\":" + amounts(row.ungrantedAmounts),
                "\"refundedAmounts\":" + amounts(row.refundedAmounts),
            ]
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "{\"from\":\"\(RFC3339.format(seconds: fromSeconds))\",\"to\":\"\(RFC3339.format(seconds: toSeconds))\","
            + "\"at\":\"\(RFC3339.format(seconds: atSeconds))\",\"by\":[\(groupBy.map { JSONText.quoted($0.rawValue) }.joined(separator: ","))],"
            + "\"rows\":[\(body.joined(separator: ","))]}"
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
