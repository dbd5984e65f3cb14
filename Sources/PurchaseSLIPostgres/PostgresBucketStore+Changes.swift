#if PostgreSQL
import Logging
import PostgresNIO
public import PurchaseSLIStorage

extension PostgresBucketStore {
    /// How many of the latest changes `bucket_change` keeps (pruned with the buckets): a reader that asks
    /// less often than this many commits of every node reads everything again.
    static let changesKept: Int64 = 100_000

    /// The spans of minute buckets written to or dropped since `mark` by any node: every change whose
    /// transaction had not finished when the mark was given (a node's commit may land after a later
    /// transaction's). The mark is the oldest transaction still running as it is asked; unknown when
    /// `mark` is nil or changes after it were pruned.
    public func bucketChanges(since mark: Int64?) async throws -> BucketChanges {
        let logger = logger
        return try await connection { connection in
            var (latest, pruned): (Int64, Int64) = (0, 0)
            for try await row in try await connection.query(
                """
                SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint, (SELECT xact FROM bucket_change_pruned WHERE id = 0)
                """, logger: logger
            ).decode((Int64, Int64).self) { (latest, pruned) = row }
            // A change of a transaction below the new mark had finished before this call began, so it is
            // visible to the read below.
            guard let mark, pruned < mark, mark <= latest else { return BucketChanges(mark: latest, spans: nil) }
            var spans: [Range<Int64>] = []
            for try await (from, to) in try await connection.query(
                "SELECT from_time, to_time FROM bucket_change WHERE xact >= \(mark)", logger: logger
            ).decode((Int64, Int64).self) { spans.append(from..<to) }
            return BucketChanges(mark: latest, spans: spans)
        }
    }

    /// Drops all but the latest ``changesKept`` changes, noting the largest transaction id dropped: a
    /// mark not past it may have lost changes.
    static func pruneChanges(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            WITH gone AS (DELETE FROM bucket_change WHERE seq <= (SELECT max(seq) FROM bucket_change) - \(changesKept) RETURNING xact)
            UPDATE bucket_change_pruned SET xact = greatest(xact, (SELECT max(xact) FROM gone)) WHERE id = 0
            """, logger: logger)
    }
}
#endif
