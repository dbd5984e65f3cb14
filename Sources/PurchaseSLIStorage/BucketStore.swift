public import PurchaseSLICore

/// Where time buckets live: SQLite on one machine today, PostgreSQL when one machine is outgrown.
///
/// Implementations count each eventID once over the dedup horizon, keep buckets by event time, and
/// commit a batch atomically: after `record` returns, its events are durable and counted exactly once.
public protocol BucketStore: Sendable {
    /// Counts validated events, given as several prepared batches (one per request, say), skipping
    /// duplicates; all or nothing. Positions in the outcome count across the batches in order.
    /// - Parameter receivedAtMillis: the receiving clock, used for the dedup horizon and retention.
    func record(_ batches: [PreparedEvents], receivedAtMillis: Int64) throws -> RecordOutcome

    /// Answers a count query from the buckets.
    func counts(_ query: CountQuery) throws -> [CountRow]

    /// Answers several count queries at once (a store may read its buckets once for those over the
    /// same range and step); the answers in the queries' order.
    func counts(_ queries: [CountQuery]) throws -> [[CountRow]]

    /// Answers count queries with a step as dense series (every query needs a step).
    func series(_ queries: [CountQuery]) throws -> [CountSeries]

    /// Counts the events that carried each error description, grouped like ``counts(_:)``.
    func errorCounts(_ query: CountQuery) throws -> [ErrorCountRow]

    /// The latest price events carried for each product and plan.
    func prices() throws -> [ProductPrice]

    /// Throws unless a write commits now (for readiness checks).
    func checkWritable() throws

    /// Drops what is past its retention and the dedup horizon; returns what the dedup memory holds.
    @discardableResult
    func prune(nowMillis: Int64) throws -> DedupMemory
}

extension BucketStore {
    /// Each query answered on its own.
    public func counts(_ queries: [CountQuery]) throws -> [[CountRow]] {
        try queries.map(counts)
    }

    /// The series made from the queries' rows.
    public func series(_ queries: [CountQuery]) throws -> [CountSeries] {
        try zip(queries, counts(queries)).map { query, rows in
            let step = query.step?.seconds ?? 60
            let start = query.fromSeconds - query.fromSeconds.floorDividedBy(step).remainder
            return CountSeries(rows: rows, startSeconds: start, stepSeconds: step,
                               stepCount: Int((query.toSeconds - start + step - 1) / step))
        }
    }

    /// Counts several arrays of validated events; see ``record(_:receivedAtMillis:)-([PreparedEvents],_)``.
    public func record(_ batches: [[PurchaseEvent]], receivedAtMillis: Int64) throws -> RecordOutcome {
        try record(batches.map(PreparedEvents.init), receivedAtMillis: receivedAtMillis)
    }

    /// Counts one array of validated events; see ``record(_:receivedAtMillis:)-([PreparedEvents],_)``.
    public func record(_ events: [PurchaseEvent], receivedAtMillis: Int64) throws -> RecordOutcome {
        try record([PreparedEvents(events)], receivedAtMillis: receivedAtMillis)
    }
}
