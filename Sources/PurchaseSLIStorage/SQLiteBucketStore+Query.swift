public import PurchaseSLICore
import GRDB

extension SQLiteBucketStore {
    /// Answers a count query from the coarsest buckets that fit the range and the step.
    ///
    /// The range is rounded out to whole minutes; each aligned stretch of it is read from the day, hour
    /// or minute buckets, so a 7-day query reads mostly rollups. Rows come sorted by time, then key.
    /// O(bucket rows in the range + pending rollup rows (fewer than 256) + series).
    public func counts(_ query: CountQuery) throws -> [CountRow] {
        try counts([query])[0]
    }

    /// Answers several count queries; those over the same range and step (the minute series of every
    /// slice that alert evaluation reads, say) share one read of the buckets: each bucket is decoded once
    /// and its entries summed into every query's groups.
    public func counts(_ queries: [CountQuery]) throws -> [[CountRow]] {
        try scanTogether(queries) { accumulator, grouping, query in accumulator.rows(grouping: grouping, query: query) }
    }

    /// Answers count queries with a step as dense series, sharing reads as ``counts(_:)-([CountQuery])`` does.
    public func series(_ queries: [CountQuery]) throws -> [CountSeries] {
        if let query = queries.first(where: { $0.step == nil || $0.groupsByResult }) {
            throw StorageError.invalidQuery("a series needs a step and no resultType grouping, got \(query.groupBy)")
        }
        return try scanTogether(queries) { accumulator, grouping, query in accumulator.series(grouping: grouping, query: query) }
    }

    /// Reads the buckets once for queries over the same range and step (else one query at a time) and
    /// turns each query's sums into its answer.
    private func scanTogether<Answer>(
        _ queries: [CountQuery], answer: (CountAccumulator, SeriesGrouping, CountQuery) -> Answer
    ) throws -> [Answer] {
        guard let first = queries.first else { return [] }
        guard queries.allSatisfy({ $0.fromSeconds == first.fromSeconds && $0.toSeconds == first.toSeconds && $0.step == first.step })
        else { return try queries.map { try scanTogether([$0], answer: answer)[0] } }
        if queries.contains(where: \.isAboutErrors) {
            throw StorageError.invalidQuery("errorDescription is answered by error counts, not outcome counts")
        }
        let (from, to, coarsest) = try plan(first)
        return try pool.read { db in
            let groupings = try queries.map { try SeriesGrouping(db, groupBy: $0.groupBy, filters: $0.filters) }
            var accumulators = groupings.map {
                CountAccumulator(stepSeconds: first.step?.seconds, from: from, groupCount: $0.groupKeys.count)
            }
            let segments = Self.segments(from: from, to: to, coarsest: coarsest)
            try Self.forEachBucket(in: segments, of: .counts, db: db) { time, blob in
                var cells = accumulators.indices.map { accumulators[$0].takeCells(at: time) }
                try BucketCodec.forEachEntry(in: blob) { series, counts in
                    for index in groupings.indices {
                        if let group = groupings[index].group(ofSeries: series) { cells[index][Int(group)] += counts }
                    }
                }
                for index in accumulators.indices {
                    accumulators[index].putCells(cells[index], at: time)
                    if let limit = queries[index].maximumRows, accumulators[index].rowCount > limit {
                        throw StorageError.tooManyRows(limit: limit, groups: groupings[index].groupKeys.count, query: queries[index])
                    }
                }
            }
            return queries.indices.map { answer(accumulators[$0], groupings[$0], queries[$0]) }
        }
    }

    /// The range rounded out to whole minutes and the coarsest resolution the step allows.
    private func plan(_ query: CountQuery) throws -> (from: Int64, to: Int64, coarsest: Resolution) {
        let from = Resolution.minute.bucketStart(query.fromSeconds)
        let to = Resolution.minute.bucketStart(query.toSeconds + 59)
        guard from < to else { throw StorageError.invalidQuery("--from must be before --to") }
        let stepSeconds = query.step?.seconds
        if let stepSeconds, stepSeconds % 60 != 0 {
            throw StorageError.invalidQuery("--step must be a whole number of minutes, got \(query.step!)")
        }
        if let stepSeconds, (to - from) / stepSeconds > 1_000_000 {
            throw StorageError.invalidQuery("--step \(query.step!) makes more than a million time steps; use a larger step")
        }
        let coarsest = Resolution.allCases.last { stepSeconds == nil || stepSeconds! % $0.seconds == 0 }!
        return (from, to, coarsest)
    }

