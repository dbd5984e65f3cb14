import GRDB

extension SQLiteBucketStore {
    /// How many of the latest commits' spans `bucket_change` keeps (pruned with the buckets): a reader
    /// that asks less often than this many commits reads everything again.
    static let changesKept: Int64 = 100_000

    /// The spans of minute buckets written to or dropped by the commits after `mark` (``BucketWriter``
    /// notes each in `bucket_change`), unknown when `mark` is nil or the rows after it were pruned.
    public func bucketChanges(since mark: Int64?) async throws -> BucketChanges {
        try await pool.readGivingReaderBack { db in
            let row = try Row.fetchOne(db, sql: "SELECT coalesce(max(seq), 0), min(seq) FROM bucket_change")
            let latest: Int64 = row?[0] ?? 0
            let oldest: Int64? = row?[1]
            guard let mark, mark <= latest, (oldest ?? 0) <= mark + 1 else { return BucketChanges(mark: latest, spans: nil) }
            let spans = try Row.fetchAll(db, sql: "SELECT from_time, to_time FROM bucket_change WHERE seq > ?", arguments: [mark]).map { row in
                (row[0] as Int64)..<(row[1] as Int64)
            }
            return BucketChanges(mark: latest, spans: spans)
        }
    }
}
