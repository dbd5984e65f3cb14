import GRDB
import PurchaseSLICore

/// The series table and the dimension values as read so far, column by column. Both tables only grow (rows
/// are inserted, never changed or deleted, ids ascending), so a read adds the rows past the last ids it
/// holds: a page of panels, each grouping the series its own way, reads the tables once rather than once
/// per query, and each query is handed the columns it asks for without a copy.
struct SeriesCatalog {
    /// The series ids, ascending.
    private var ids: [Int64] = []
    /// Per column of ``Schema/seriesColumns``, each series' value id (0: no value).
    private var columns = [ValueColumn](repeating: ValueColumn(), count: Schema.seriesColumns.count)
    /// The text of each dimension value id.
    private var textOfID: [Int64: String] = [:]
    /// The largest value id read; nil before the first read, which reads every row (a damaged id too).
    private var lastValueID: Int64?
    /// What queries worked out of the series as they are now; a new memo once series or values are added.
    private var memo = CatalogMemo()

    /// Adds the rows inserted since the last read.
    /// - Throws: ``StorageError/damaged(table:row:detail:)`` for an id that is not a whole number in range.
    mutating func extend(_ db: Database) throws {
        let (seriesBefore, valuesBefore) = (ids.count, textOfID.count)
        defer { if ids.count != seriesBefore || textOfID.count != valuesBefore { memo = CatalogMemo() } }
        let values = try RawStatement(db, sql: "SELECT id, value FROM dimension_value" + (lastValueID == nil ? "" : " WHERE id > ?"))
        if let lastValueID { values.bind(lastValueID) }
        defer { values.reset() }
        while try values.step() {
            let id = values.int64(0)
            textOfID[id] = values.text(1) ?? ""
            lastValueID = max(lastValueID ?? id, id)
        }
        let rows = try RawStatement(
            db, sql: "SELECT id, \(Schema.seriesColumns.joined(separator: ", ")) FROM series" + (ids.isEmpty ? "" : " WHERE id > ?") + " ORDER BY id")
        if let last = ids.last { rows.bind(last) }
        defer { rows.reset() }
        let columnCount = Int32(Schema.seriesColumns.count)
        while try rows.step() {
            let id = rows.int64(0)
            guard (0...columnCount).allSatisfy(rows.isInteger), (0...VarintReader.largestCount).contains(id) else {
                throw StorageError.damaged(table: "series", row: "a series", detail: "an id or value id that is not a whole number in range")
            }
            ids.append(id)
            for column in 0..<Int(columnCount) { columns[column].append(rows.int64(Int32(column + 1))) }
        }
    }

    /// Every series with the value ids of `dimensions`, the catalog's own columns (shared, not copied).
    func table(_ dimensions: [EventDimension]) -> SeriesTable {
        SeriesTable(ids: ids, columns: dimensions.map { columns[$0.seriesIndex!] }, texts: textOfID, memo: memo)
    }
}
