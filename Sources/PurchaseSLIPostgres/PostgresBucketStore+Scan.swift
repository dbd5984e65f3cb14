#if PostgreSQL
import Logging
import PostgresNIO
public import PurchaseSLICore
public import PurchaseSLIStorage

extension PostgresBucketStore {
    /// Every series with the value ids of `dimensions`.
    public func seriesTable(_ dimensions: [EventDimension]) async throws -> SeriesTable {
        let positions = dimensions.map { $0.seriesIndex! }
        let codes = dimensions.map { Int16($0.storageCode!) }
        let logger = logger
        return try await connection { connection in
            var texts: [Int64: String] = [:]
            if !codes.isEmpty {
                for try await (id, value) in try await connection.query(
                    "SELECT id, value FROM dimension_value WHERE dimension = ANY(\(codes))", logger: logger
                ).decode((Int64, String).self) { texts[id] = value }
            }
            var ids: [Int64] = []
            var columns = [[Int64]](repeating: [], count: positions.count)
            let selected = positions.map { Schema.seriesColumns[$0] }
            let sql = "SELECT id" + selected.map { ", \($0)" }.joined() + " FROM series"
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {
                let values = try row.map { try $0.decode(Int64.self) }
                ids.append(values[0])
                for column in columns.indices { columns[column].append(values[column + 1]) }
            }
            return SeriesTable(ids: ids, columns: columns, texts: texts)
        }
    }

