import Foundation
import PurchaseSLIAnalysis
public import PurchaseSLIApplication
public import PurchaseSLICore

/// Renders query rows as a table, JSON or CSV.
public struct QueryOutput: Sendable {
    /// One output row: its time step, key and count, and the outcome counters when they apply.
    private struct Row {
        var timeSeconds: Int64?
        var key: [String?]
        var count: Int64
        var counts: OutcomeCounts?
    }

    /// The query the rows answer.
    public let query: CountQuery
    private let rows: [Row]
    /// Whether rows carry the outcome counters (not when grouped by result or about error descriptions).
    private let hasCounters: Bool

    /// Output for outcome counts.
    public init(query: CountQuery, rows: [CountRow]) {
        self.query = query
        hasCounters = !query.groupsByResult
        self.rows = rows.map {
            Row(timeSeconds: $0.timeSeconds, key: $0.key, count: $0.counts.total, counts: query.groupsByResult ? nil : $0.counts)
        }
    }

    /// Output for what ``CountQuerying`` answered to `query`.
    public init(query: CountQuery, answer: CountAnswer) {
        switch answer {
        case .outcomes(let rows): self.init(query: query, rows: rows)
        case .errors(let rows): self.init(query: query, errorRows: rows)
        }
    }

    /// Output for error-description counts.
    public init(query: CountQuery, errorRows: [ErrorCountRow]) {
        self.query = query
        hasCounters = false
        rows = errorRows.map { Row(timeSeconds: $0.timeSeconds, key: $0.key, count: $0.events, counts: nil) }
    }

    private var counterNames: [String] {
        [
            "attempts", "success", "alreadyGranted", "failure", "cancel", "pending", "valid", "successRate", "cancelRate",
            "count409", "count5xx",
        ]
    }

    private func counterCells(_ counts: OutcomeCounts) -> [JSONCell] {
        [counts.attempts, counts.success, counts.alreadyGranted, counts.failure, counts.cancel, counts.pending, counts.valid].map(JSONCell.integer)
            + [.number(counts.successRate), .number(RateMetric.cancelRate.rate(counts)), .integer(counts.conflicts), .integer(counts.serverErrors)]
    }

    /// `{"from", "to", "step", "by", "rows": [...]}` as documented in docs/http-api.md.
    public var json: String {
        jsonChunks(rowsPerChunk: max(1, rows.count)).joined()
    }

    /// ``json`` in pieces of at most `rowsPerChunk` rows each, made as they are asked for, so that a large
    /// answer can be streamed without being held whole as text: the object's members before `rows`, each
    /// row a ``JSONMembers`` of its cells, then the closing brackets.
    public func jsonChunks(rowsPerChunk: Int) -> some Sequence<String> {
        struct Head: Encodable {
            let from: JSONTime
            let to: JSONTime
            let step: String?
            let by: [String]
        }
        let names = query.groupBy.map(\.rawValue)
        let members = JSONTextEncoder.text(
            Head(from: JSONTime(query.fromSeconds), to: JSONTime(query.toSeconds), step: query.step.map { "\($0)" }, by: names))
        let head = members.dropLast() + ",\"rows\":["
        let rows = rows
        // The state is the next row to write: -1 before the head, rows.count for the closing brackets.
        return sequence(state: -1) { next -> String? in
            if next == -1 {
                next = 0
                return String(head)
            }
            guard next <= rows.count else { return nil }
            guard next < rows.count else {
                next += 1
                return "]}"
            }
            let end = min(rows.count, next + rowsPerChunk)
            defer { next = end }
            var chunk = ""
            for index in next..<end {
                if index > 0 { chunk += "," }
                jsonRow(rows[index], names: names).writeJSON(to: &chunk)
            }
            return chunk
        }
    }

    private func jsonRow(_ row: Row, names: [String]) -> JSONMembers<JSONCell> {
        var cells: [(String, JSONCell)] = [("time", .text(RFC3339.format(seconds: row.timeSeconds ?? query.fromSeconds)))]
        cells += zip(names, row.key).map { ($0, $1.map(JSONCell.text) ?? .null) }
        cells.append(("count", .integer(row.count)))
        if let counts = row.counts { cells += zip(counterNames, counterCells(counts)).map { ($0, $1) } }
        return JSONMembers(cells)
    }

    /// A header line and one line per row, RFC 4180 quoting.
    public var csv: String {
        var header = ["time"] + query.groupBy.map(\.rawValue) + ["count"]
        if hasCounters { header += counterNames }
        var lines = [header.joined(separator: ",")]
        for row in rows {
            var cells = [RFC3339.format(seconds: row.timeSeconds ?? query.fromSeconds)] + row.key.map { $0 ?? "" }
            cells.append(String(row.count))
            if let counts = row.counts { cells += counterCells(counts).map(\.plainText) }
            lines.append(cells.map(Self.csvCell).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Aligned columns for the terminal; rates in percent.
    public func table(zone: TimeZoneOffsets = .utc) -> String {
        var header = (query.step != nil ? ["time"] : []) + query.groupBy.map(\.rawValue) + ["events"]
        if hasCounters {
            header += ["attempts", "success", "409s", "failure", "cancel", "pending", "success rate"]
        }
        var body: [[String]] = []
        for row in rows {
            var cells =
                (query.step != nil ? [zone.timestamp(row.timeSeconds!)] : [])
                + row.key.map { TerminalText.sanitized($0 ?? "-") }
            cells.append(String(row.count))
            if let counts = row.counts {
                cells += [counts.attempts, counts.success, counts.conflicts, counts.failure, counts.cancel, counts.pending]
                    .map(String.init)
                cells.append(counts.successRate.map { String(format: "%.2f %%", $0 * 100) } ?? "-")
            }
            body.append(cells)
        }
        guard !body.isEmpty else {
            return "no events from \(zone.timestamp(query.fromSeconds)) to \(zone.timestamp(query.toSeconds))\n"
        }
        let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max()! }
        let numericFrom = header.count - (hasCounters ? 8 : 1)
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column >= numericFrom ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }
        return ([line(header)] + body.map(line)).joined(separator: "\n") + "\n"
    }

    /// A cell as RFC 4180 writes it, made safe to open in a spreadsheet (OWASP's CSV injection advice):
    /// control and bidi characters become U+FFFD (a tab or a carriage return included, so they start no
    /// formula), and a cell whose first Unicode scalar is `=`, `+`, `-` or `@` (a formula to Excel,
    /// LibreOffice and Sheets), whatever combines with it, gets a leading `'` and quotes
    /// (``CSVText/startsFormula(_:)``). None of the numbers and times written here start with those
    /// characters, so only event data is changed.
    public static func csvCell(_ text: String) -> String {
        var cell = TerminalText.sanitized(text)
        if CSVText.startsFormula(cell) { cell = "'" + cell }
        guard cell.containsScalar(in: ",\"'".unicodeScalars) else { return cell }
        return CSVText.quoted(cell)
    }
}
