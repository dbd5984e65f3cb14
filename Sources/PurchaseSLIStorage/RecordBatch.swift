import GRDB
import PurchaseSLICore

/// One batch of events on its way into the buckets: deduplicated by eventID, then aggregated per
/// bucket and merged into the stored minute, hour and day buckets.
struct RecordBatch {
    /// The events, as the arrays they came in (one per request when the server groups requests).
    private let batches: [[PurchaseEvent]]
    /// For each event, by its position counted across all arrays: which array, and where in it.
    private let arrayOf: [Int32], indexIn: [Int32]
    /// Event positions sorted by (second, hash), so duplicates within the batch are neighbours.
    private let order: [Int]
    private let seconds: [Int64]
    private let hashes: [Int64]

    /// Computes the dedup keys outside the write lock, without copying the events. O(n log n).
    init(batches: [[PurchaseEvent]]) {
        self.batches = batches
        let count = batches.reduce(0) { $0 + $1.count }
        var seconds: [Int64] = [], hashes: [Int64] = [], arrayOf: [Int32] = [], indexIn: [Int32] = []
        seconds.reserveCapacity(count)
        hashes.reserveCapacity(count)
        arrayOf.reserveCapacity(count)
        indexIn.reserveCapacity(count)
        for (arrayIndex, events) in batches.enumerated() {
            for index in events.indices {
                seconds.append(events[index].timestampMillis.floorDividedBy(1000).quotient)
                hashes.append(EventIDHash.hash(events[index].eventID))
                arrayOf.append(Int32(arrayIndex))
                indexIn.append(Int32(index))
            }
        }
        order = seconds.indices.sorted { (seconds[$0], hashes[$0]) < (seconds[$1], hashes[$1]) }
        self.seconds = seconds
        self.hashes = hashes
        self.arrayOf = arrayOf
        self.indexIn = indexIn
    }

    /// Writes the batch inside an open transaction and returns what it counted.
    func write(
        into db: Database, cache: inout InternCache, configuration: StoreConfiguration, receivedAtSeconds: Int64
    ) throws -> RecordOutcome {
        var outcome = RecordOutcome()
        let accepted = try deduplicate(in: db, outcome: &outcome)
        let statements = try InternStatements(db)
        let codes = EventDimension.seriesDimensions.map { Schema.dimensionCodes[$0.rawValue]! }
        let errorCode = Schema.dimensionCodes["errorDescription"]!
        var minutes: [Int64: [Int64: OutcomeCounts]] = [:]
        var errors: [Int64: [ErrorCodec.Entry: Int64]] = [:]
        var days = Set<Int64>()
        for position in accepted {
            let second = seconds[position]
            let array = Int(arrayOf[position]), index = Int(indexIn[position])
            let day = second.floorDividedBy(86_400).quotient
            days.insert(day)
            let series = try cache.seriesID(
                of: batches[array][index], day: day, cap: configuration.cardinalityCap, codes: codes, statements: statements)
            let minute = Resolution.minute.bucketStart(second)
            minutes[minute, default: [:]][series, default: OutcomeCounts()].add(batches[array][index].resultType, statusCode: batches[array][index].statusCode)
            if let description = batches[array][index].errorDescription {
                let error = try cache.valueID(
                    description, dimension: errorCode, day: day, cap: configuration.cardinalityCap, statements: statements)
                let result = Int64(ResultType.allCases.firstIndex(of: batches[array][index].resultType)!)
                errors[minute, default: [:]][ErrorCodec.Entry(series: series, result: result, error: error), default: 0] += 1
            }
            let millis = batches[array][index].timestampMillis
            outcome.timeRange = outcome.timeRange.map { min($0.lowerBound, millis)...max($0.upperBound, millis) } ?? millis...millis
        }
        outcome.accepted = accepted.count
        outcome.duplicateIndexes.sort()
        try BucketWriter(db: db).add(minutes: minutes, errors: errors)
        try markSeen(days: days, receivedAtSeconds: receivedAtSeconds, in: db)
        try recordOverflow(cache.takeOverflow(), in: db, outcome: &outcome)
        return outcome
    }

    /// Returns the indexes of events not counted before (in event-time order) and stores their hashes.
    private func deduplicate(in db: Database, outcome: inout RecordOutcome) throws -> [Int] {
        var distinctSeconds: [Int64] = []
        for index in order where distinctSeconds.last != seconds[index] { distinctSeconds.append(seconds[index]) }
        var stored = try SeenEventIDs.load(seconds: distinctSeconds, from: db)
        var writer = try SeenEventIDs.Writer(db)
        var accepted: [Int] = []
        accepted.reserveCapacity(order.count)
        var added: [Int64] = []
        var position = 0
        while position < order.count {
            let second = seconds[order[position]]
            let existing = stored.removeValue(forKey: second) ?? []
            added.removeAll(keepingCapacity: true)
            while position < order.count, seconds[order[position]] == second {
                let index = order[position]
                let hash = hashes[index]
                position += 1
                if added.last == hash || existing.containsSorted(hash) {
                    outcome.duplicates += 1
                    outcome.duplicateIndexes.append(index)
                } else {
                    added.append(hash)
                    accepted.append(index)
                }
            }
            if !added.isEmpty { try writer.write(second: second, hashes: existing.mergingSorted(added)) }
        }
        return accepted
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

    private func recordOverflow(
        _ overflow: [(day: Int64, dimension: Int, events: Int)], in db: Database, outcome: inout RecordOutcome
    ) throws {
        let names = Dictionary(uniqueKeysWithValues: Schema.dimensionCodes.map { ($1, $0) })
        for (day, dimension, events) in overflow {
            try db.execute(
                sql: """
                    INSERT INTO overflow (day, dimension, events) VALUES (?, ?, ?)
                    ON CONFLICT (day, dimension) DO UPDATE SET events = events + excluded.events
                    """,
                arguments: [day, dimension, events])
            outcome.overflowed[names[dimension]!, default: 0] += events
        }
    }
}

extension [Int64] {
    /// Binary search in an ascending array. O(log n).
    func containsSorted(_ value: Int64) -> Bool {
        var low = 0, high = count
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
        var left = 0, right = 0
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
