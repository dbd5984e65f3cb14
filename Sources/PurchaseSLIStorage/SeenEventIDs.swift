import GRDB

/// The dedup memory: per event second, the sorted 64-bit hashes of the eventIDs already counted.
///
/// One row per second keeps the cost near 8 bytes per event (a row per event would take ~20), and
/// keying by event time first keeps writes local, as random ids alone would not.
struct SeenEventIDs {
    /// Loads the stored hashes of the given seconds (ascending), sorted ascending. Each run of seconds
    /// close together is read with one range scan, of whose rows only the requested are decoded.
    /// Seconds with no row are absent from the result.
    static func load(seconds: [Int64], from db: Database) throws -> [Int64: [Int64]] {
        var result: [Int64: [Int64]] = [:]
        guard !seconds.isEmpty else { return result }
        let select = try RawStatement(db, sql: "SELECT second, hashes FROM seen_second WHERE second >= ? AND second <= ? ORDER BY second")
        var runStart = 0  // index into `seconds` of the run's first second
        func scan(through runEnd: Int) throws {
            defer { select.reset() }
            select.bind(seconds[runStart], seconds[runEnd])
            var wanted = runStart
            while try select.step() {
                let second = select.int64(0)
                while seconds[wanted] < second { wanted += 1 }
                guard seconds[wanted] == second else { continue }
                result[second] = hashes(in: select.blob(1))
            }
        }
        for index in seconds.indices.dropFirst() where seconds[index] - seconds[index - 1] > maximumScanGap {
            try scan(through: index - 1)
            runStart = index
        }
        try scan(through: seconds.count - 1)
        return result
    }

    /// The hashes of one second's row (8 bytes each, little-endian).
    static func hashes(in blob: UnsafeRawBufferPointer) -> [Int64] {
        let count = blob.count / 8
        var hashes = [Int64](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: blob.prefix(count * 8)))
            initialized = count
        }
        #if _endian(big)
        hashes = hashes.map { Int64(littleEndian: $0) }
        #endif
        return hashes
    }

    /// Seconds further apart than this are read with separate scans: a seek costs about as much as
    /// stepping over a few rows that are not needed.
    private static let maximumScanGap: Int64 = 8

    /// A statement that writes the full sorted hash list of one second.
    struct Writer {
        private let upsert: RawStatement

        init(_ db: Database) throws {
            upsert = try RawStatement(db, sql: "INSERT OR REPLACE INTO seen_second (second, hashes) VALUES (?, ?)")
        }

        func write(second: Int64, hashes: [Int64]) throws {
            #if _endian(big)
            let hashes = hashes.map(\.littleEndian)
            #endif
            upsert.bind(second, at: 1)
            try hashes.withUnsafeBytes { try upsert.run(binding: $0, at: 2) }
        }
    }
}
