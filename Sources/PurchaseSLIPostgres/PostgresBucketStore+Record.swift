#if PostgreSQL
import Logging
import PostgresNIO
public import PurchaseSLICore
public import PurchaseSLIStorage

extension PostgresBucketStore {
    /// Counts validated events, skipping duplicates (across nodes too), in one transaction.
    public func record(_ batches: [PreparedEvents], receivedAtMillis: Int64) async throws -> RecordOutcome {
        let order = DedupOrder(batches)
        let configuration = configuration
        let logger = logger
        let receivedAtSeconds = receivedAtMillis.floorDividedBy(.millisPerSecond).quotient
        let known = writer.withLock { $0 }
        let (outcome, additions) = try await transaction { connection in
            var write = RecordWrite(batches: batches, order: order, configuration: configuration, known: known, logger: logger)
            let outcome = try await write.run(on: connection, receivedAtSeconds: receivedAtSeconds)
            return (outcome, write.additions)
        }
        writer.withLock { $0.merge(additions) }
        return outcome
    }
}

/// One `record` transaction: dedup rows first (their primary key decides what is new, across nodes),
/// then the caps, ids, and every resolution's bucket rows, each as one statement of arrays.
struct RecordWrite {
    let batches: [PreparedEvents]
    let order: DedupOrder
    let configuration: StoreConfiguration
    /// The node's cache as the transaction began.
    let known: WriterCache
    let logger: Logger
    /// What this transaction learned, kept by the caller once it committed.
    private(set) var additions = WriterCache()
    /// Per batch and event: whether it is counted for the first time.
    private var isNew: [[Bool]] = []
    /// Per new event (in batch, then index order): its batch, index and day.
    private var newEvents: [(batch: Int, index: Int, day: Int32)] = []
    /// Events counted under `__other__`, per day, dimension code and app.
    private var overflow: [WriterCache.DayDimension: Int64] = [:]
    /// Whether this transaction holds the admission lock.
    private var holdsAdmissionLock = false

    /// The advisory lock taken while admitting values or series under the caps ("PSLI" and 3): admissions
    /// of concurrent nodes take turns, so that no day admits more than its cap.
    static let admissionLock: Int64 = 0x5053_4C49_0003

    init(batches: [PreparedEvents], order: DedupOrder, configuration: StoreConfiguration, known: WriterCache, logger: Logger) {
        self.batches = batches
        self.order = order
        self.configuration = configuration
        self.known = known
        self.logger = logger
    }

