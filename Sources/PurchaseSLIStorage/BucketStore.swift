public import PurchaseSLICore

/// Where time buckets live: a narrow storage interface that SQLite, PostgreSQL and memory implement.
///
/// A store counts each eventID once over the dedup horizon, keeps counts per series in minute, hour and
/// day buckets by event time, and commits a batch atomically: after `record` returns, its events are
/// durable and counted exactly once. It answers no query itself: ``BucketQueryEngine`` (reached through
/// `counts`, `series` and `errorCounts` on any store) plans resolutions, groups, filters and fills series
/// from the stored series and bucket scans, the way Prometheus's engine reads its storage's `Select`.
///
/// Every method is async and blocks no thread of Swift's: SQLite's work runs on its pool's queues,
/// PostgreSQL's on its event loop. A scan calls its `body` while the caller is suspended awaiting it,
/// on whatever thread the backend reads on, never at the same time as the caller runs.
public protocol BucketStore: Sendable {
    /// Counts validated events, given as several prepared batches (one per request, say), skipping
    /// duplicates; all or nothing. Positions in the outcome count across the batches in order.
    /// - Parameter receivedAtMillis: the receiving clock, used for the dedup horizon and retention.
    func record(_ batches: [PreparedEvents], receivedAtMillis: Int64) async throws -> RecordOutcome

    /// Every stored series with the value ids of `dimensions` (series dimensions only), a column each in
    /// that order. Series made after the call are not listed; a scan may still pass their entries.
    func seriesTable(_ dimensions: [EventDimension]) async throws -> SeriesTable

    /// Calls `body` with the start of each bucket of the segments and the counts it holds for the series
    /// in `selection` (every series when nil). The buckets come in no particular order, and one bucket
    /// may come more than once with different entries: the caller sums them.
    func scanCounts(
        _ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesCounts]) throws -> Void
    ) async throws

    /// Calls `body` with the start of each bucket of the segments and the events per series, result and
    /// error description it holds, under the same rules as ``scanCounts(_:selection:_:)``.
    func scanErrors(
        _ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesErrorCount]) throws -> Void
    ) async throws

    /// The events of each series and hour in `[fromSeconds, toSeconds)` (event time) that arrived late
    /// through the HTTP API (``PreparedEvents/tracksLateArrivals``), in no particular order.
    func lateArrivals(fromSeconds: Int64, toSeconds: Int64) async throws -> [LateArrivalCount]

    /// The events counted under `__other__` on the UTC days of `[fromDay, toDay)` (days since the epoch),
    /// per day, dimension (or `series`) and app, by day, dimension and app: what the caps turned away.
    func overflow(fromDay: Int64, toDay: Int64) async throws -> [OverflowCount]

    /// The latest price events carried for each product and plan, by product then plan.
    func prices() async throws -> [ProductPrice]

    /// Throws unless a write commits now (for readiness checks).
    func checkWritable() async throws

    /// What was written to (or dropped from) the minute buckets since `mark`, a ``BucketChanges/mark`` this
    /// store gave, for a reader that keeps what it read (``KeptMinuteSeries``); asked before reading, so
    /// that a write during the read shows among the next changes. A store that keeps no record of its
    /// writes answers ``BucketChanges/unknown`` (the default).
    func bucketChanges(since mark: Int64?) async throws -> BucketChanges

    /// Drops buckets past their retention (relative to the newest minute bucket), eventIDs past the
    /// dedup horizon, store notifications and client reports past theirs (relative to `nowMillis`, the
    /// receiving clock); returns what the dedup memory holds afterwards.
    @discardableResult
    func prune(nowMillis: Int64) async throws -> DedupMemory
}

extension BucketStore {
    /// No record of writes: a reader reads everything again.
    public func bucketChanges(since mark: Int64?) async throws -> BucketChanges { .unknown }

    /// Every stored series with its values of `dimensions`, a row each (``seriesTable(_:)`` as text).
    public func series(_ dimensions: [EventDimension]) async throws -> [StoredSeries] {
        try await seriesTable(dimensions).rows
    }

    /// Counts several arrays of validated events; see ``record(_:receivedAtMillis:)-([PreparedEvents],_)``.
    public func record(_ batches: [[PurchaseEvent]], receivedAtMillis: Int64) async throws -> RecordOutcome {
        try await record(batches.map(PreparedEvents.init), receivedAtMillis: receivedAtMillis)
    }

    /// Counts one array of validated events; see ``record(_:receivedAtMillis:)-([PreparedEvents],_)``.
    public func record(_ events: [PurchaseEvent], receivedAtMillis: Int64) async throws -> RecordOutcome {
        try await record([PreparedEvents(events)], receivedAtMillis: receivedAtMillis)
    }
}

/// A stretch of time `[fromSeconds, toSeconds)` read from the buckets of one resolution (both ends
/// aligned to it).
public struct BucketSegment: Sendable, Hashable {
    /// The buckets read.
    public var resolution: Resolution
    /// The first bucket's start, seconds since the epoch.
    public var fromSeconds: Int64
    /// The end, exclusive.
    public var toSeconds: Int64

    /// Creates a segment.
    public init(_ resolution: Resolution, from fromSeconds: Int64, to toSeconds: Int64) {
        self.resolution = resolution
        self.fromSeconds = fromSeconds
        self.toSeconds = toSeconds
    }

