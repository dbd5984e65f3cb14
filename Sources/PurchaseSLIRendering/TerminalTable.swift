/// Columns of cells for a terminal, each padded to its widest cell (the last one left unpadded), two
/// spaces apart, every cell sanitized (``TerminalText/sanitized(_:)``): the listings of `charges` and `grants`.
enum TerminalTable {
    /// The header line, then one line per row, each ending in a newline.
    static func render(header: [String], rows: [[String]]) -> String {
        let lines = rows.map { $0.map(TerminalText.sanitized) }
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
        let format = { (cells: [String]) in
            zip(cells, widths).enumerated().map { index, cell in
                index == cells.count - 1 ? cell.0 : cell.0.padding(toLength: cell.1, withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([format(header)] + lines.map(format)).joined(separator: "\n") + "\n"
    }
}