    /// Counts the events that carried each error description over the range, grouped by dimensions
    /// (and by `errorDescription` itself when asked) and optionally by time steps. Sorted by time, then
    /// by events (most first). O(error entries in the range + series).
    public func errorCounts(_ query: CountQuery) throws -> [ErrorCountRow] {
        let (from, to, coarsest) = try plan(query)
        let stepSeconds = query.step?.seconds
        let origin = stepSeconds.map { from - from.floorDividedBy($0).remainder } ?? from
        return try pool.read { db in
            let grouping = try SeriesGrouping(db, groupBy: query.groupBy, filters: query.filters)
            let code = Schema.dimensionCodes[EventDimension.errorDescription.rawValue]!
            var texts: [Int64: String] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, value FROM dimension_value WHERE dimension = ?", arguments: [code])
            while let row = try rows.next() { texts[row[0]] = row[1] }
            let allowed = query.filters[.errorDescription]
            let results = Set(ResultType.allCases.indices.filter { grouping.results.contains(ResultType.allCases[$0]) }.map(Int64.init))
            let keepsError = query.groupBy.contains(.errorDescription)
            let keepsResult = query.groupBy.contains(.resultType)
            var cells: [ErrorCell: Int64] = [:]
            let segments = Self.segments(from: from, to: to, coarsest: coarsest)
            try Self.forEachBucket(in: segments, of: .errors, db: db) { time, blob in
                let slot = stepSeconds.map { (time - origin) / $0 } ?? 0
                for (entry, events) in try ErrorCodec.decode(blob) {
                    guard let group = grouping.group(ofSeries: entry.series), results.contains(entry.result),
                          allowed?.contains(texts[entry.error]) ?? true
                    else { continue }
                    let cell = ErrorCell(
                        slot: slot, group: group, result: keepsResult ? entry.result : -1, error: keepsError ? entry.error : 0)
                    cells[cell, default: 0] += events
                }
                if let limit = query.maximumRows, cells.count > limit {
                    throw StorageError.tooManyRows(limit: limit, groups: grouping.groupKeys.count, query: query)
                }
            }
            return cells.map { cell, events in
                var seriesValues = grouping.groupKeys[Int(cell.group)].map { grouping.text(of: $0) }.makeIterator()
                let key = query.groupBy.map { dimension -> String? in
                    switch dimension {
                    case .errorDescription: texts[cell.error]
                    case .resultType: ResultType.allCases[Int(cell.result)].rawValue
                    default: seriesValues.next()!
                    }
                }
                return ErrorCountRow(timeSeconds: stepSeconds.map { origin + cell.slot * $0 }, key: key, events: events)
            }.sorted { lhs, rhs in
                if lhs.timeSeconds != rhs.timeSeconds { return (lhs.timeSeconds ?? 0) < (rhs.timeSeconds ?? 0) }
                if lhs.events != rhs.events { return lhs.events > rhs.events }
                return lhs.key.lexicographicallyPrecedes(rhs.key) { ($0 ?? "") < ($1 ?? "") }
            }
        }
    }

    private struct ErrorCell: Hashable {
        var slot: Int64
        var group: Int32
        var result: Int64
        var error: Int64
    }

