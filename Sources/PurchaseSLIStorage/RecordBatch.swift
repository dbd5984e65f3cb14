import GRDB
import PurchaseSLICore

/// One batch of events on its way into the buckets: keyed for dedup, then aggregated per bucket.
struct RecordBatch {
    private struct MinuteSeries: Hashable {
        var minute: Int64
        var series: Int64
    }

    private struct MinuteSeriesError: Hashable {
        var minute: Int64
        var series: Int64
        var error: Int64
    }

    private let events: [PurchaseEvent]
    /// Event indexes sorted by (second, hash), so that dedup inserts walk the index in order.
    private let order: [Int]
    private let seconds: [Int64]
    private let hashes: [Int64]

    /// Computes the dedup keys outside the write lock. O(n log n).
    init(events: [PurchaseEvent]) {
        self.events = events
        let seconds = events.map { $0.timestampMillis.floorDividedBy(1000).quotient }
        let hashes = events.map { EventIDHash.hash($0.eventID) }
        order = events.indices.sorted { (seconds[$0], hashes[$0]) < (seconds[$1], hashes[$1]) }
        self.seconds = seconds
        self.hashes = hashes
    }

    /// Writes the batch inside an open transaction and returns what it counted.
    func write(
        into db: Database, cache: inout InternCache, configuration: StoreConfiguration, receivedAtSeconds: Int64
    ) throws -> RecordOutcome {
        let insertSeen = try RawStatement(db, sql: "INSERT OR IGNORE INTO seen_event (second, hash) VALUES (?, ?)")
        let statements = try InternStatements(db)
        let codes = EventDimension.seriesDimensions.map { Schema.dimensionCodes[$0.rawValue]! }
        let errorCode = Schema.dimensionCodes["errorDescription"]!
        var outcome = RecordOutcome()
        var minutes: [MinuteSeries: OutcomeCounts] = [:]
        var errors: [MinuteSeriesError: Int64] = [:]
        var days = Set<Int64>()
        for index in order {
            let second = seconds[index]
            insertSeen.bind(second, hashes[index])
            try insertSeen.run()
            guard insertSeen.changes == 1 else {
                outcome.duplicates += 1
                continue
            }
            let event = events[index]
            let day = second.floorDividedBy(86_400).quotient
            days.insert(day)
            var key = SeriesKey()
            for (position, dimension) in EventDimension.seriesDimensions.enumerated() {
                guard let value = event.value(of: dimension) else { continue }
                key[position] = try cache.valueID(
                    value, dimension: codes[position], day: day, cap: configuration.cardinalityCap, statements: statements)
            }
            let series = try cache.seriesID(key, statements: statements)
            let minute = second - second.floorDividedBy(60).remainder
            minutes[MinuteSeries(minute: minute, series: series), default: OutcomeCounts()]
                .add(event.resultType, statusCode: event.statusCode)
            if let description = event.errorDescription {
                let error = try cache.valueID(
                    description, dimension: errorCode, day: day, cap: configuration.cardinalityCap, statements: statements)
                errors[MinuteSeriesError(minute: minute, series: series, error: error), default: 0] += 1
            }
            outcome.accepted += 1
            let millis = event.timestampMillis
            outcome.timeRange = outcome.timeRange.map { min($0.lowerBound, millis)...max($0.upperBound, millis) } ?? millis...millis
        }
        try writeBuckets(minutes, errors: errors, into: db)
        try markSeen(days: days, receivedAtSeconds: receivedAtSeconds, in: db)
        let names = Dictionary(uniqueKeysWithValues: Schema.dimensionCodes.map { ($1, $0) })
        for (day, dimension, events) in cache.takeOverflow() {
            try db.execute(
                sql: """
                    INSERT INTO overflow (day, dimension, events) VALUES (?, ?, ?)
                    ON CONFLICT (day, dimension) DO UPDATE SET events = events + excluded.events
                    """,
                arguments: [day, dimension, events])
            outcome.overflowed[names[dimension]!, default: 0] += events
        }
        return outcome
    }

    /// Upserts the minute counts and their hour and day rollups, so that all three always agree.
    private func writeBuckets(
        _ minutes: [MinuteSeries: OutcomeCounts], errors: [MinuteSeriesError: Int64], into db: Database
    ) throws {
        var rollup = minutes
        for resolution in Resolution.allCases {
            if resolution != .minute {
                var coarser: [MinuteSeries: OutcomeCounts] = [:]
                for (key, counts) in rollup {
                    coarser[MinuteSeries(minute: resolution.bucketStart(key.minute), series: key.series), default: OutcomeCounts()] += counts
                }
                rollup = coarser
            }
            let columns = Schema.counterColumns
            let upsert = try RawStatement(db, sql: """
                INSERT INTO \(resolution.bucketTable) (time, series, \(columns.joined(separator: ", ")))
                VALUES (?, ?, \(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
                ON CONFLICT (time, series) DO UPDATE SET
                \(columns.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", "))
                """)
            for key in rollup.keys.sorted(by: { ($0.minute, $0.series) < ($1.minute, $1.series) }) {
                let counts = rollup[key]!
                upsert.bind(
                    key.minute, key.series, counts.start, counts.success, counts.alreadyGranted, counts.failure,
                    counts.cancel, counts.pending, counts.conflicts, counts.serverErrors)
                try upsert.run()
            }
            var errorRollup: [MinuteSeriesError: Int64] = [:]
            for (key, count) in errors {
                errorRollup[MinuteSeriesError(minute: resolution.bucketStart(key.minute), series: key.series, error: key.error), default: 0] += count
            }
            let errorUpsert = try RawStatement(db, sql: """
                INSERT INTO \(resolution.errorTable) (time, series, error, events) VALUES (?, ?, ?, ?)
                ON CONFLICT (time, series, error) DO UPDATE SET events = events + excluded.events
                """)
            for (key, count) in errorRollup {
                errorUpsert.bind(key.minute, key.series, key.error, count)
                try errorUpsert.run()
            }
        }
    }

    private func markSeen(days: Set<Int64>, receivedAtSeconds: Int64, in db: Database) throws {
        let upsert = try RawStatement(db, sql: """
            INSERT INTO seen_day (day, last_received) VALUES (?, ?)
            ON CONFLICT (day) DO UPDATE SET last_received = max(last_received, excluded.last_received)
            """)
        for day in days {
            upsert.bind(day, receivedAtSeconds)
            try upsert.run()
        }
    }
}
