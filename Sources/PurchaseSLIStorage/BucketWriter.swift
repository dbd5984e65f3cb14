import GRDB
import PurchaseSLICore

/// Merges a commit's per-minute counts into the stored minute buckets, and rolls them up into the hour
/// and day buckets once enough pending rows wait (``WriteDeferral``).
///
/// An hour's or a day's blob holds every series of that hour or day; rewriting two of them (with their
/// error blobs) on every commit was most of the single writer's work. Instead each commit also stores
/// its own additions per minute as a pending row, and once ``WriteDeferral/pendingRows`` rows or
/// ``WriteDeferral/pendingBytes`` bytes are pending one commit folds them all into the hour and day
/// buckets and deletes them. A minute bucket is rewritten by the commit itself only when the addition is
/// not tiny beside it: a backlog flush adds a few events to each of fifty full minutes per commit, and
/// rewriting them all each time made it three times slower than a live stream; such additions wait in
/// their pending row (`in_minute = 0`) for the fold. Everything happens inside commits, so no count is
/// lost or doubled by a crash, and queries add the pending rows that their buckets do not hold yet
/// (``SQLiteBucketStore/forEachBucket(in:of:db:_:)``), so every resolution always agrees.
struct BucketWriter {
    /// A minute bucket this many times larger than a commit's addition to it waits for the fold.
    static let deferredMinuteRatio = 8

    let db: Database
    let deferral: WriteDeferral

    /// Adds counts per minute bucket start and series, and error counts per minute and entry.
    func add(minutes: [Int64: [Int64: OutcomeCounts]], errors: [Int64: [ErrorCodec.Entry: Int64]]) throws {
        try Self.noteChange(of: Array(minutes.keys) + Array(errors.keys), in: db)
        let counts = minutes.mapValues { $0.sorted { $0.key < $1.key } }
        let errorCounts = errors.mapValues { $0.sorted { $0.key < $1.key } }
        let mergedNow = try minutesToRewriteNow(counts)
        try mergeCounts(counts.filter { mergedNow.contains($0.key) }, into: Resolution.minute.bucketTable)
        try mergeErrors(errorCounts.filter { mergedNow.contains($0.key) }, into: Resolution.minute.errorTable)
        try addPending(counts: counts, errors: errorCounts, mergedIntoMinutes: mergedNow)
        let pending = try Row.fetchOne(
            db, sql: "SELECT count(*), coalesce(sum(length(series_counts) + length(error_counts)), 0) FROM rollup_pending")
        if let pending, pending[0] as Int >= deferral.pendingRows || pending[1] as Int >= deferral.pendingBytes {
            try rollUpPending()
        }
    }

    /// Notes in `bucket_change` the span of `minutes` (bucket starts) that a commit writes to or drops.
    static func noteChange(of minutes: [Int64], in db: Database) throws {
        guard let first = minutes.min(), let last = minutes.max() else { return }
        try db.execute(
            sql: "INSERT INTO bucket_change (from_time, to_time) VALUES (?, ?)", arguments: [first, last + Resolution.minute.seconds])
    }

    /// The minutes whose stored bucket is small enough beside the addition (entries of about 4 bytes)
    /// to be rewritten by this commit.
    private func minutesToRewriteNow(_ counts: [Int64: [(key: Int64, value: OutcomeCounts)]]) throws -> Set<Int64> {
        let size = try RawStatement(db, sql: "SELECT length(series_counts) FROM bucket_minute WHERE time = ?")
        var rewritten = Set<Int64>()
        for (time, additions) in counts {
            defer { size.reset() }
            size.bind(time, at: 1)
            let storedBytes = try size.step() ? size.int64(0) : 0
            if storedBytes <= Int64(Self.deferredMinuteRatio * 4 * additions.count) { rewritten.insert(time) }
        }
        return rewritten
    }

