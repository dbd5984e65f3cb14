import GRDB

/// The dedup memory: per event second, the sorted 64-bit hashes of the eventIDs already counted.
///
/// One row per second keeps the cost near 8 bytes per event (a row per event would take ~20), and
/// keying by event time first keeps writes local, as random ids alone would not.
struct SeenEventIDs {
    /// Loads the stored hashes of the given seconds (sorted ascending), reading each run of nearby
    /// seconds with one range scan. Seconds with no row are absent from the result.
    static func load(seconds: [Int64], from db: Database) throws -> [Int64: [Int64]] {
        var result: [Int64: [Int64]] = [:]
        guard !seconds.isEmpty else { return result }
        let select = try RawStatement(db, sql: "SELECT second, hashes FROM seen_second WHERE second >= ? AND second <= ?")
        var runStart = seconds[0], runEnd = seconds[0]
        func scan() throws {
            defer { select.reset() }
            select.bind(runStart, runEnd)
            while try select.step() {
                let blob = select.blob(1)
                let count = blob.count / 8
                result[select.int64(0)] = (0..<count).map {
                    Int64(littleEndian: blob.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self))
                }
            }
        }
        for second in seconds.dropFirst() {
            if second - runEnd > 600 {
                try scan()
                runStart = second
            }
            runEnd = second
        }
        try scan()
        return result
    }

    /// A statement that writes the full sorted hash list of one second.
    struct Writer {
        private let upsert: RawStatement
        private var bytes: [UInt8] = []

        init(_ db: Database) throws {
            upsert = try RawStatement(db, sql: "INSERT OR REPLACE INTO seen_second (second, hashes) VALUES (?, ?)")
        }

        mutating func write(second: Int64, hashes: [Int64]) throws {
            bytes.removeAll(keepingCapacity: true)
            for hash in hashes { withUnsafeBytes(of: hash.littleEndian) { bytes.append(contentsOf: $0) } }
            upsert.bind(second, at: 1)
            upsert.bind(blob: bytes, at: 2)
            try upsert.run()
        }
    }
}
