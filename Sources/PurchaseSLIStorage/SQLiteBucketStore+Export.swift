import GRDB
import PurchaseSLICore

extension SQLiteBucketStore {
    /// The dedup memory, for a move to another store: every (event second, eventID hash) remembered
    /// (pending ones included), and when each event day last received an event.
    package func dedupState() throws -> (keys: [(second: Int64, hash: Int64)], days: [(day: Int64, lastReceived: Int64)]) {
        try pool.read { db in
            var keys: [(second: Int64, hash: Int64)] = []
            let seconds = try RawStatement(db, sql: "SELECT second, hashes FROM seen_second ORDER BY second")
            defer { seconds.reset() }
            while try seconds.step() {
                let second = seconds.int64(0)
                keys += SeenEventIDs.hashes(in: seconds.blob(1)).map { (second, $0) }
            }
            let pending = try RawStatement(db, sql: "SELECT id, keys FROM seen_pending ORDER BY id")
            defer { pending.reset() }
            while try pending.step() {
                keys += try PendingSeenIDs.keys(in: pending.blob(1), rowID: pending.int64(0)).map { ($0.second, $0.hash) }
            }
            let days = try Row.fetchAll(db, sql: "SELECT day, last_received FROM seen_day ORDER BY day").map {
                (day: $0[0] as Int64, lastReceived: $0[1] as Int64)
            }
            return (keys, days)
        }
    }

    /// Every minute's events dropped by clients.
    package func clientDrops() throws -> [(minute: Int64, events: Int64)] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT minute, events FROM client_drop ORDER BY minute").map { ($0[0], $0[1]) }
        }
    }

    /// Every client report part, by minute and part.
    package func clientReportBlobs() throws -> [ClientReportMinute] {
        try pool.read { db in
            let select = try RawStatement(db, sql: "SELECT minute, reports, grants, received FROM client_report_minute ORDER BY minute, part")
            defer { select.reset() }
            var parts: [ClientReportMinute] = []
            while try select.step() {
                let grants = select.isNull(2) ? nil : [UInt8](select.blob(2))
                parts.append(
                    ClientReportMinute(minute: select.int64(0), reports: [UInt8](select.blob(1)), grants: grants, receivedSeconds: select.int64(3)))
            }
            return parts
        }
    }
}