    mutating func run(on connection: PostgresConnection, receivedAtSeconds: Int64) async throws -> RecordOutcome {
        var outcome = RecordOutcome()
        try await deduplicate(on: connection, outcome: &outcome)
        guard !newEvents.isEmpty else { return outcome }
        let capped = try await admitValues(on: connection)
        var needed = Set<WriterCache.Value>()
        for values in capped {
            for (column, value) in values.enumerated() {
                if let value { needed.insert(WriterCache.Value(dimension: Self.codes[column], text: value)) }
            }
        }
        let valueIDs = try await intern(needed, on: connection)
        var seriesKeys = capped.map { values in
            values.prefix(EventDimension.seriesDimensions.count).enumerated().map { position, text in
                text.map { valueIDs[WriterCache.Value(dimension: Self.code(position), text: $0)]! } ?? 0
            }
        }
        let appCode = Self.code(SeriesValues.appPosition)
        let appTexts = Dictionary(valueIDs.compactMap { $0.key.dimension == appCode ? ($0.value, $0.key.text) : nil }) { first, _ in first }
        let seriesIDs = try await admitSeries(keys: &seriesKeys, appTexts: appTexts, on: connection)
        var minutes: [Resolution: [BucketKey: OutcomeCounts]] = [:]
        var errors: [Resolution: [ErrorKey: Int64]] = [:]
        var days = Set<Int32>()
        var late: [BucketKey: Int64] = [:]
        var earliest = Int64.max
        var latest = Int64.min
        for (position, event) in newEvents.enumerated() {
            let batch = batches[event.batch]
            let second = batch.seconds[event.index]
            let series = seriesIDs[seriesKeys[position]]!
            if batch.tracksLateArrivals, LateArrival.isLate(eventSeconds: second, receivedSeconds: receivedAtSeconds) {
                late[BucketKey(time: Resolution.hour.bucketStart(second), series: series), default: 0] += 1
            }
            let resultType = batch.events[event.index].resultType
            let error = capped[position].last!.map { valueIDs[WriterCache.Value(dimension: Self.errorCode, text: $0)]! }
            for resolution in Resolution.allCases {
                let time = resolution.bucketStart(second)
                minutes[resolution, default: [:]][BucketKey(time: time, series: series), default: OutcomeCounts()]
                    .add(resultType, statusCode: batch.events[event.index].statusCode)
                if let error {
                    let key = ErrorKey(time: time, series: series, result: Int16(ResultType.allCases.firstIndex(of: resultType)!), error: error)
                    errors[resolution, default: [:]][key, default: 0] += 1
                }
            }
            days.insert(event.day)
            earliest = min(earliest, batch.events[event.index].timestampMillis)
            latest = max(latest, batch.events[event.index].timestampMillis)
        }
        outcome.accepted = newEvents.count
        outcome.timeRange = earliest...latest
        for resolution in Resolution.allCases {
            try await upsertCounts(minutes[resolution] ?? [:], into: resolution.bucketTable, on: connection)
            try await upsertErrors(errors[resolution] ?? [:], into: resolution.errorTable, on: connection)
        }
        try await Self.noteChange(of: (minutes[.minute] ?? [:]).keys.lazy.map(\.time), on: connection, logger: logger)
        let sortedDays = days.sorted()
        try await connection.run(
            """
            INSERT INTO seen_day (day, last_received) SELECT d, \(receivedAtSeconds) FROM unnest(\(sortedDays)) AS d ORDER BY 1
            ON CONFLICT (day) DO UPDATE SET last_received = greatest(seen_day.last_received, excluded.last_received)
            """, logger: logger)
        try await recordOverflow(on: connection, outcome: &outcome)
        try await recordPrices(on: connection)
        try await recordReports(on: connection, receivedAtSeconds: receivedAtSeconds)
        try await Self.addClientDrops(
            [(receivedAtSeconds.floorDividedBy(.secondsPerMinute).quotient, Int64(PreparedEvents.clientDroppedEvents(batches, isNew: isNew)))],
            on: connection, logger: logger)
        try await Self.addLateArrivals(
            late.map { LateArrivalCount(hour: $0.key.time, series: $0.key.series, events: $0.value) },
            on: connection, logger: logger)
        return outcome
    }

    /// Notes in `bucket_change` the span of `minutes` (bucket starts) that the transaction writes to, with
    /// its transaction id (``PostgresBucketStore/bucketChanges(since:)``).
    static func noteChange(of minutes: some Sequence<Int64>, on connection: PostgresConnection, logger: Logger) async throws {
        var span: (first: Int64, last: Int64)?
        for minute in minutes { span = span.map { (min($0.first, minute), max($0.last, minute)) } ?? (minute, minute) }
        guard let span else { return }
        try await connection.run(
            "INSERT INTO bucket_change (from_time, to_time) VALUES (\(span.first), \(span.last + Resolution.minute.seconds))", logger: logger)
    }

    /// Adds to each hour and series its late arrivals, in one statement.
    static func addLateArrivals(_ counts: [LateArrivalCount], on connection: PostgresConnection, logger: Logger) async throws {
        guard !counts.isEmpty else { return }
        try await connection.run(
            """
            INSERT INTO late_arrival (hour, series, events)
            SELECT * FROM unnest(\(counts.map(\.hour)), \(counts.map(\.series)), \(counts.map(\.events))) ORDER BY 1, 2
            ON CONFLICT (hour, series) DO UPDATE SET events = late_arrival.events + excluded.events
            """, logger: logger)
    }

    static let errorCode = Int16(EventDimension.errorDescription.storageCode!)

    /// The codes of an event's capped values: its series dimensions, then its error description.
    private static let codes = (0..<EventDimension.seriesDimensions.count).map(code) + [errorCode]

