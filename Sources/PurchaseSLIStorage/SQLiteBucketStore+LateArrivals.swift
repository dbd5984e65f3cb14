import GRDB

extension SQLiteBucketStore {
    /// The late arrivals of `[fromSeconds, toSeconds)`; see ``BucketStore/lateArrivals(fromSeconds:toSeconds:)``.
    public func lateArrivals(fromSeconds: Int64, toSeconds: Int64) async throws -> [LateArrivalCount] {
        try await pool.readGivingReaderBack { db in
            try Row.fetchAll(
                db, sql: "SELECT hour, series, events FROM late_arrival WHERE hour >= ? AND hour < ?", arguments: [fromSeconds, toSeconds]
            ).map { LateArrivalCount(hour: $0[0], series: $0[1], events: $0[2]) }
        }
    }
}
