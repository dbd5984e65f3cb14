/// The stored series column by column: each series' id and, per dimension asked for, the id of its value
/// there (0 where the events had none), with the text of the value ids. Grouping compares value ids and
/// turns an id into text once per group, so a catalog of a million series costs integer work, not a
/// string per series and dimension; a store hands its catalog's columns over without copying them.
public struct SeriesTable: Sendable {
    /// The series ids, row by row.
    public let ids: [Int64]
    /// Per dimension asked for (in that order), each row's value id; 0 where the events had none.
    public let columns: [ValueColumn]
    /// The text of each value id in the columns (it may hold others).
    public let texts: [Int64: String]
    /// What queries worked out of the table (shared by every table of the same series).
    let memo: CatalogMemo

    /// A table of `ids` with `columns` of value ids (each as long as `ids`) and their `texts`.
    public init(ids: [Int64], columns: [[Int64]], texts: [Int64: String]) {
        self.init(ids: ids, columns: columns.map(ValueColumn.init), texts: texts, memo: CatalogMemo())
    }

    /// A table sharing `memo` with every table of the same series.
    init(ids: [Int64], columns: [ValueColumn], texts: [Int64: String], memo: CatalogMemo) {
        precondition(columns.allSatisfy { $0.count == ids.count }, "every column has a value id per series")
        self.ids = ids
        self.columns = columns
        self.texts = texts
        self.memo = memo
    }

    /// A table of `rows`, numbering their values (for a store that keeps text).
    public init(rows: [StoredSeries], dimensionCount: Int) {
        var idOfText: [String: Int64] = [:]
        var texts: [Int64: String] = [:]
        var columns = [[Int64]](repeating: [], count: dimensionCount)
        for row in rows {
            for column in 0..<dimensionCount {
                guard let text = row.values[column] else {
                    columns[column].append(0)
                    continue
                }
                let id =
                    idOfText[text]
                    ?? {
                        let new = Int64(idOfText.count + 1)
                        idOfText[text] = new
                        texts[new] = text
                        return new
                    }()
                columns[column].append(id)
            }
        }
        self.init(ids: rows.map(\.id), columns: columns, texts: texts)
    }

    /// How many series the table lists.
    public var count: Int { ids.count }

    /// The value of `column` in `row`, nil where the events had none.
    public func value(column: Int, row: Int) -> String? {
        let id = columns[column][row]
        return id == 0 ? nil : texts[id]
    }

    /// The ids of the series whose value of `column` is `value`. O(rows).
    public func ids(where column: Int, is value: String?) -> [Int64] {
        let matching = value.map(valueIDs(of:)) ?? [0]
        return zip(ids, columns[column]).compactMap { matching.contains($0.1) ? $0.0 : nil }
    }

    /// The rows whose value of `column` is `value`, without that column. O(rows × columns).
    public func narrowed(to value: String, in column: Int) -> SeriesTable {
        let matching = valueIDs(of: value)
        let values = columns[column]
        let rows = values.indices.filter { matching.contains(values[$0]) }
        var kept = columns
        kept.remove(at: column)
        return SeriesTable(
            ids: rows.map { ids[$0] }, columns: kept.map { values in ValueColumn(rows.lazy.map { values[$0] }) }, texts: texts, memo: CatalogMemo())
    }

    /// The value ids whose text is `text` (one per dimension that has it): a few, looked through rather
    /// than hashed for each of a catalog's rows.
    private func valueIDs(of text: String) -> [Int64] { texts.compactMap { $0.value == text ? $0.key : nil } }

    /// Each series as a row of text, in id order as listed.
    public var rows: [StoredSeries] {
        ids.indices.map { row in StoredSeries(id: ids[row], values: columns.indices.map { value(column: $0, row: row) }) }
    }
}