    /// The stored code of the series dimension at `position`.
    static func code(_ position: Int) -> Int16 {
        Int16(EventDimension.seriesDimensions[position].storageCode!)
    }

    // MARK: Dedup

    /// Inserts the dedup keys of the batch's distinct events; those the database did not hold already
    /// (from this node or another) are new.
    private mutating func deduplicate(on connection: PostgresConnection, outcome: inout RecordOutcome) async throws {
        let candidates = order.distinctKeys()
        let seconds = candidates.map(\.second)
        let hashes = candidates.map(\.hash)
        var inserted = Set<KeyPair>()
        let rows = try await connection.query(
            """
            INSERT INTO seen_event (second, hash) SELECT * FROM unnest(\(seconds), \(hashes)) ORDER BY 1, 2
            ON CONFLICT DO NOTHING RETURNING second, hash
            """, logger: logger)
        for try await (second, hash) in rows.decode((Int64, Int64).self) { inserted.insert(KeyPair(first: second, second: hash)) }
        // What the insert did not add, this node or another had stored.
        let decision = order.decide { !inserted.contains(KeyPair(first: $0.second, second: $0.hash)) }
        isNew = decision.isNew
        outcome.duplicateIndexes = decision.duplicateIndexes
        outcome.duplicates = outcome.duplicateIndexes.count
        for (batchIndex, batch) in batches.enumerated() {
            for index in batch.events.indices where isNew[batchIndex][index] {
                newEvents.append((batchIndex, index, Int32(batch.seconds[index].floorDividedBy(.secondsPerDay).quotient)))
            }
        }
    }

    // MARK: Caps

    /// Per new event: its series values (then its error description) as they count under the cardinality
    /// caps: first its app (the day's apps are capped too), then its other values in that app's budget,
    /// admitting values in event order while the app and the day have room.
    private mutating func admitValues(on connection: PostgresConnection) async throws -> [[String?]] {
        var events = newEvents.map { event -> [String?] in
            batches[event.batch].seriesValues[event.index].inSeriesDimensionOrder + [batches[event.batch].events[event.index].errorDescription]
        }
        let appColumn = SeriesValues.appPosition
        let apps = try await admit(events.map { [$0[appColumn]] }, codes: [Self.codes[appColumn]], apps: events.map { _ in "" }, on: connection)
        for position in events.indices { events[position][appColumn] = apps[position][0] }
        let others = Self.codes.indices.filter { $0 != appColumn }
        let capped = try await admit(
            events.map { values in others.map { values[$0] } }, codes: others.map { Self.codes[$0] }, apps: events.map { $0[appColumn] ?? "" },
            on: connection)
        for position in events.indices {
            for (index, column) in others.enumerated() { events[position][column] = capped[position][index] }
        }
        return events
    }

