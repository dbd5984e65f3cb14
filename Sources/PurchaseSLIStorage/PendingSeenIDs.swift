import GRDB

/// EventIDs counted but not yet merged into `seen_second`: one `seen_pending` row per commit, and their
/// keys in memory for lookups.
///
/// `seen_second` holds one row per event second, so a commit whose events spread over many seconds
/// rewrites a row (and a page) for each of them: a backlog flush, whose batches each span an hour of
/// events, wrote ten times more bytes per event than a live stream. Instead a commit appends the keys
/// it would add to already full seconds as one row (``RecordBatch`` decides per second), and once
/// ``foldThreshold`` keys are pending one commit merges them all into `seen_second`, rewriting each
/// second once, and deletes the rows. Both happen inside commits, so no eventID is forgotten or
/// remembered twice by a crash; a key is in `seen_second` or pending, never both.
///
/// Another process may write to the same file (an `ingest` beside `serve`): ``synchronize(with:)``, at
/// the start of each write transaction, loads the rows it appended or starts over when it folded them.
struct PendingSeenIDs {
    /// One remembered eventID: its event second and hash.
    struct Key: Hashable {
        var second: Int64
        var hash: Int64
    }

    /// Pending keys that make a commit fold them (by default 262,144: 4 MiB of rows, about 10 MiB of
    /// memory).
    let foldThreshold: Int
    /// Reserved once for ``foldThreshold`` keys and kept: growing a set of this size rehashes it, a
    /// pause of milliseconds on the writer that every waiting request would feel.
    private var keys: Set<Key>
    /// The ids of the first and last `seen_pending` rows loaded or written; nil when none are.
    private var loadedIDs: ClosedRange<Int64>?

    /// Creates an empty memory that folds at `foldThreshold` keys.
    init(foldThreshold: Int) {
        self.foldThreshold = foldThreshold
        keys = Set(minimumCapacity: foldThreshold)
    }

    /// Whether the eventID hash of `second` is pending.
    func contains(second: Int64, hash: Int64) -> Bool {
        !keys.isEmpty && keys.contains(Key(second: second, hash: hash))
    }

    /// Brings the memory in line with the table, inside a write transaction: rows appended by another
    /// process are loaded; rows folded by another one are forgotten.
    mutating func synchronize(with db: Database) throws {
        let row = try Row.fetchOne(db, sql: "SELECT min(id), max(id) FROM seen_pending")
        guard let first: Int64 = row?[0], let last: Int64 = row?[1] else {
            forget()
            return
        }
        if let loaded = loadedIDs, loaded.lowerBound == first {
            if last > loaded.upperBound { try load(db, after: loaded.upperBound) }
        } else {
            forget()
            try load(db, after: first - 1)
        }
    }

    /// Stores `added` (sorted by second, then hash) as one row and remembers it; folds every pending key
    /// into `seen_second` once ``foldThreshold`` are pending.
    mutating func append(_ added: [Key], in db: Database) throws {
        guard !added.isEmpty else { return }
        var blob: [Int64] = []
        blob.reserveCapacity(added.count * 2)
        for key in added { blob.append(contentsOf: [key.second.littleEndian, key.hash.littleEndian]) }
        let insert = try RawStatement(db, sql: "INSERT INTO seen_pending (keys) VALUES (?)")
        try blob.withUnsafeBytes { try insert.run(binding: $0, at: 1) }
        let id = db.lastInsertedRowID
        loadedIDs = (loadedIDs?.lowerBound ?? id)...id
        keys.formUnion(added)
        if keys.count >= foldThreshold { try fold(into: db) }
    }

    /// Merges every pending key into `seen_second` and deletes the pending rows.
    mutating func fold(into db: Database) throws {
        try synchronize(with: db)
        guard !keys.isEmpty else { return }
        var bySecond: [Int64: [Int64]] = [:]
        for key in keys { bySecond[key.second, default: []].append(key.hash) }
        let seconds = bySecond.keys.sorted()
        let stored = try SeenEventIDs.load(seconds: seconds, from: db)
        let writer = try SeenEventIDs.Writer(db)
        for second in seconds {
            let hashes = (stored[second] ?? []).mergingSorted(bySecond[second]!.sorted())
            try writer.write(second: second, hashes: hashes)
        }
        try db.execute(sql: "DELETE FROM seen_pending")
        forget()
    }

    /// Empties the memory (after a rollback, or when the table was folded by another process); the
    /// next ``synchronize(with:)`` reloads what the table holds.
    mutating func forget() {
        keys.removeAll(keepingCapacity: true)
        loadedIDs = nil
    }

    /// The keys of one `seen_pending` row (16 bytes each: second, hash, little-endian).
    static func keys(in blob: UnsafeRawBufferPointer, rowID: Int64) throws -> [Key] {
        guard blob.count % 16 == 0 else {
            throw StorageError.damaged(
                table: "seen_pending", row: "the row of id \(rowID)", detail: "\(blob.count) bytes, not a whole number of 16-byte keys")
        }
        return stride(from: 0, to: blob.count, by: 16).map { offset in
            Key(
                second: Int64(littleEndian: blob.loadUnaligned(fromByteOffset: offset, as: Int64.self)),
                hash: Int64(littleEndian: blob.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self)))
        }
    }

    private mutating func load(_ db: Database, after id: Int64) throws {
        let select = try RawStatement(db, sql: "SELECT id, keys FROM seen_pending WHERE id > ? ORDER BY id")
        defer { select.reset() }
        select.bind(id)
        while try select.step() {
            let rowID = select.int64(0)
            keys.formUnion(try Self.keys(in: select.blob(1), rowID: rowID))
            loadedIDs = (loadedIDs?.lowerBound ?? rowID)...rowID
        }
    }
}