    /// Folds every pending row into the minute buckets it waits for and into the hour and day buckets,
    /// and deletes it.
    func rollUpPending() throws {
        var deferredMinutes: [Int64: [Int64: OutcomeCounts]] = [:]
        var deferredMinuteErrors: [Int64: [ErrorCodec.Entry: Int64]] = [:]
        var hours: [Int64: [Int64: OutcomeCounts]] = [:]
        var hourErrors: [Int64: [ErrorCodec.Entry: Int64]] = [:]
        let select = try RawStatement(db, sql: "SELECT time, series_counts, error_counts, in_minute FROM rollup_pending")
        defer { select.reset() }
        while try select.step() {
            let time = select.int64(0)
            let hour = Resolution.hour.bucketStart(time)
            let isInMinute = select.int64(3) != 0
            try decoding(table: "rollup_pending", row: "the row of \(RFC3339.format(seconds: time))") {
                try BucketCodec.forEachEntry(in: select.blob(1)) { series, counts in
                    hours[hour, default: [:]][series, default: OutcomeCounts()] += counts
                    if !isInMinute { deferredMinutes[time, default: [:]][series, default: OutcomeCounts()] += counts }
                }
                for (entry, events) in try ErrorCodec.decode(select.blob(2)) {
                    hourErrors[hour, default: [:]][entry, default: 0] += events
                    if !isInMinute { deferredMinuteErrors[time, default: [:]][entry, default: 0] += events }
                }
            }
        }
        select.reset()
        try mergeCounts(deferredMinutes.mapValues { $0.sorted { $0.key < $1.key } }, into: Resolution.minute.bucketTable)
        try mergeErrors(deferredMinuteErrors.mapValues { $0.sorted { $0.key < $1.key } }, into: Resolution.minute.errorTable)
        for resolution in [Resolution.hour, .day] {
            let counts = rollUp(hours, to: resolution) { $0 += $1 }
            let errorCounts = rollUp(hourErrors, to: resolution) { $0 += $1 }
            try mergeCounts(counts.mapValues { $0.sorted { $0.key < $1.key } }, into: resolution.bucketTable)
            try mergeErrors(errorCounts.mapValues { $0.sorted { $0.key < $1.key } }, into: resolution.errorTable)
        }
        try db.execute(sql: "DELETE FROM rollup_pending")
    }

    /// Stores the additions of each minute as one pending row, marking whether its minute bucket holds
    /// them already.
    private func addPending(
        counts: [Int64: [(key: Int64, value: OutcomeCounts)]], errors: [Int64: [(key: ErrorCodec.Entry, value: Int64)]],
        mergedIntoMinutes: Set<Int64>
    ) throws {
        let insert = try RawStatement(
            db, sql: "INSERT INTO rollup_pending (time, series_counts, error_counts, in_minute) VALUES (?, ?, ?, ?)")
        for time in Set(counts.keys).union(errors.keys).sorted() {
            let countBlob = BucketCodec.encode((counts[time] ?? []).map { (series: $0.key, counts: $0.value) })
            let errorBlob = ErrorCodec.encode((errors[time] ?? []).map { (entry: $0.key, events: $0.value) })
            insert.bind(time, at: 1)
            insert.bind(copying: countBlob, at: 2)
            insert.bind(copying: errorBlob, at: 3)
            insert.bind(mergedIntoMinutes.contains(time) ? 1 : 0, at: 4)
            try insert.run()
        }
    }

    private func rollUp<Key: Hashable, Value>(
        _ buckets: [Int64: [Key: Value]], to resolution: Resolution, combine: (inout Value, Value) -> Void
    ) -> [Int64: [Key: Value]] {
        var coarser: [Int64: [Key: Value]] = [:]
        for (time, entries) in buckets {
            let start = resolution.bucketStart(time)
            coarser[start, default: [:]].merge(entries) {
                var sum = $0
                combine(&sum, $1)
                return sum
            }
        }
        return coarser
    }

    private func mergeCounts(_ buckets: [Int64: [(key: Int64, value: OutcomeCounts)]], into table: String) throws {
        try merge(buckets, into: table, column: "series_counts") { existing, additions in
            try BucketCodec.merge(existing, adding: additions.map { (series: $0.key, counts: $0.value) })
        }
    }

    private func mergeErrors(_ buckets: [Int64: [(key: ErrorCodec.Entry, value: Int64)]], into table: String) throws {
        try merge(buckets, into: table, column: "error_counts") { existing, additions in
            try ErrorCodec.merge(existing, adding: additions.map { (entry: $0.key, events: $0.value) })
        }
    }

    /// Rewrites the blob of each bucket in `buckets` as `combine(stored blob, additions sorted by key)`.
    private func merge<Key, Value>(
        _ buckets: [Int64: [(key: Key, value: Value)]], into table: String, column: String,
        combine: (UnsafeRawBufferPointer?, [(key: Key, value: Value)]) throws -> [UInt8]
    ) throws {
        let select = try RawStatement(db, sql: "SELECT \(column) FROM \(table) WHERE time = ?")
        let upsert = try RawStatement(db, sql: "INSERT OR REPLACE INTO \(table) (time, \(column)) VALUES (?, ?)")
        for time in buckets.keys.sorted() {
            let merged = try decoding(table: table, row: "the bucket at \(RFC3339.format(seconds: time))") {
                try read(select, time: time) { try combine($0, buckets[time]!) }
            }
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