    /// Per new event: `values` (of the dimensions `codes`) as they count in the budget of its app (`apps`,
    /// "" for none), admitting them in event order while the app has room and the day's total too.
    private mutating func admit(
        _ values: [[String?]], codes: [Int16], apps: [String], on connection: PostgresConnection
    ) async throws -> [[String?]] {
        func isKnown(_ text: String, _ key: WriterCache.DayDimension) -> Bool {
            known.admittedValues[key]?.contains(text) == true || additions.admittedValues[key]?.contains(text) == true
        }
        var unknown: [AdmittedValue] = []
        var seen = Set<AdmittedValue>()
        for (position, row) in values.enumerated() {
            for (column, value) in row.enumerated() {
                guard let value else { continue }
                let key = WriterCache.DayDimension(day: newEvents[position].day, dimension: codes[column], app: apps[position])
                if !isKnown(value, key), seen.insert(AdmittedValue(key: key, text: value)).inserted {
                    unknown.append(AdmittedValue(key: key, text: value))
                }
            }
        }
        guard !unknown.isEmpty else { return values }
        try await takeAdmissionLock(on: connection)
        let days = unknown.map(\.key.day)
        for try await (day, dimension, app, text) in try await connection.query(
            """
            SELECT day, dimension, app, value FROM admitted_value
            WHERE (day, dimension, app, value) IN (
                SELECT * FROM unnest(\(days), \(unknown.map(\.key.dimension)), \(unknown.map(\.key.app)), \(unknown.map(\.text))))
            """, logger: logger
        ).decode((Int32, Int16, String, String).self) {
            additions.admittedValues[WriterCache.DayDimension(day: day, dimension: dimension, app: app), default: []].insert(text)
        }
        // The caps' rule decides, from each app's count and the members among the values asked about, and
        // from the day's count of every app; an app the day has not met starts empty. The rule names an
        // app by a number of this transaction's.
        var appNumbers: [String: Int64] = ["": 0]
        func number(_ app: String) -> Int64 {
            if let known = appNumbers[app] { return known }
            appNumbers[app] = Int64(appNumbers.count)
            return Int64(appNumbers.count - 1)
        }
        func slot(_ key: WriterCache.DayDimension) -> CapAdmission<String>.Slot {
            CapAdmission<String>.Slot(day: Int64(key.day), dimension: Int(key.dimension), app: number(key.app))
        }
        var admission = CapAdmission<String>()
        for key in Set(unknown.map(\.key)) {
            admission.prime(slot(key), count: 0, members: [])
            admission.prime(.allValues(day: Int64(key.day), dimension: Int(key.dimension)), count: 0, members: [])
        }
        var totals: [WriterCache.DayDimension: Int] = [:]
        for try await (day, dimension, app, count) in try await connection.query(
            """
            SELECT day, dimension, app, count(*) FROM admitted_value
            WHERE day = ANY(\(Array(Set(days)).sorted())) AND dimension = ANY(\(Array(Set(codes)).sorted())) GROUP BY 1, 2, 3
            """, logger: logger
        ).decode((Int32, Int16, String, Int64).self) {
            let key = WriterCache.DayDimension(day: day, dimension: dimension, app: app)
            admission.prime(slot(key), count: Int(count), members: additions.admittedValues[key] ?? [])
            totals[WriterCache.DayDimension(day: day, dimension: dimension, app: ""), default: 0] += Int(count)
        }
        for (key, count) in totals { admission.prime(.allValues(day: Int64(key.day), dimension: Int(key.dimension)), count: count, members: []) }
        var admitted: [AdmittedValue] = []
        let capped = values.enumerated().map { position, row in
            row.enumerated().map { column, value -> String? in
                guard let value else { return nil }
                let key = WriterCache.DayDimension(day: newEvents[position].day, dimension: codes[column], app: apps[position])
                if isKnown(value, key) { return value }
                let caps =
                    Int(key.dimension) == EventDimension.app.storageCode
                    ? configuration.limits(ofAppItself: value) : configuration.valueLimits(ofApp: key.app)
                switch admission.admit(
                    value, in: slot(key), cap: caps.own, within: .allValues(day: Int64(key.day), dimension: Int(key.dimension)),
                    totalCap: caps.total, load: { [] })
                {
                case .admitted:
                    return value
                case .admitNow:
                    additions.admittedValues[key, default: []].insert(value)
                    admitted.append(AdmittedValue(key: key, text: value))
                    return value
                case .overflow:
                    return EventDimension.overflowValue
                }
            }
        }
        let appOfNumber = Dictionary(uniqueKeysWithValues: appNumbers.map { ($0.value, $0.key) })
        addOverflow(admission.takeOverflow()) { appOfNumber[$0] ?? "" }
        if !admitted.isEmpty {
            try await connection.run(
                """
                INSERT INTO admitted_value (day, dimension, app, value)
                SELECT * FROM unnest(\(admitted.map(\.key.day)), \(admitted.map(\.key.dimension)), \(admitted.map(\.key.app)), \(admitted.map(\.text)))
                ORDER BY 1, 2, 3, 4
                """, logger: logger)
        }
        return capped
    }

