import GRDB
import PurchaseSLICore

/// One commit's events on their way into the buckets: deduplicated by eventID, then aggregated per
/// minute and handed to ``BucketWriter`` (minute buckets now, hours and days through pending rollups).
struct RecordBatch {
    private let batches: [PreparedEvents]
    private let dedupOrder: DedupOrder
    private var order: [DedupOrder.Key] { dedupOrder.keys }

    init(batches: [PreparedEvents]) {
        self.batches = batches
        dedupOrder = DedupOrder(batches)
    }

    /// Writes the batch inside an open transaction and returns what it counted.
    func write(
        into db: Database, memory: inout WriterMemory, configuration: StoreConfiguration, receivedAtSeconds: Int64
    ) throws -> RecordOutcome {
        var outcome = RecordOutcome()
        let isNew = try deduplicate(in: db, pending: &memory.pendingSeen, outcome: &outcome)
        let statements = try InternStatements(db)
        let codes = EventDimension.seriesDimensions.map { $0.storageCode! }
        let errorCode = EventDimension.errorDescription.storageCode!
        var minutes: [Int64: [Int64: OutcomeCounts]] = [:]
        var errors: [Int64: [ErrorCodec.Entry: Int64]] = [:]
        var days = Set<Int64>()
        var late: [LateKey: Int64] = [:]
        var earliest = Int64.max
        var latest = Int64.min
        for (batchIndex, batch) in batches.enumerated() {
            // Through a pointer's `pointee` the events are read in place: a subscript would copy each one.
            try batch.events.withUnsafeBufferPointer { events in
                for index in events.indices where isNew[batchIndex][index] {
                    let event = events.baseAddress! + index
                    let second = batch.seconds[index]
                    let day = second.floorDividedBy(.secondsPerDay).quotient
                    days.insert(day)
                    let (series, app) = try memory.intern.seriesID(
                        of: batch.seriesValues[index], hash: batch.seriesHashes[index], day: day, caps: configuration, codes: codes,
                        statements: statements)
                    let minute = Resolution.minute.bucketStart(second)
                    if batch.tracksLateArrivals, LateArrival.isLate(eventSeconds: second, receivedSeconds: receivedAtSeconds) {
                        late[LateKey(hour: Resolution.hour.bucketStart(second), series: series), default: 0] += 1
                    }
                    let resultType = event.pointee.resultType
                    minutes[minute, default: [:]][series, default: OutcomeCounts()].add(
                        resultType, statusCode: event.pointee.statusCode)
                    if let description = event.pointee.errorDescription {
                        let error = try memory.intern.valueID(
                            description, dimension: errorCode, app: app, day: day,
                            configuration: configuration, statements: statements)
                        let result = Int64(ResultType.allCases.firstIndex(of: resultType)!)
                        errors[minute, default: [:]][ErrorCodec.Entry(series: series, result: result, error: error), default: 0] += 1
                    }
                    earliest = min(earliest, event.pointee.timestampMillis)
                    latest = max(latest, event.pointee.timestampMillis)
                    outcome.accepted += 1
                }
            }
        }
        if outcome.accepted > 0 { outcome.timeRange = earliest...latest }
        try BucketWriter(db: db, deferral: configuration.deferral).add(minutes: minutes, errors: errors)
        try markSeen(days: days, receivedAtSeconds: receivedAtSeconds, in: db)
        try recordOverflow(memory.intern.takeOverflow(), in: db, outcome: &outcome)
        try recordPrices(in: db)
        // Only what the events counted for the first time reported: a resent batch appends nothing.
        for (batchIndex, batch) in batches.enumerated() {
            try ClientReportRows.append(batch.clientReportBlobs(ofNew: isNew[batchIndex], receivedSeconds: receivedAtSeconds), in: db)
        }
        if !late.isEmpty {
            let upsert = try RawStatement(
                db,
                sql: """
                    INSERT INTO late_arrival (hour, series, events) VALUES (?, ?, ?)
                    ON CONFLICT (hour, series) DO UPDATE SET events = events + excluded.events
                    """)
            for (key, events) in late {
                upsert.bind(key.hour, at: 1)
                upsert.bind(key.series, at: 2)
                upsert.bind(events, at: 3)
                try upsert.run()
            }
        }
        let dropped = PreparedEvents.clientDroppedEvents(batches, isNew: isNew)
        if dropped > 0 {
            try db.execute(
                sql: "INSERT INTO client_drop (minute, events) VALUES (?, ?) ON CONFLICT (minute) DO UPDATE SET events = events + excluded.events",
                arguments: [receivedAtSeconds.floorDividedBy(.secondsPerMinute).quotient, dropped])
        }
        return outcome
    }

