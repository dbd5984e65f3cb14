import GRDB

/// The statements the writer needs on a cache miss (prepared once per connection, see ``RawStatement``).
struct InternStatements {
    private let selectValue: RawStatement
    private let insertValueStatement: RawStatement
    private let selectAdmitted: RawStatement
    private let countAdmitted: RawStatement
    private let insertAdmitted: RawStatement
    private let selectSeries: RawStatement
    private let selectAdmittedSeries: RawStatement
    private let insertSeriesStatement: RawStatement
    private let db: Database

    init(_ db: Database) throws {
        self.db = db
        selectValue = try RawStatement(db, sql: "SELECT id FROM dimension_value WHERE dimension = ? AND value = ?")
        insertValueStatement = try RawStatement(db, sql: "INSERT INTO dimension_value (dimension, value) VALUES (?, ?)")
        selectAdmitted = try RawStatement(db, sql: "SELECT value FROM admitted_value WHERE day = ? AND dimension = ? AND app = ?")
        countAdmitted = try RawStatement(db, sql: "SELECT count(*) FROM admitted_value WHERE day = ? AND dimension = ?")
        insertAdmitted = try RawStatement(
            db, sql: "INSERT OR IGNORE INTO admitted_value (day, dimension, app, value) VALUES (?, ?, ?, ?)")
        let columns = Schema.seriesColumns
        selectSeries = try RawStatement(
            db, sql: "SELECT id FROM series WHERE " + columns.map { "\($0) = ?" }.joined(separator: " AND "))
        selectAdmittedSeries = try RawStatement(
            db,
            sql: "SELECT a.value, " + columns.map { "s.\($0)" }.joined(separator: ", ")
                + " FROM admitted_value a LEFT JOIN series s ON s.id = a.value WHERE a.day = ? AND a.dimension = \(Schema.seriesCode)")
        insertSeriesStatement = try RawStatement(
            db,
            sql: "INSERT INTO series (\(columns.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
                + " ON CONFLICT (\(columns.joined(separator: ", "))) DO NOTHING")
    }

    func existingValueID(_ value: String, dimension: Int) throws -> Int64? {
        defer { selectValue.reset() }
        selectValue.bind(Int64(dimension), at: 1)
        selectValue.bind(text: value, at: 2)
        return try selectValue.step() ? selectValue.int64(0) : nil
    }

    func insertValue(_ value: String, dimension: Int) throws -> Int64 {
        insertValueStatement.bind(Int64(dimension), at: 1)
        insertValueStatement.bind(text: value, at: 2)
        try insertValueStatement.run()
        return db.lastInsertedRowID
    }

    /// The values admitted on `day` for `dimension` in `app`'s budget (its value id; 0: no app).
    func admittedValues(day: Int64, dimension: Int, app: Int64) throws -> Set<Int64> {
        defer { selectAdmitted.reset() }
        selectAdmitted.bind(day, Int64(dimension), app)
        var ids = Set<Int64>()
        while try selectAdmitted.step() { ids.insert(selectAdmitted.int64(0)) }
        return ids
    }

    /// How many values were admitted on `day` for `dimension`, every app's budget together.
    func admittedValueCount(day: Int64, dimension: Int) throws -> Int {
        defer { countAdmitted.reset() }
        countAdmitted.bind(day, Int64(dimension))
        return try countAdmitted.step() ? Int(countAdmitted.int64(0)) : 0
    }

    /// The series admitted on `day`, with their keys (nil for an id the `series` table lacks).
    func admittedSeries(day: Int64) throws -> [(id: Int64, key: SeriesKey?)] {
        defer { selectAdmittedSeries.reset() }
        selectAdmittedSeries.bind(day)
        var series: [(id: Int64, key: SeriesKey?)] = []
        while try selectAdmittedSeries.step() {
            var key = SeriesKey()
            for index in 0..<SeriesKey.count { key[index] = selectAdmittedSeries.int64(Int32(index + 1)) }
            series.append((selectAdmittedSeries.int64(0), selectAdmittedSeries.isNull(1) ? nil : key))
        }
        return series
    }

    /// Records `id` as admitted on `day` for `dimension` in `app`'s budget (0: no app, and every series).
    func admit(_ id: Int64, day: Int64, dimension: Int, app: Int64 = 0) throws {
        insertAdmitted.bind(day, Int64(dimension), app, id)
        try insertAdmitted.run()
    }

    func existingSeriesID(_ key: SeriesKey) throws -> Int64? {
        defer { selectSeries.reset() }
        for index in 0..<SeriesKey.count { selectSeries.bind(key[index], at: Int32(index + 1)) }
        return try selectSeries.step() ? selectSeries.int64(0) : nil
    }

    /// The id of the series `key`, inserting its row unless it has one: one probe of the unique index
    /// for a new series (rather than a lookup, then an insert), two for one stored on an earlier day.
    func seriesID(insertingIfNew key: SeriesKey) throws -> Int64 {
        for index in 0..<SeriesKey.count { insertSeriesStatement.bind(key[index], at: Int32(index + 1)) }
        try insertSeriesStatement.run()
        if db.changesCount == 1 { return db.lastInsertedRowID }
        guard let id = try existingSeriesID(key) else {
            throw StorageError.damaged(table: "series", row: "a series", detail: "neither inserted nor found")
        }
        return id
    }
}