    /// Per key: its series id, after the series cap. Keys of series a full day does not admit are
    /// replaced by their action's overflow series (every other value `__other__`).
    private mutating func admitSeries(
        keys: inout [[Int64]], appTexts: [Int64: String], on connection: PostgresConnection
    ) async throws -> [[Int64]: Int64] {
        var ids = try await seriesIDs(Set(keys), on: connection)
        func isKnown(_ key: WriterCache.DaySeries) -> Bool {
            known.admittedSeries.contains(key) || additions.admittedSeries.contains(key)
        }
        var unknown: [WriterCache.DaySeries] = []
        var listed = Set<WriterCache.DaySeries>()
        for (position, key) in keys.enumerated() {
            let daySeries = WriterCache.DaySeries(day: newEvents[position].day, series: ids[key]!)
            if !isKnown(daySeries), listed.insert(daySeries).inserted { unknown.append(daySeries) }
        }
        guard !unknown.isEmpty else { return ids }
        try await takeAdmissionLock(on: connection)
        for try await (day, series) in try await connection.query(
            """
            SELECT day, series FROM admitted_series WHERE (day, series) IN (SELECT * FROM unnest(\(unknown.map(\.day)), \(unknown.map(\.series))))
            """, logger: logger
        ).decode((Int32, Int64).self) {
            additions.admittedSeries.insert(WriterCache.DaySeries(day: day, series: series))
        }
        // The caps' rule decides, from each day's count of series per app (the series asked about that it
        // admitted are known by now); an app the day has not met starts empty.
        var admission = CapAdmission<Int64>()
        var totals: [Int32: Int] = [:]
        for try await (day, appID, count) in try await connection.query(
            "SELECT day, app, series FROM admitted_series_count WHERE day = ANY(\(Array(Set(unknown.map(\.day))).sorted()))", logger: logger
        ).decode((Int32, Int64, Int64).self) {
            admission.prime(.series(day: Int64(day), app: appID), count: Int(count), members: [])
            totals[day, default: 0] += Int(count)
        }
        for (day, count) in totals { admission.prime(.allSeries(day: Int64(day)), count: count, members: []) }
        var admitted: [WriterCache.DaySeries] = []
        var admittedPerApp: [DayApp: Int64] = [:]
        var overflowed: [Int] = []
        for (position, key) in keys.enumerated() {
            let daySeries = WriterCache.DaySeries(day: newEvents[position].day, series: ids[key]!)
            if isKnown(daySeries) { continue }
            let slot = CapAdmission<Int64>.Slot.series(day: Int64(daySeries.day), app: key[SeriesValues.appPosition])
            let total = CapAdmission<Int64>.Slot.allSeries(day: Int64(daySeries.day))
            let caps = configuration.seriesLimits(ofApp: appTexts[key[SeriesValues.appPosition]] ?? "")
            switch admission.admit(daySeries.series, in: slot, cap: caps.own, within: total, totalCap: caps.total, load: { [] })
            {
            case .admitted:
                continue
            case .admitNow:
                additions.admittedSeries.insert(daySeries)
                admitted.append(daySeries)
                admittedPerApp[DayApp(day: daySeries.day, app: key[SeriesValues.appPosition]), default: 0] += 1
            case .overflow:
                overflowed.append(position)
            }
        }
        addOverflow(admission.takeOverflow()) { appTexts[$0] ?? "" }
        if !admitted.isEmpty {
            try await connection.run(
                """
                INSERT INTO admitted_series (day, series) SELECT * FROM unnest(\(admitted.map(\.day)), \(admitted.map(\.series))) ORDER BY 1, 2
                """, logger: logger)
            let counts = admittedPerApp.sorted { ($0.key.day, $0.key.app) < ($1.key.day, $1.key.app) }
            try await connection.run(
                """
                INSERT INTO admitted_series_count (day, app, series)
                SELECT * FROM unnest(\(counts.map(\.key.day)), \(counts.map(\.key.app)), \(counts.map(\.value))) ORDER BY 1, 2
                ON CONFLICT (day, app) DO UPDATE SET series = admitted_series_count.series + excluded.series
                """, logger: logger)
        }
        guard !overflowed.isEmpty else { return ids }
        let others = try await intern(
            Set(
                EventDimension.seriesDimensions.indices.filter { !SeriesValues.keptInOverflow.contains($0) }.map {
                    WriterCache.Value(dimension: Self.code($0), text: EventDimension.overflowValue)
                }),
            on: connection)
        for position in overflowed {
            let key = keys[position]
            keys[position] = SeriesValues.overflowSeries(
                of: { key[$0] }, other: { others[WriterCache.Value(dimension: Self.code($0), text: EventDimension.overflowValue)]! })
        }
        ids.merge(try await seriesIDs(Set(overflowed.map { keys[$0] }), on: connection)) { old, _ in old }
        return ids
    }

