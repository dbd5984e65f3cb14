import GRDB
import PurchaseSLICore

/// Merges a batch's per-minute counts into the stored minute buckets and their hour and day rollups
/// in the same transaction, so the three resolutions always agree.
struct BucketWriter {
    let db: Database

    func add(minutes: [Int64: [Int64: OutcomeCounts]], errors: [Int64: [ErrorCodec.Entry: Int64]]) throws {
        var counts = minutes
        var errorCounts = errors
        for resolution in Resolution.allCases {
            if resolution != .minute {
                counts = rollUp(counts, to: resolution) { $0 += $1 }
                errorCounts = rollUp(errorCounts, to: resolution) { $0 += $1 }
            }
            try mergeCounts(counts, into: resolution.bucketTable)
            try mergeErrors(errorCounts, into: resolution.errorTable)
        }
    }

    private func rollUp<Key: Hashable, Value>(
        _ buckets: [Int64: [Key: Value]], to resolution: Resolution, combine: (inout Value, Value) -> Void
    ) -> [Int64: [Key: Value]] {
        var coarser: [Int64: [Key: Value]] = [:]
        for (time, entries) in buckets {
            let start = resolution.bucketStart(time)
            coarser[start, default: [:]].merge(entries) { var sum = $0; combine(&sum, $1); return sum }
        }
        return coarser
    }

    private func mergeCounts(_ buckets: [Int64: [Int64: OutcomeCounts]], into table: String) throws {
        let select = try RawStatement(db, sql: "SELECT series_counts FROM \(table) WHERE time = ?")
        let upsert = try RawStatement(db, sql: "INSERT OR REPLACE INTO \(table) (time, series_counts) VALUES (?, ?)")
        for time in buckets.keys.sorted() {
            let additions = buckets[time]!.sorted { $0.key < $1.key }.map { (series: $0.key, counts: $0.value) }
            let merged = try read(select, time: time) { try BucketCodec.merge($0, adding: additions) }
            upsert.bind(time, at: 1)
            upsert.bind(blob: merged, at: 2)
            try upsert.run()
        }
    }

    private func mergeErrors(_ buckets: [Int64: [ErrorCodec.Entry: Int64]], into table: String) throws {
        let select = try RawStatement(db, sql: "SELECT error_counts FROM \(table) WHERE time = ?")
        let upsert = try RawStatement(db, sql: "INSERT OR REPLACE INTO \(table) (time, error_counts) VALUES (?, ?)")
        for time in buckets.keys.sorted() {
            let additions = buckets[time]!.sorted { $0.key < $1.key }.map { (entry: $0.key, events: $0.value) }
            let merged = try read(select, time: time) { try ErrorCodec.merge($0, adding: additions) }
            upsert.bind(time, at: 1)
            upsert.bind(blob: merged, at: 2)
            try upsert.run()
        }
    }

    /// Calls `body` with the stored blob of the bucket at `time` (nil when there is none), without copying it.
    private func read<Result>(
        _ select: RawStatement, time: Int64, _ body: (UnsafeRawBufferPointer?) throws -> Result
    ) throws -> Result {
        defer { select.reset() }
        select.bind(time, at: 1)
        return try body(try select.step() ? select.blob(0) : nil)
    }
}