    /// Splits `[from, to)` into stretches aligned to each resolution, coarsest in the middle.
    static func segments(from: Int64, to: Int64, coarsest: Resolution) -> [(Resolution, Int64, Int64)] {
        guard from < to else { return [] }
        guard let finer = Resolution(rawValue: coarsest.rawValue == 86_400 ? 3600 : 60), coarsest != .minute else {
            return [(.minute, from, to)]
        }
        let alignedFrom = coarsest.bucketStart(from + coarsest.seconds - 1)
        let alignedTo = coarsest.bucketStart(to)
        guard alignedFrom < alignedTo else { return segments(from: from, to: to, coarsest: finer) }
        return segments(from: from, to: alignedFrom, coarsest: finer) + [(coarsest, alignedFrom, alignedTo)]
            + segments(from: alignedTo, to: to, coarsest: finer)
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
        in segments: [(Resolution, Int64, Int64)], of content: BucketContent, db: Database,
        _ body: (Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        for (resolution, from, to) in segments {
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
        guard let from = segments.map(\.1).min(), let to = segments.map(\.2).max() else { return }
        let pending = try RawStatement(
            db, sql: "SELECT time, \(content.column), in_minute FROM rollup_pending WHERE time >= ? AND time < ?")
        defer { pending.reset() }
        pending.bind(from, to)
        while try pending.step() {
            let time = pending.int64(0)
            guard let (resolution, _, _) = segments.first(where: { $0.1 <= time && time < $0.2 }),
                  resolution != .minute || pending.int64(2) == 0
            else { continue }
            try decoding(table: "rollup_pending", row: "the row of \(RFC3339.format(seconds: time))") {
                try body(resolution.bucketStart(time), pending.blob(1))
            }
        }
    }
}

/// Runs `body`, turning a blob that does not decode into a ``StorageError`` naming `table` and `row`.
func decoding<Result>(table: String, row: @autoclosure () -> String, _ body: () throws -> Result) throws -> Result {
    do {
        return try body()
    } catch let error as CorruptBucketError {
        throw StorageError.damaged(table: table, row: row(), detail: error.detail)
    }
}

/// Maps each stored series to the group it counts in (or to none, when a filter excludes it).
struct SeriesGrouping {
    /// Per series id: the group index, or -1 when filtered out.
    private var groupOfSeries: [Int32] = []
    /// Per group: the value ids of the grouping dimensions (resultType excluded).
    private(set) var groupKeys: [[Int64]] = []
    /// The text of each value id that appears in a group key.
    private(set) var valueTexts: [Int64: String] = [:]
    /// The result types that pass the filters.
    let results: Set<ResultType>
    let seriesDimensions: [EventDimension]

    init(_ db: Database, groupBy: [EventDimension], filters: [EventDimension: Set<String?>]) throws {
        seriesDimensions = groupBy.filter { $0.seriesIndex != nil }
        results = Set(ResultType.allCases.filter { filters[.resultType]?.contains($0.rawValue) ?? true })
        let needed = Set(seriesDimensions).union(filters.keys).filter { $0.seriesIndex != nil }
        let codes = needed.map { Schema.dimensionCodes[$0.rawValue]! }
        var textOfID: [Int64: String] = [:]
        if !codes.isEmpty {
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, value FROM dimension_value WHERE dimension IN (\(codes.map(String.init).joined(separator: ",")))")
            while let row = try rows.next() { textOfID[row[0]] = row[1] }
        }
        var groupIndex: [[Int64]: Int32] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id, \(Schema.seriesColumns.joined(separator: ", ")) FROM series")
        while let row = try rows.next() {
            let values = (0...Schema.seriesColumns.count).map { row[$0] as Int64? }
            guard let id = values[0], (0...VarintReader.largestCount).contains(id), values.allSatisfy({ $0 != nil }) else {
                throw StorageError.damaged(table: "series", row: "a series", detail: "an id or value id that is not a whole number in range")
            }
            let ids = values.dropFirst().map { $0! }
            if Int(id) >= groupOfSeries.count {
                groupOfSeries.append(contentsOf: repeatElement(-1, count: Int(id) + 1 - groupOfSeries.count))
            }
            let passes = filters.allSatisfy { dimension, allowed in
                guard let position = dimension.seriesIndex else { return true }
                let valueID = ids[position]
                return allowed.contains(valueID == 0 ? nil : textOfID[valueID])
            }
            guard passes else { continue }
            let key = seriesDimensions.map { ids[$0.seriesIndex!] }
            if let group = groupIndex[key] {
                groupOfSeries[Int(id)] = group
            } else {
                let group = Int32(groupKeys.count)
                groupIndex[key] = group
                groupKeys.append(key)
                groupOfSeries[Int(id)] = group
            }
        }
        valueTexts = textOfID
    }

    func group(ofSeries series: Int64) -> Int32? {
        guard series >= 0, series < groupOfSeries.count else { return nil }
        let group = groupOfSeries[Int(series)]
        return group < 0 ? nil : group
    }

    func text(of valueID: Int64) -> String? {
        valueID == 0 ? nil : valueTexts[valueID]
    }
}

/// Sums bucket entries into (time step, group) cells: one dense array of groups per time step.
struct CountAccumulator {
    let stepSeconds: Int64?
    let origin: Int64
    let groupCount: Int
    private var slots: [Int64: [OutcomeCounts]] = [:]
    /// The rows the answer may hold so far: a cell per group in each time step read.
    private(set) var rowCount = 0

    init(stepSeconds: Int64?, from: Int64, groupCount: Int) {
        self.stepSeconds = stepSeconds
        self.groupCount = groupCount
        origin = stepSeconds.map { from - from.floorDividedBy($0).remainder } ?? from
    }

    private func slot(of time: Int64) -> Int64 {
        stepSeconds.map { (time - origin) / $0 } ?? 0
    }

    /// Removes and returns the cells of the time step holding `time`, to be added to and put back.
    mutating func takeCells(at time: Int64) -> [OutcomeCounts] {
        if let cells = slots.removeValue(forKey: slot(of: time)) { return cells }
        rowCount += groupCount
        return Array(repeating: OutcomeCounts(), count: groupCount)
    }

    mutating func putCells(_ cells: [OutcomeCounts], at time: Int64) {
        slots[slot(of: time)] = cells
    }

    /// The answer rows, sorted by time and then by key; one row per result type when grouped by it.
    func rows(grouping: SeriesGrouping, query: CountQuery) -> [CountRow] {
        // Keys are sorted once per group, then rows come out slot by slot in that order: O(cells + groups
        // log groups) rather than sorting every row.
        let keyTexts = grouping.groupKeys.map { $0.map { grouping.text(of: $0) } }
        let groupOrder = keyTexts.indices.sorted { Self.precedes(keyTexts[$0], keyTexts[$1]) }
        var rows: [CountRow] = []
        for slot in slots.keys.sorted() {
            let cells = slots[slot]!
            let time = stepSeconds.map { origin + slot * $0 }
            var slotRows: [CountRow] = []
            for group in groupOrder {
                let filtered = Self.keeping(grouping.results, of: cells[group])
                if query.groupsByResult {
                    for result in ResultType.allCases where filtered[result] > 0 {
                        var single = OutcomeCounts()
                        single[result] = filtered[result]
                        slotRows.append(CountRow(timeSeconds: time, key: Self.key(query.groupBy, keyTexts[group], result), counts: single))
                    }
                } else if !filtered.isEmpty {
                    slotRows.append(CountRow(timeSeconds: time, key: keyTexts[group], counts: filtered))
                }
            }
            if query.groupsByResult { slotRows.sort { Self.precedes($0.key, $1.key) } }
            rows += slotRows
        }
        return rows
    }

    /// The sums as dense series from the step holding `query.fromSeconds` to the one holding its end:
    /// groups in key order, those without any event left out.
    func series(grouping: SeriesGrouping, query: CountQuery) -> CountSeries {
        let step = stepSeconds ?? 60
        let stepCount = Int((Resolution.minute.bucketStart(query.toSeconds + 59) - origin + step - 1) / step)
        let keyTexts = grouping.groupKeys.map { $0.map { grouping.text(of: $0) } }
        var counts = Array(repeating: [OutcomeCounts](), count: keyTexts.count)
        var seen = Array(repeating: false, count: keyTexts.count)
        for (slot, cells) in slots where slot >= 0 && slot < stepCount {
            for group in cells.indices {
                let kept = Self.keeping(grouping.results, of: cells[group])
                guard !kept.isEmpty else { continue }
                if !seen[group] {
                    counts[group] = Array(repeating: OutcomeCounts(), count: stepCount)
                    seen[group] = true
                }
                counts[group][Int(slot)] = kept
            }
        }
        let order = keyTexts.indices.filter { seen[$0] }.sorted { Self.precedes(keyTexts[$0], keyTexts[$1]) }
        return CountSeries(startSeconds: origin, stepSeconds: step, keys: order.map { keyTexts[$0] }, counts: order.map { counts[$0] })
    }

    /// Key order: value by value, absent values first.
    private static func precedes(_ lhs: [String?], _ rhs: [String?]) -> Bool {
        lhs.lexicographicallyPrecedes(rhs) { ($0 ?? "") < ($1 ?? "") || ($0 == nil && $1 != nil) }
    }

    private static func key(_ groupBy: [EventDimension], _ seriesKey: [String?], _ result: ResultType) -> [String?] {
        var values = seriesKey.makeIterator()
        return groupBy.map { $0 == .resultType ? result.rawValue : values.next()! }
    }

    /// Keeps only the result types a filter selects. The 409 and 5xx counters are not split by result,
    /// so under a resultType filter they are left at zero.
    private static func keeping(_ results: Set<ResultType>, of counts: OutcomeCounts) -> OutcomeCounts {
        guard results.count < ResultType.allCases.count else { return counts }
        var kept = OutcomeCounts()
        for result in results { kept[result] = counts[result] }
        return kept
    }
}