    /// An hour of event time and a series, under which late arrivals are counted.
    private struct LateKey: Hashable {
        var hour: Int64
        var series: Int64
    }

    /// Marks, per batch and event, whether it is counted for the first time, records the positions of
    /// the duplicates (counted across the batches) and stores the new hashes as pending.
    private func deduplicate(
        in db: Database, pending: inout PendingSeenIDs, outcome: inout RecordOutcome
    ) throws -> [[Bool]] {
        try pending.synchronize(with: db)
        var distinctSeconds: [Int64] = []
        for key in order where distinctSeconds.last != key.second { distinctSeconds.append(key.second) }
        var stored = try SeenEventIDs.load(seconds: distinctSeconds, from: db)
        let decision = dedupOrder.decide { key in
            stored[key.second]?.containsSorted(key.hash) == true || pending.contains(second: key.second, hash: key.hash)
        }
        outcome.duplicateIndexes = decision.duplicateIndexes
        outcome.duplicates = decision.duplicateIndexes.count
        let writer = try SeenEventIDs.Writer(db)
        var added: [Int64] = []
        var deferred: [PendingSeenIDs.Key] = []
        let newKeys = decision.newKeys
        var position = 0
        while position < newKeys.count {
            let second = newKeys[position].second
            let existing = stored.removeValue(forKey: second) ?? []
            added.removeAll(keepingCapacity: true)
            while position < newKeys.count, newKeys[position].second == second {
                added.append(newKeys[position].hash)
                position += 1
            }
            // Rewriting the second's row costs its existing hashes too: cheap for a new or thin second
            // (a live stream's), wasteful for a few events added to a full one (a backlog's), which are
            // kept pending until many commits' worth can be merged at once.
            if existing.count <= 2 * added.count {
                try writer.write(second: second, hashes: existing.mergingSorted(added))
            } else {
                deferred.append(contentsOf: added.lazy.map { PendingSeenIDs.Key(second: second, hash: $0) })
            }
        }
        try pending.append(deferred, in: db)
        return decision.isNew
    }

    private func markSeen(days: Set<Int64>, receivedAtSeconds: Int64, in db: Database) throws {
        let upsert = try RawStatement(
            db,
            sql: """
                INSERT INTO seen_day (day, last_received) VALUES (?, ?)
                ON CONFLICT (day) DO UPDATE SET last_received = max(last_received, excluded.last_received)
                """)
        for day in days {
            upsert.bind(day, receivedAtSeconds)
            try upsert.run()
        }
    }

    /// Keeps the latest price of each product and plan the batches carried.
    private func recordPrices(in db: Database) throws {
        for price in batches.flatMap(\.prices) {
            try db.execute(
                sql: """
                    INSERT INTO product_price (product_id, plan_id, price, currency, seen_millis) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (product_id, plan_id) DO UPDATE SET price = excluded.price, currency = excluded.currency,
                        seen_millis = excluded.seen_millis WHERE excluded.seen_millis >= product_price.seen_millis
                    """, arguments: [price.productID, price.planID ?? "", price.price, price.currency, price.seenMillis])
        }
    }

    /// Adds the events each app's full caps counted under `__other__` to `overflow`, and to the outcome.
    private func recordOverflow(
        _ overflow: [(day: Int64, dimension: Int, app: Int64, appText: String, events: Int)], in db: Database, outcome: inout RecordOutcome
    ) throws {
        let names = Schema.overflowNames
        for (day, dimension, app, appText, events) in overflow {
            try db.execute(
                sql: """
                    INSERT INTO overflow (day, dimension, app, events) VALUES (?, ?, ?, ?)
                    ON CONFLICT (day, dimension, app) DO UPDATE SET events = events + excluded.events
                    """,
                arguments: [day, dimension, app, events])
            outcome.addOverflow(events, of: appText, dimension: names[dimension]!)
        }
    }
}

extension [Int64] {
    /// Binary search in an ascending array. O(log n).
    func containsSorted(_ value: Int64) -> Bool {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value
    }

    /// Merges two ascending arrays. O(n + m).
    func mergingSorted(_ other: [Int64]) -> [Int64] {
        guard !isEmpty else { return other }
        var merged: [Int64] = []
        merged.reserveCapacity(count + other.count)
        var left = 0
        var right = 0
        while left < count || right < other.count {
            if right == other.count || (left < count && self[left] <= other[right]) {
                merged.append(self[left])
                left += 1
            } else {
                merged.append(other[right])
                right += 1
            }
        }
        return merged
    }
}
