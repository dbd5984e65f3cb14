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
        try merge(buckets, into: table, column: "series_counts") { existing, additions in
            try BucketCodec.merge(existing, adding: additions.map { (series: $0.key, counts: $0.value) })
        }
    }

    private func mergeErrors(_ buckets: [Int64: [ErrorCodec.Entry: Int64]], into table: String) throws {
        try merge(buckets, into: table, column: "error_counts") { existing, additions in
            try ErrorCodec.merge(existing, adding: additions.map { (entry: $0.key, events: $0.value) })
        }
    }

    /// Rewrites the blob of each bucket in `buckets` as `combine(stored blob, additions sorted by key)`.
    private func merge<Key: Comparable, Value>(
        _ buckets: [Int64: [Key: Value]], into table: String, column: String,
        combine: (UnsafeRawBufferPointer?, [(key: Key, value: Value)]) throws -> [UInt8]
    ) throws {
        let select = try RawStatement(db, sql: "SELECT \(column) FROM \(table) WHERE time = ?")
        let upsert = try RawStatement(db, sql: "INSERT OR REPLACE INTO \(table) (time, \(column)) VALUES (?, ?)")
        for time in buckets.keys.sorted() {
            let additions = buckets[time]!.sorted { $0.key < $1.key }
            let merged = try read(select, time: time) { try combine($0, additions) }
            upsert.bind(time, at: 1)
            try merged.withUnsafeBytes { try upsert.run(binding: $0, at: 2) }
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
