import GRDB
import PurchaseSLICore

/// The series table and the dimension values as read so far. Both tables only grow (rows are inserted,
/// never changed or deleted, ids ascending), so a read adds the rows past the last ids it holds: a page
/// of panels, each grouping the series its own way, reads the tables once rather than once per query.
struct SeriesCatalog {
    /// Each series' id and its value ids in ``Schema/seriesColumns`` order (0: no value), by id.
    private var series: [(id: Int64, valueIDs: [Int64])] = []
    /// The text of each dimension value id.
    private var textOfID: [Int64: String] = [:]
    /// The largest value id read; nil before the first read, which reads every row (a damaged id too).
    private var lastValueID: Int64?

    /// Adds the rows inserted since the last read.
    mutating func extend(_ db: Database) throws {
        let values = try Row.fetchCursor(
            db, sql: "SELECT id, value FROM dimension_value" + (lastValueID == nil ? "" : " WHERE id > ?"),
            arguments: StatementArguments(lastValueID.map { [$0] } ?? []))
        while let row = try values.next() {
            let id: Int64 = row[0]
            textOfID[id] = row[1]
            lastValueID = max(lastValueID ?? id, id)
        }
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT id, \(Schema.seriesColumns.joined(separator: ", ")) FROM series" + (series.isEmpty ? "" : " WHERE id > ?") + " ORDER BY id",
            arguments: StatementArguments(series.last.map { [$0.id] } ?? []))
        while let row = try rows.next() {
            let values = (0...Schema.seriesColumns.count).map { row[$0] as Int64? }
            guard let id = values[0], (0...VarintReader.largestCount).contains(id), values.allSatisfy({ $0 != nil }) else {
                throw StorageError.damaged(table: "series", row: "a series", detail: "an id or value id that is not a whole number in range")
            }
            series.append((id, values.dropFirst().map { $0! }))
        }
    }

    /// Every series with its values of `dimensions` (nil where the events had none).
    func stored(_ dimensions: [EventDimension]) -> [StoredSeries] {
        let positions = dimensions.map { $0.seriesIndex! }
        return series.map { series in
            StoredSeries(id: series.id, values: positions.map { series.valueIDs[$0] == 0 ? nil : textOfID[series.valueIDs[$0]] })
        }
    }
}