    mutating func takeAdmissionLock(on connection: PostgresConnection) async throws {
        guard !holdsAdmissionLock else { return }
        try await connection.run("SELECT pg_advisory_xact_lock(\(Self.admissionLock))", logger: logger)
        holdsAdmissionLock = true
    }

    // MARK: Ids

    /// The ids of values (by dimension code and text), inserting those not stored yet.
    mutating func intern(_ values: Set<WriterCache.Value>, on connection: PostgresConnection) async throws -> [WriterCache.Value: Int64] {
        var ids: [WriterCache.Value: Int64] = [:]
        var missing: [WriterCache.Value] = []
        for value in values {
            if let id = known.valueIDs[value] ?? additions.valueIDs[value] { ids[value] = id } else { missing.append(value) }
        }
        guard !missing.isEmpty else { return ids }
        // New ids are inserted under the admission lock, which admitting values and series takes too: a
        // transaction that waited for the lock while holding a new row another holder of the lock must
        // insert as well would deadlock with it.
        try await takeAdmissionLock(on: connection)
        missing.sort { ($0.dimension, $0.text) < ($1.dimension, $1.text) }
        let dimensions = missing.map(\.dimension)
        let texts = missing.map(\.text)
        try await connection.run(
            """
            INSERT INTO dimension_value (dimension, value) SELECT * FROM unnest(\(dimensions), \(texts)) ORDER BY 1, 2 ON CONFLICT DO NOTHING
            """, logger: logger)
        for try await (id, dimension, text) in try await connection.query(
            """
            SELECT id, dimension, value FROM dimension_value WHERE (dimension, value) IN (SELECT * FROM unnest(\(dimensions), \(texts)))
            """, logger: logger
        ).decode((Int64, Int16, String).self) {
            let value = WriterCache.Value(dimension: dimension, text: text)
            ids[value] = id
            additions.valueIDs[value] = id
        }
        return ids
    }

    /// The ids of series (by their value ids), inserting those not stored yet.
    mutating func seriesIDs(_ keys: Set<[Int64]>, on connection: PostgresConnection) async throws -> [[Int64]: Int64] {
        var ids: [[Int64]: Int64] = [:]
        var missing: [[Int64]] = []
        for key in keys {
            if let id = known.seriesIDs[key] ?? additions.seriesIDs[key] { ids[key] = id } else { missing.append(key) }
        }
        guard !missing.isEmpty else { return ids }
        try await takeAdmissionLock(on: connection)  // as for values, above
        missing.sort { $0.lexicographicallyPrecedes($1) }
        let columns = Schema.seriesColumns
        let arrays = columns.indices.map { column in missing.map { $0[column] } }
        var insert = PostgresQuery(
            unsafeSQL: """
                INSERT INTO series (\(columns.joined(separator: ", ")))
                SELECT * FROM unnest(\(columns.indices.map { "$\($0 + 1)::bigint[]" }.joined(separator: ", "))) ORDER BY \(columns.indices.map { "\($0 + 1)" }.joined(separator: ", "))
                ON CONFLICT DO NOTHING
                """)
        for array in arrays { insert.binds.append(array) }
        try await connection.run(insert, logger: logger)
        var select = PostgresQuery(
            unsafeSQL: """
                SELECT id, \(columns.joined(separator: ", ")) FROM series
                WHERE (\(columns.joined(separator: ", "))) IN (SELECT * FROM unnest(\(columns.indices.map { "$\($0 + 1)::bigint[]" }.joined(separator: ", "))))
                """)
        for array in arrays { select.binds.append(array) }
        for try await row in try await connection.query(select, logger: logger) {
            var cells = row.makeIterator()
            let id = try cells.next()!.decode(Int64.self)
            var key: [Int64] = []
            while let cell = cells.next() { key.append(try cell.decode(Int64.self)) }
            ids[key] = id
            additions.seriesIDs[key] = id
        }
        return ids
    }

