import GRDB

extension SQLiteBucketStore {
    /// The events counted under `__other__` on the days of `[fromDay, toDay)`; see
    /// ``BucketStore/overflow(fromDay:toDay:)``.
    public func overflow(fromDay: Int64, toDay: Int64) async throws -> [OverflowCount] {
        let names = Schema.overflowNames
        return try await pool.readGivingReaderBack { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT o.day, o.dimension, coalesce(v.value, ''), o.events FROM overflow o LEFT JOIN dimension_value v ON v.id = o.app
                    WHERE o.day >= ? AND o.day < ?
                    """, arguments: [fromDay, toDay]
            ).map {
                OverflowCount(day: $0[0], dimension: names[$0[1] as Int] ?? "dimension \($0[1] as Int)", app: $0[2], events: $0[3])
            }
            .sorted(by: OverflowCount.precedes)
        }
    }
}
