import Foundation
import GRDB
import PurchaseSLICore

extension SQLiteBucketStore {
    /// The dedup memory, for a move to another store: every (event second, eventID hash) remembered
    /// (pending ones included), and when each event day last received an event.
    package func dedupState() throws -> (keys: [(second: Int64, hash: Int64)], days: [(day: Int64, lastReceived: Int64)]) {
        try pool.read { db in
            var keys: [(second: Int64, hash: Int64)] = []
            let seconds = try Row.fetchCursor(db, sql: "SELECT second, hashes FROM seen_second ORDER BY second")
            while let row = try seconds.next() {
                let second: Int64 = row[0], bytes: [UInt8] = [UInt8](row[1] as Data)
                guard bytes.count % 8 == 0 else {
                    throw StorageError.damaged(table: "seen_second", row: "second \(second)", detail: "\(bytes.count) bytes, not 8-byte hashes")
                }
                for offset in stride(from: 0, to: bytes.count, by: 8) {
                    keys.append((second, Int64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int64.self) })))
                }
            }
            let pending = try Row.fetchCursor(db, sql: "SELECT id, keys FROM seen_pending ORDER BY id")
            while let row = try pending.next() {
                let id: Int64 = row[0], bytes: [UInt8] = [UInt8](row[1] as Data)
                guard bytes.count % 16 == 0 else {
                    throw StorageError.damaged(table: "seen_pending", row: "the row of id \(id)", detail: "\(bytes.count) bytes, not 16-byte keys")
                }
                for offset in stride(from: 0, to: bytes.count, by: 16) {
                    let pair = bytes.withUnsafeBytes {
                        (Int64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Int64.self)),
                         Int64(littleEndian: $0.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self)))
                    }
                    keys.append(pair)
                }
            }
            let days = try Row.fetchAll(db, sql: "SELECT day, last_received FROM seen_day ORDER BY day").map { (day: $0[0] as Int64, lastReceived: $0[1] as Int64) }
            return (keys, days)
        }
    }

    /// Every client report blob, by minute and part.
    package func clientReportBlobs() throws -> [(minute: Int64, blob: [UInt8])] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT minute, reports FROM client_report_minute ORDER BY minute, part").map {
                (minute: $0[0] as Int64, blob: [UInt8]($0[1] as Data))
            }
        }
    }
}
