public import PurchaseSLICore

/// Where time buckets live: SQLite on one machine today, PostgreSQL when one machine is outgrown.
///
/// Implementations count each eventID once over the dedup horizon, keep buckets by event time, and
/// commit a batch atomically: after `record` returns, its events are durable and counted exactly once.
public protocol BucketStore: Sendable {
    /// Counts validated events, skipping duplicates; all or nothing.
    /// - Parameter receivedAtMillis: the receiving clock, used for the dedup horizon and retention.
    func record(_ events: [PurchaseEvent], receivedAtMillis: Int64) throws -> RecordOutcome

    /// Answers a count query from the buckets.
    func counts(_ query: CountQuery) throws -> [CountRow]

    /// Counts the events that carried each error description, grouped like ``counts(_:)``.
    func errorCounts(_ query: CountQuery) throws -> [ErrorCountRow]

    /// Throws unless a write could start now (for readiness checks).
    func checkWritable() throws
}