    // MARK: Rows

    func upsertCounts(_ buckets: [BucketKey: OutcomeCounts], into table: String, on connection: PostgresConnection) async throws {
        guard !buckets.isEmpty else { return }
        let sorted = buckets.sorted { ($0.key.time, $0.key.series) < ($1.key.time, $1.key.series) }
        let counters: [(String, KeyPath<OutcomeCounts, Int64>)] = [
            ("start", \.start), ("success", \.success), ("already_granted", \.alreadyGranted), ("failure", \.failure),
            ("cancel", \.cancel), ("pending", \.pending), ("conflicts", \.conflicts), ("server_errors", \.serverErrors),
        ]
        var query = PostgresQuery(
            unsafeSQL: """
                INSERT INTO \(table) AS b (time, series, \(counters.map(\.0).joined(separator: ", ")))
                SELECT * FROM unnest(\((1...10).map { "$\($0)::bigint[]" }.joined(separator: ", "))) ORDER BY 1, 2
                ON CONFLICT (time, series) DO UPDATE SET \(counters.map { "\($0.0) = b.\($0.0) + excluded.\($0.0)" }.joined(separator: ", "))
                """)
        query.binds.append(sorted.map(\.key.time))
        query.binds.append(sorted.map(\.key.series))
        for (_, path) in counters { query.binds.append(sorted.map { $0.value[keyPath: path] }) }
        try await connection.run(query, logger: logger)
    }

    func upsertErrors(_ entries: [ErrorKey: Int64], into table: String, on connection: PostgresConnection) async throws {
        guard !entries.isEmpty else { return }
        let sorted = entries.sorted {
            ($0.key.time, $0.key.series, $0.key.result, $0.key.error) < ($1.key.time, $1.key.series, $1.key.result, $1.key.error)
        }
        var query = PostgresQuery(
            unsafeSQL: """
                INSERT INTO \(table) AS e (time, series, result, error, events)
                SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::bigint[], $5::bigint[]) ORDER BY 1, 2, 3, 4
                ON CONFLICT (time, series, result, error) DO UPDATE SET events = e.events + excluded.events
                """)
        query.binds.append(sorted.map(\.key.time))
        query.binds.append(sorted.map(\.key.series))
        query.binds.append(sorted.map(\.key.result))
        query.binds.append(sorted.map(\.key.error))
        query.binds.append(sorted.map(\.value))
        try await connection.run(query, logger: logger)
    }

    /// Adds the events the caps counted under `__other__` to what the transaction stores, naming each
    /// slot's app by `app` (its number or value id in the slot).
    private mutating func addOverflow<Key>(_ counts: [CapAdmission<Key>.Slot: Int], app: (Int64) -> String) {
        for (slot, events) in counts {
            overflow[WriterCache.DayDimension(day: Int32(slot.day), dimension: Int16(slot.dimension), app: app(slot.app)), default: 0] +=
                Int64(events)
        }
    }

    /// Adds the transaction's overflow to the `overflow` rows and to `outcome`.
    private func recordOverflow(on connection: PostgresConnection, outcome: inout RecordOutcome) async throws {
        guard !overflow.isEmpty else { return }
        let sorted = overflow.sorted { ($0.key.day, $0.key.dimension, $0.key.app) < ($1.key.day, $1.key.dimension, $1.key.app) }
        try await connection.run(
            """
            INSERT INTO overflow (day, dimension, app, events)
            SELECT * FROM unnest(\(sorted.map(\.key.day)), \(sorted.map(\.key.dimension)), \(sorted.map(\.key.app)), \(sorted.map(\.value)))
            ORDER BY 1, 2, 3
            ON CONFLICT (day, dimension, app) DO UPDATE SET events = overflow.events + excluded.events
            """, logger: logger)
        for (key, events) in sorted { outcome.addOverflow(Int(events), of: key.app, dimension: Schema.overflowNames[Int(key.dimension)]!) }
    }