    /// Calls `body` with the rows of each bucket of the segments.
    public func scanCounts(
        _ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesCounts]) throws -> Void
    ) async throws {
        // A row per bucket with its series' counts as arrays: a tenth of the cells a row per series
        // would take to decode (the server's aggregation costs less than the client's decoding).
        let columns = ["series", "start", "success", "already_granted", "failure", "cancel", "pending", "conflicts", "server_errors"]
        try await scan(
            segments, selection: selection,
            select: { resolution in
                "SELECT b.time, " + columns.map { "array_agg(b.\($0))" }.joined(separator: ", ") + " FROM \(resolution.bucketTable) b"
            }, groupedByTime: true,
            entries: { row, resolution in
                var cells = BinaryCells(row)
                let time = try cells.integer()
                let arrays = try columns.map { _ in try cells.integers() }
                guard arrays.allSatisfy({ $0.count == arrays[0].count }) else {
                    throw StorageError.damaged(
                        table: resolution.bucketTable, row: "the rows of \(RFC3339.format(seconds: time))", detail: "arrays of unequal lengths")
                }
                return (
                    time,
                    arrays[0].indices.map { index in
                        var counts = OutcomeCounts()
                        (counts.start, counts.success, counts.alreadyGranted, counts.failure) = (
                            arrays[1][index], arrays[2][index], arrays[3][index], arrays[4][index]
                        )
                        (counts.cancel, counts.pending, counts.conflicts, counts.serverErrors) = (
                            arrays[5][index], arrays[6][index], arrays[7][index], arrays[8][index]
                        )
                        return SeriesCounts(series: arrays[0][index], counts: counts)
                    }
                )
            }, body)
    }

    /// Calls `body` with the error rows of each bucket of the segments, as ``scanCounts(_:selection:_:)`` does.
    public func scanErrors(
        _ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesErrorCount]) throws -> Void
    ) async throws {
        try await scan(
            segments, selection: selection,
            select: { resolution in
                "SELECT b.time, b.series, b.result, v.value, b.events FROM \(resolution.errorTable) b JOIN dimension_value v ON v.id = b.error"
            }, groupedByTime: false,
            entries: { row, resolution in
                let (time, series, result, description, events) = try row.decode((Int64, Int64, Int16, String, Int64).self)
                guard ResultType.allCases.indices.contains(Int(result)) else {
                    throw StorageError.damaged(
                        table: resolution.errorTable, row: "the row of \(RFC3339.format(seconds: time))", detail: "result \(result)")
                }
                return (time, [SeriesErrorCount(series: series, result: ResultType.allCases[Int(result)], description: description, events: events)])
            }, body)
    }

    /// Reads the rows `select` (whose table is `b`) gives for the segments and the selected series, a day
    /// of buckets (or a month of days) at a time so that a long range is never held in memory whole, and
    /// calls `body` with each bucket's entries. With `groupedByTime` the query is grouped by `b.time`.
    ///
    /// The next chunk is read while `body` takes the one before (on another pooled connection): the
    /// server aggregates one day while this process decodes and counts the other, and no more than two
    /// chunks are held at once.
    private func scan<Entry: Sendable>(
        _ segments: [BucketSegment], selection: SeriesSelection?, select: @escaping @Sendable (Resolution) -> String, groupedByTime: Bool,
        entries: @escaping @Sendable (PostgresRow, Resolution) throws -> (time: Int64, entries: [Entry]),
        _ body: (Int64, [Entry]) throws -> Void
    ) async throws {
        let logger = logger
        let ids = selection?.sortedIDs
        let read: @Sendable (BucketSegment) async throws -> [(Int64, [Entry])] = { chunk in
            var query = PostgresQuery(
                unsafeSQL: select(chunk.resolution) + " WHERE b.time >= $1 AND b.time < $2"
                    + (ids == nil ? "" : " AND b.series = ANY($3)") + (groupedByTime ? " GROUP BY b.time" : "") + " ORDER BY b.time")
            query.binds.append(chunk.fromSeconds)
            query.binds.append(chunk.toSeconds)
            if let ids { query.binds.append(ids) }
            return try await self.connection { [query] connection in
                var buckets: [(Int64, [Entry])] = []
                for try await row in try await connection.query(query, logger: logger) {
                    let (time, decoded) = try entries(row, chunk.resolution)
                    if buckets.last?.0 != time { buckets.append((time, [])) }
                    buckets[buckets.count - 1].1.append(contentsOf: decoded)
                }
                return buckets
            }
        }
        let chunks = Self.chunks(of: segments)
        var reading = chunks.first.map { chunk in Task { try await read(chunk) } }
        defer { reading?.cancel() }
        for index in chunks.indices {
            guard let current = reading else { break }
            reading = index + 1 < chunks.count ? Task { [chunk = chunks[index + 1]] in try await read(chunk) } : nil
            let buckets = try await withTaskCancellationHandler {
                try await current.value
            } onCancel: {
                current.cancel()
            }
            for (time, entries) in buckets { try body(time, entries) }
        }
    }

    /// The segments cut into stretches of at most a day of minutes or hours, or 31 days.
    static func chunks(of segments: [BucketSegment]) -> [BucketSegment] {
        segments.flatMap { segment in
            let width: Int64 = segment.resolution == .day ? 31 * .secondsPerDay : .secondsPerDay
            return stride(from: segment.fromSeconds, to: segment.toSeconds, by: Int(width)).map {
                BucketSegment(segment.resolution, from: $0, to: min(segment.toSeconds, $0 + width))
            }
        }
    }

    /// The late arrivals of each series and hour in `[fromSeconds, toSeconds)`.
    public func lateArrivals(fromSeconds: Int64, toSeconds: Int64) async throws -> [LateArrivalCount] {
        let logger = logger
        return try await connection { connection in
            var counts: [LateArrivalCount] = []
            for try await (hour, series, events) in try await connection.query(
                "SELECT hour, series, events FROM late_arrival WHERE hour >= \(fromSeconds) AND hour < \(toSeconds)", logger: logger
            ).decode((Int64, Int64, Int64).self) { counts.append(LateArrivalCount(hour: hour, series: series, events: events)) }
            return counts
        }
    }

    /// The events counted under `__other__` on the days of `[fromDay, toDay)`, by day, dimension and app.
    public func overflow(fromDay: Int64, toDay: Int64) async throws -> [OverflowCount] {
        let logger = logger
        // Days are stored as integers: a range past them is clamped rather than refused.
        let (from, to) = (Int32(clamping: fromDay), Int32(clamping: toDay))
        return try await connection { connection in
            var counts: [OverflowCount] = []
            for try await (day, dimension, app, events) in try await connection.query(
                "SELECT day, dimension, app, events FROM overflow WHERE day >= \(from) AND day < \(to)", logger: logger
            ).decode((Int32, Int16, String, Int64).self) {
                let name = Schema.overflowNames[Int(dimension)] ?? "dimension \(dimension)"
                counts.append(OverflowCount(day: Int64(day), dimension: name, app: app, events: events))
            }
            return counts.sorted(by: OverflowCount.precedes)
        }
    }

    /// The latest price of each product and plan, by product then plan (bytewise, as SQLite orders).
    public func prices() async throws -> [ProductPrice] {
        let logger = logger
        return try await connection { connection in
            var prices: [ProductPrice] = []
            for try await (product, plan, price, currency, seen) in try await connection.query(
                """
                SELECT product_id, plan_id, price, currency, seen_millis FROM product_price
                ORDER BY product_id COLLATE "C", plan_id COLLATE "C"
                """, logger: logger
            ).decode((String, String, Double, String, Int64).self) {
                prices.append(ProductPrice(productID: product, planID: plan.isEmpty ? nil : plan, price: price, currency: currency, seenMillis: seen))
            }
            return prices
        }
    }

    /// Drops what is past its retention and the dedup horizon, as the SQLite store does.
    @discardableResult
    public func prune(nowMillis: Int64) async throws -> DedupMemory {
        let nowSeconds = nowMillis.floorDividedBy(.millisPerSecond).quotient
        let configuration = configuration
        let logger = logger
        let (memory, expired) = try await transaction { connection in
            var newest: Int64?
            for try await time in try await connection.query("SELECT max(time) FROM bucket_minute", logger: logger).decode(Int64?.self) {
                newest = time
            }
            if let newest {
                let retentions: [(Resolution, Int64?)] = [
                    (.minute, configuration.minuteRetentionSeconds), (.hour, configuration.hourRetentionSeconds),
                    (.day, configuration.dayRetentionSeconds),
                ]
                // The minutes dropped, for a reader that keeps what it read (bucketChanges).
                let minutesBefore = newest - configuration.minuteRetentionSeconds
                try await connection.run(
                    """
                    INSERT INTO bucket_change (from_time, to_time)
                    SELECT min(time), max(time) + \(Resolution.minute.seconds) FROM bucket_minute WHERE time < \(minutesBefore) HAVING count(*) > 0
                    """, logger: logger)
                for case let (resolution, retention?) in retentions {
                    for table in [resolution.bucketTable, resolution.errorTable] {
                        var delete = PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE time < $1")
                        delete.binds.append(newest - retention)
                        try await connection.run(delete, logger: logger)
                    }
                }
                try await Self.pruneChanges(on: connection, logger: logger)
                // What the caps turned away is kept as long as the hour buckets of its day.
                let overflowBefore = Int32(clamping: (newest - configuration.hourRetentionSeconds).floorDividedBy(.secondsPerDay).quotient)
                try await connection.run("DELETE FROM overflow WHERE day < \(overflowBefore)", logger: logger)
            }
            var expired: [Int32] = []
            for try await day in try await connection.query(
                "DELETE FROM seen_day WHERE last_received < \(nowSeconds - configuration.dedupHorizonSeconds) RETURNING day", logger: logger
            ).decode(Int32.self) { expired.append(day) }
            if !expired.isEmpty {
                try await connection.run(
                    """
                    DELETE FROM seen_event s USING unnest(\(expired.map(Int64.init))) AS d(day)
                    WHERE s.second >= d.day * 86400 AND s.second < (d.day + 1) * 86400
                    """, logger: logger)
                try await connection.run("DELETE FROM admitted_value WHERE day = ANY(\(expired))", logger: logger)
                try await connection.run("DELETE FROM admitted_series WHERE day = ANY(\(expired))", logger: logger)
                try await connection.run("DELETE FROM admitted_series_count WHERE day = ANY(\(expired))", logger: logger)
            }
            let before = (nowSeconds - configuration.storeRecordRetentionSeconds) * .millisPerSecond
            try await connection.settleClientReports(receivedBefore: nowSeconds - configuration.reportSettleSeconds, logger: logger)
            try await connection.run("DELETE FROM store_notification WHERE event_millis < \(before)", logger: logger)
            try await connection.run(
                "DELETE FROM client_report_minute WHERE minute < \(before.floorDividedBy(.millisPerMinute).quotient)", logger: logger)
            try await connection.run("DELETE FROM client_drop WHERE minute < \(before.floorDividedBy(.millisPerMinute).quotient)", logger: logger)
            try await connection.run("DELETE FROM late_arrival WHERE hour < \(before.floorDividedBy(.millisPerSecond).quotient)", logger: logger)
            var memory = DedupMemory(seconds: 0, eventIDs: 0)
            for try await (seconds, eventIDs) in try await connection.query(
                "SELECT count(DISTINCT second), count(*) FROM seen_event", logger: logger
            ).decode((Int64, Int64).self) { memory = DedupMemory(seconds: seconds, eventIDs: eventIDs) }
            return (memory, expired)
        }
        writer.withLock { $0.forgetAdmissions(days: Set(expired)) }
        return memory
    }
}
#endif
