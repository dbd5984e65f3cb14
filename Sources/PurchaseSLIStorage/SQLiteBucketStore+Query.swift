import GRDB
public import PurchaseSLICore

extension SQLiteBucketStore {
    /// Every series with the value ids of `dimensions`, from the `series` and `dimension_value` tables.
    /// - Throws: ``StorageError/damaged(table:row:detail:)`` for an id that is not a whole number in range.
    public func seriesTable(_ dimensions: [EventDimension]) async throws -> SeriesTable {
        try await pool.readGivingReaderBack { db in
            try self.catalog.withLock { catalog in
                try catalog.extend(db)
                return catalog.table(dimensions)
            }
        }
    }

    /// Calls `body` with every bucket of the segments, decoded, then with every pending rollup row that
    /// its bucket does not hold yet (see ``forEachBucket(in:of:db:_:)``).
    public func scanCounts(
        _ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesCounts]) throws -> Void
    ) async throws {
        try await pool.read(calling: body) { db, body in
            var entries: [SeriesCounts] = []
            try Self.forEachBucket(in: segments, of: .counts, db: db) { time, blob in
                entries.removeAll(keepingCapacity: true)
                try BucketCodec.forEachEntry(in: blob) { series, counts in
                    if selection?.contains(series) ?? true { entries.append(SeriesCounts(series: series, counts: counts)) }
                }
                try body(time, entries)
            }
        }
    }

    /// Calls `body` with the error entries of every bucket of the segments, as ``scanCounts(_:selection:_:)``
    /// does with counts; entries whose result or description id is unknown are damage.
    public func scanErrors(
        _ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesErrorCount]) throws -> Void
    ) async throws {
        try await pool.read(calling: body) { db, body in
            let code = EventDimension.errorDescription.storageCode!
            var texts: [Int64: String] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, value FROM dimension_value WHERE dimension = ?", arguments: [code])
            while let row = try rows.next() { texts[row[0]] = row[1] }
            var entries: [SeriesErrorCount] = []
            try Self.forEachBucket(in: segments, of: .errors, db: db) { time, blob in
                entries.removeAll(keepingCapacity: true)
                for (entry, events) in try ErrorCodec.decode(blob) where selection?.contains(entry.series) ?? true {
                    guard entry.result < ResultType.allCases.count, let text = texts[entry.error] else {
                        throw CorruptBucketError(detail: "an error entry naming result \(entry.result) and description id \(entry.error)")
                    }
                    entries.append(
                        SeriesErrorCount(
                            series: entry.series, result: ResultType.allCases[Int(entry.result)], description: text, events: events))
                }
                try body(time, entries)
            }
        }
    }

    /// What a bucket holds: outcome counts, or error counts.
    enum BucketContent {
        case counts, errors

        func table(_ resolution: Resolution) -> String {
            self == .counts ? resolution.bucketTable : resolution.errorTable
        }

        var column: String { self == .counts ? "series_counts" : "error_counts" }
    }

    /// Calls `body` with the start time and blob of every bucket in the segments, then with every pending
    /// rollup row (``BucketWriter``) inside a segment whose bucket does not hold it yet (every hour and
    /// day, and a minute when the row is not `in_minute`), at the start of that bucket.
    static func forEachBucket(
        in segments: [BucketSegment], of content: BucketContent, db: Database,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        for segment in segments {
            let (resolution, from, to) = (segment.resolution, segment.fromSeconds, segment.toSeconds)
            let statement = try RawStatement(
                db, sql: "SELECT time, \(content.column) FROM \(content.table(resolution)) WHERE time >= ? AND time < ?")
            defer { statement.reset() }
            statement.bind(from, to)
            while try statement.step() {
                let time = statement.int64(0)
                try decoding(table: content.table(resolution), row: "the bucket at \(RFC3339.format(seconds: time))") {
                    try body(time, statement.blob(1))
                }
            }
        }
        guard let from = segments.map(\.fromSeconds).min(), let to = segments.map(\.toSeconds).max() else { return }
        let pending = try RawStatement(
            db, sql: "SELECT time, \(content.column), in_minute FROM rollup_pending WHERE time >= ? AND time < ?")
        defer { pending.reset() }
        pending.bind(from, to)
        while try pending.step() {
            let time = pending.int64(0)
            guard let resolution = segments.first(where: { $0.contains(time) })?.resolution,
                resolution != .minute || pending.int64(2) == 0
            else { continue }
            try decoding(table: "rollup_pending", row: "the row of \(RFC3339.format(seconds: time))") {
                try body(resolution.bucketStart(time), pending.blob(1))
            }
        }
    }
}

/// Runs `body`, turning a blob that does not decode into a ``StorageError`` naming `table` and `row`.
package func decoding<Result>(table: String, row: @autoclosure () -> String, _ body: () throws -> Result) throws -> Result {
    do {
        return try body()
    } catch let error as CorruptBucketError {
        throw StorageError.damaged(table: table, row: row(), detail: error.detail)
    }
}