    /// Whether `second` falls in the segment.
    public func contains(_ second: Int64) -> Bool { fromSeconds <= second && second < toSeconds }
}

/// One series as stored: its id (small, non-negative) and its values of the dimensions asked for.
public struct StoredSeries: Sendable, Hashable {
    /// The id bucket entries name it by.
    public var id: Int64
    /// Its values, in the order of the dimensions asked for; nil where the events had none.
    public var values: [String?]

    /// Creates a series.
    public init(id: Int64, values: [String?]) {
        self.id = id
        self.values = values
    }
}

/// The counts of one series in one bucket.
public struct SeriesCounts: Sendable, Hashable {
    /// The series id.
    public var series: Int64
    /// Its counts.
    public var counts: OutcomeCounts

    /// Creates an entry.
    public init(series: Int64, counts: OutcomeCounts) {
        self.series = series
        self.counts = counts
    }
}

/// The events of one series, result and error description in one bucket.
public struct SeriesErrorCount: Sendable, Hashable {
    /// The series id.
    public var series: Int64
    /// The events' result.
    public var result: ResultType
    /// The error description they carried.
    public var description: String
    /// How many.
    public var events: Int64

    /// Creates an entry.
    public init(series: Int64, result: ResultType, description: String, events: Int64) {
        self.series = series
        self.result = result
        self.description = description
        self.events = events
    }
}

/// The series a scan reads: a set of series ids, O(1) to test (a bitmap while the ids are small).
public struct SeriesSelection: Sendable, Hashable {
    /// Bit `id` set for each selected id, when every id is below ``bitmapLimit``.
    private var bitmap: [UInt64] = []
    /// The ids, when one is too large for the bitmap.
    private var large: Set<Int64>?

    /// Ids from this one up are kept in a set rather than a bitmap (which would take `id / 8` bytes).
    private static let bitmapLimit: Int64 = 1 << 26

    /// The selection of `ids` (non-negative; each may come more than once). O(ids), without hashing them
    /// when they fit the bitmap.
    public init(_ ids: some Collection<Int64>) {
        let largest = ids.max() ?? -1
        guard largest < Self.bitmapLimit else {
            large = Set(ids)
            return
        }
        bitmap = Array(repeating: 0, count: Int(largest / 64 + 1))
        for id in ids { bitmap[Int(id / 64)] |= 1 << UInt64(id % 64) }
    }

    /// The ids of any of `selections`: their bitmaps or'd word by word.
    public init(union selections: [SeriesSelection]) {
        guard selections.allSatisfy({ $0.large == nil }) else {
            large = selections.reduce(into: Set()) { union, selection in union.formUnion(selection.large ?? Set(selection.sortedIDs)) }
            return
        }
        bitmap = Array(repeating: 0, count: selections.map(\.bitmap.count).max() ?? 0)
        for selection in selections {
            for (word, bits) in selection.bitmap.enumerated() { bitmap[word] |= bits }
        }
    }

    /// Whether the series is selected.
    public func contains(_ series: Int64) -> Bool {
        if let large { return large.contains(series) }
        guard series >= 0, series / 64 < bitmap.count else { return false }
        return bitmap[Int(series / 64)] & (1 << UInt64(series % 64)) != 0
    }

    /// About how many bytes the selection holds.
    var bytes: Int { bitmap.count * 8 + (large?.count ?? 0) * 16 }

    /// The ids, ascending.
    public var sortedIDs: [Int64] {
        if let large { return large.sorted() }
        return bitmap.indices.flatMap { word in
            (0..<64).compactMap { bit in bitmap[word] & (1 << UInt64(bit)) != 0 ? Int64(word * 64 + bit) : nil }
        }
    }
}

/// What a store wrote to its minute buckets since a mark it gave (``BucketStore/bucketChanges(since:)``).
public struct BucketChanges: Sendable, Hashable {
    /// The mark to ask from next time, nil when the store keeps no record.
    public var mark: Int64?
    /// The spans of bucket time (seconds, minute-aligned) written to or dropped since the mark asked
    /// about, in no particular order; nil when the store cannot tell (no mark asked, or its record no
    /// longer reaches that far back): everything may have changed.
    public var spans: [Range<Int64>]?

    /// Creates the answer.
    public init(mark: Int64?, spans: [Range<Int64>]?) {
        (self.mark, self.spans) = (mark, spans)
    }

    /// A store that keeps no record of its writes.
    public static let unknown = BucketChanges(mark: nil, spans: nil)

    /// The first second of `range` a change reaches (its start when the changes are unknown), nil when
    /// none does.
    public func earliestChange(within range: Range<Int64>) -> Int64? {
        guard let spans else { return range.lowerBound }
        return spans.filter { $0.overlaps(range) }.map { max($0.lowerBound, range.lowerBound) }.min()
    }
}

/// What the dedup memory holds.
public struct DedupMemory: Sendable, Hashable {
    /// Event seconds that have eventIDs within the horizon.
    public var seconds: Int64
    /// EventIDs remembered.
    public var eventIDs: Int64

    /// Creates a reading.
    public init(seconds: Int64, eventIDs: Int64) {
        self.seconds = seconds
        self.eventIDs = eventIDs
    }
}