    /// Keeps the latest price of each product and plan (the latest batch's of equal times).
    private func recordPrices(on connection: PostgresConnection) async throws {
        var latest: [[String]: ProductPrice] = [:]
        for price in batches.flatMap(\.prices) {
            let key = [price.productID, price.planID ?? ""]
            if (latest[key]?.seenMillis ?? .min) <= price.seenMillis { latest[key] = price }
        }
        try await Self.upsertPrices(Array(latest.values), on: connection, logger: logger)
    }

    /// Keeps each of `prices` unless a later one is stored (one price per product and plan).
    static func upsertPrices(_ prices: [ProductPrice], on connection: PostgresConnection, logger: Logger) async throws {
        guard !prices.isEmpty else { return }
        let prices = prices.sorted { ($0.productID, $0.planID ?? "") < ($1.productID, $1.planID ?? "") }
        try await connection.run(
            """
            INSERT INTO product_price (product_id, plan_id, price, currency, seen_millis)
            SELECT * FROM unnest(\(prices.map(\.productID)), \(prices.map { $0.planID ?? "" }), \(prices.map(\.price)),
                \(prices.map(\.currency)), \(prices.map(\.seenMillis))) ORDER BY 1, 2
            ON CONFLICT (product_id, plan_id) DO UPDATE SET price = excluded.price, currency = excluded.currency,
                seen_millis = excluded.seen_millis WHERE excluded.seen_millis >= product_price.seen_millis
            """, logger: logger)
    }

    /// Appends what the new events reported per transaction and account token.
    private func recordReports(on connection: PostgresConnection, receivedAtSeconds: Int64) async throws {
        try await Self.appendReports(
            batches.indices.flatMap { batches[$0].clientReportBlobs(ofNew: isNew[$0], receivedSeconds: receivedAtSeconds) }, on: connection,
            logger: logger)
    }

    /// Adds to each minute's events dropped by clients.
    static func addClientDrops(_ drops: [(minute: Int64, events: Int64)], on connection: PostgresConnection, logger: Logger) async throws {
        let drops = drops.filter { $0.events > 0 }
        guard !drops.isEmpty else { return }
        try await connection.run(
            """
            INSERT INTO client_drop (minute, events) SELECT * FROM unnest(\(drops.map(\.minute)), \(drops.map(\.events))) ORDER BY 1
            ON CONFLICT (minute) DO UPDATE SET events = client_drop.events + excluded.events
            """, logger: logger)
    }

    /// Appends client report parts (a part without grants is sent as an empty blob and stored as NULL).
    static func appendReports(_ parts: [ClientReportMinute], on connection: PostgresConnection, logger: Logger) async throws {
        guard !parts.isEmpty else { return }
        try await connection.run(
            """
            INSERT INTO client_report_minute (minute, reports, grants, received)
            SELECT minute, reports, nullif(grants, ''::bytea), received
            FROM unnest(
                \(parts.map(\.minute)), \(parts.map { ByteBuffer(bytes: $0.reports) }), \(parts.map { ByteBuffer(bytes: $0.grants ?? []) }),
                \(parts.map(\.receivedSeconds))
            ) AS part (minute, reports, grants, received)
            """, logger: logger)
    }
}

/// A bucket row's key.
struct BucketKey: Hashable {
    var time: Int64
    var series: Int64
}

/// An error row's key.
struct ErrorKey: Hashable {
    var time: Int64
    var series: Int64
    var result: Int16
    var error: Int64
}

/// Two numbers, hashable.
struct KeyPair: Hashable {
    var first: Int64
    var second: Int64
}

/// A day and an app's value id (0: none), the key of a day's count of an app's admitted series.
struct DayApp: Hashable {
    var day: Int32
    var app: Int64
}

/// A value admitted on a day, for a dimension, in an app's budget.
struct AdmittedValue: Hashable {
    var key: WriterCache.DayDimension
    var text: String
}
#endif
