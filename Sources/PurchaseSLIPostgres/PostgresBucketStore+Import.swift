#if PostgreSQL
import Logging
import PostgresNIO
public import PurchaseSLICore
public import PurchaseSLIStorage

extension PostgresBucketStore {
    /// What `migrate` copied.
    public struct ImportSummary: Sendable, Hashable {
        /// Whether this source had been copied before (then nothing was copied again).
        public var alreadyImported = false
        /// Series, bucket rows (every resolution), error rows, eventIDs remembered, notifications and
        /// report blobs copied.
        public var series = 0, bucketRows = 0, errorRows = 0, eventIDs = 0, notifications = 0, reportBlobs = 0
    }

    /// The refusal to copy into a database that already holds events.
    public struct ImportRefused: UserFacingError {
        /// Why.
        public let description: String
    }

    /// Copies a SQLite store into this database in one transaction: the series, every resolution's
    /// buckets and error counts as stored, the dedup memory (eventIDs and event days), prices, the
    /// stores' notifications and the app's reports. The database must hold no events yet, or be a copy
    /// of this same source (recognized by a fingerprint of what it holds: then nothing is copied again).
    /// The caps' record of what each day admitted is not copied (on the day of the move, up to a cap's
    /// worth of new values may be admitted again); what they counted as `__other__` is.
    /// - Throws: ``ImportRefused`` when the database holds other events.
    public func importStore(from source: SQLiteBucketStore, sourceName: String) async throws -> ImportSummary {
        let dimensions = EventDimension.seriesDimensions
        let series = try await source.series(dimensions)
        let end: Int64 = 4_102_444_800  // 2100-01-01, aligned to every resolution
        var counts: [Resolution: [BucketKey: OutcomeCounts]] = [:]
        var errors: [Resolution: [(key: BucketKey, result: Int16, description: String, events: Int64)]] = [:]
        for resolution in Resolution.allCases {
            let segments = [BucketSegment(resolution, from: 0, to: end)]
            try await source.scanCounts(segments, selection: nil) { time, entries in
                for entry in entries {
                    counts[resolution, default: [:]][BucketKey(time: time, series: entry.series), default: OutcomeCounts()] += entry.counts
                }
            }
            try await source.scanErrors(segments, selection: nil) { time, entries in
                for entry in entries {
                    errors[resolution, default: []].append(
                        (
                            BucketKey(time: time, series: entry.series), Int16(ResultType.allCases.firstIndex(of: entry.result)!), entry.description,
                            entry.events
                        ))
                }
            }
        }
        let dedup = try source.dedupState()
        let prices = try await source.prices()
        let notifications = try await source.notifications(kinds: Set(StoreEventKind.allCases), fromMillis: .min / 2, toMillis: .max / 2)
        let reports = try source.clientReportBlobs()
        let drops = try source.clientDrops()
        let late = try await source.lateArrivals(fromSeconds: .min / 2, toSeconds: .max / 2)
        let overflow = try await source.overflow(fromDay: Int64(Int32.min), toDay: Int64(Int32.max))
        let events = counts[.day, default: [:]].values.reduce(Int64(0)) { $0 + $1.total }
        // The eventIDs remembered, digested in any order: two stores of equal counts but other events differ.
        let digest = dedup.keys.reduce(UInt64(0)) {
            $0 &+ Self.mixed(UInt64(bitPattern: $1.second) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: $1.hash))
        }
        let fingerprint =
            "events \(events), newest minute \(counts[.minute, default: [:]].keys.map(\.time).max() ?? 0), "
            + "eventIDs \(dedup.keys.count) (digest \(String(digest, radix: 16))), notifications \(notifications.count), reports \(reports.count)"
        let configuration = configuration
        let logger = logger
        let (counted, errorCounts) = (counts, errors)
        // A large store takes minutes to copy: the transaction may take an hour.
        return try await transaction(timeout: .seconds(.secondsPerHour)) { connection in
            var summary = ImportSummary()
            for try await _ in try await connection.query(
                "SELECT 1 FROM imported_store WHERE fingerprint = \(fingerprint)", logger: logger
            ).decode(Int32.self) { summary.alreadyImported = true }
            if summary.alreadyImported { return summary }
            var holdsEvents = false
            for try await held in try await connection.query(
                "SELECT EXISTS (SELECT 1 FROM bucket_day) OR EXISTS (SELECT 1 FROM seen_event) OR EXISTS (SELECT 1 FROM store_notification)",
                logger: logger
            ).decode(Bool.self) { holdsEvents = held }
            if holdsEvents {
                throw ImportRefused(
                    description: "the PostgreSQL database already holds events or notifications (from serve, ingest or a copy of "
                        + "another store); migrate copies into an empty database, so that nothing is counted twice")
            }
            var write = RecordWrite(batches: [], order: DedupOrder([]), configuration: configuration, known: WriterCache(), logger: logger)
            // Series: their values interned, then the series, each mapped from its id in the source.
            var values = Set<WriterCache.Value>()
            for stored in series {
                for (position, value) in stored.values.enumerated() {
                    if let value { values.insert(WriterCache.Value(dimension: RecordWrite.code(position), text: value)) }
                }
            }
            for entries in errorCounts.values {
                for entry in entries { values.insert(WriterCache.Value(dimension: RecordWrite.errorCode, text: entry.description)) }
            }
            let valueIDs = try await write.intern(values, on: connection)
            let keys = series.map { stored in
                stored.values.enumerated().map { position, value in
                    value.map { valueIDs[WriterCache.Value(dimension: RecordWrite.code(position), text: $0)]! } ?? 0
                }
            }
            let seriesIDs = try await write.seriesIDs(Set(keys), on: connection)
            let target = Dictionary(zip(series.map(\.id), keys.map { seriesIDs[$0]! }), uniquingKeysWith: { first, _ in first })
            summary.series = series.count
            for resolution in Resolution.allCases {
                let mapped = Dictionary(
                    (counted[resolution] ?? [:]).compactMap { key, value in
                        target[key.series].map { (BucketKey(time: key.time, series: $0), value) }
                    }, uniquingKeysWith: +)
                for chunk in Self.chunked(Array(mapped)) {
                    try await write.upsertCounts(
                        Dictionary(uniqueKeysWithValues: chunk.map { ($0.key, $0.value) }), into: resolution.bucketTable, on: connection)
                }
                if resolution == .minute { try await RecordWrite.noteChange(of: mapped.keys.lazy.map(\.time), on: connection, logger: logger) }
                summary.bucketRows += mapped.count
                var errorRows: [ErrorKey: Int64] = [:]
                for entry in errorCounts[resolution] ?? [] {
                    guard let series = target[entry.key.series] else { continue }
                    let error = valueIDs[WriterCache.Value(dimension: RecordWrite.errorCode, text: entry.description)]!
                    errorRows[ErrorKey(time: entry.key.time, series: series, result: entry.result, error: error), default: 0] += entry.events
                }
                for chunk in Self.chunked(Array(errorRows)) {
                    try await write.upsertErrors(
                        Dictionary(uniqueKeysWithValues: chunk.map { ($0.key, $0.value) }), into: resolution.errorTable, on: connection)
                }
                summary.errorRows += errorRows.count
            }
            for chunk in Self.chunked(dedup.keys.sorted { ($0.second, $0.hash) < ($1.second, $1.hash) }) {
                try await connection.run(
                    """
                    INSERT INTO seen_event (second, hash) SELECT * FROM unnest(\(chunk.map(\.second)), \(chunk.map(\.hash))) ON CONFLICT DO NOTHING
                    """, logger: logger)
            }
            summary.eventIDs = dedup.keys.count
            if !dedup.days.isEmpty {
                try await connection.run(
                    """
                    INSERT INTO seen_day (day, last_received)
                    SELECT * FROM unnest(\(dedup.days.map { Int32($0.day) }), \(dedup.days.map(\.lastReceived)))
                    ON CONFLICT (day) DO UPDATE SET last_received = greatest(seen_day.last_received, excluded.last_received)
                    """, logger: logger)
            }
            try await RecordWrite.upsertPrices(prices, on: connection, logger: logger)
            for chunk in Self.chunked(notifications) {
                summary.notifications += try await Self.insert(Array(chunk), on: connection, logger: logger).count
            }
            try await RecordWrite.appendReports(reports, on: connection, logger: logger)
            try await RecordWrite.addClientDrops(drops, on: connection, logger: logger)
            try await RecordWrite.addLateArrivals(late, on: connection, logger: logger)
            try await Self.addOverflow(overflow, on: connection, logger: logger)
            summary.reportBlobs = reports.count
            try await connection.run(
                "INSERT INTO imported_store (fingerprint, source) VALUES (\(fingerprint), \(sourceName))", logger: logger)
            return summary
        }
    }

    /// Adds the events a source's caps counted as `__other__` to the `overflow` rows (facts the pages and
    /// the review show).
    private static func addOverflow(_ counts: [OverflowCount], on connection: PostgresConnection, logger: Logger) async throws {
        let codes = Dictionary(Schema.overflowNames.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        let known = counts.filter { codes[$0.dimension] != nil }
        guard !known.isEmpty else { return }
        try await connection.run(
            """
            INSERT INTO overflow (day, dimension, app, events)
            SELECT * FROM unnest(\(known.map { Int32($0.day) }), \(known.map { Int16(codes[$0.dimension]!) }), \(known.map(\.app)), \(known.map(\.events)))
            ORDER BY 1, 2, 3
            ON CONFLICT (day, dimension, app) DO UPDATE SET events = overflow.events + excluded.events
            """, logger: logger)
    }

    /// SplitMix64's finalizer: a 64-bit value with its bits well mixed.
    private static func mixed(_ value: UInt64) -> UInt64 {
        var mixed = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// `elements` in chunks of at most 20,000 (one statement each).
    private static func chunked<Element>(_ elements: [Element]) -> [ArraySlice<Element>] {
        stride(from: 0, to: elements.count, by: 20_000).map { elements[$0..<min(elements.count, $0 + 20_000)] }
    }
}
#endif
