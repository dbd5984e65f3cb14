import GRDB
public import PurchaseSLICore

extension SQLiteBucketStore: IncidentRecordStore {
    /// Keeps each record, replacing the figures kept under its app and id, keeping their acknowledgement.
    public func save(_ incidents: [StoredIncident]) throws {
        guard !incidents.isEmpty else { return }
        try pool.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO incident (app, id, start, end, status, read_at, document) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (app, id) DO UPDATE SET start = excluded.start, end = excluded.end, status = excluded.status,
                        read_at = excluded.read_at, document = excluded.document
                    """)
            for incident in incidents {
                try statement.execute(arguments: [
                    incident.app, incident.id, incident.startSeconds, incident.endSeconds, incident.status, incident.readAtSeconds,
                    incident.document,
                ])
            }
        }
    }

    /// The records of `app` (nil: every app's) reaching into `[fromSeconds, toSeconds)`, of `statuses`.
    public func incidents(app: String?, fromSeconds: Int64, toSeconds: Int64, statuses: Set<String>?) throws -> [StoredIncident] {
        try pool.read { db in
            var sql = """
                SELECT app, id, start, end, status, read_at, document, ack_owner, ack_note, ack_at FROM incident
                WHERE start < ? AND (end IS NULL OR end > ?)
                """
            var arguments: StatementArguments = [toSeconds, fromSeconds]
            if let app {
                sql += " AND app = ?"
                arguments += [app]
            }
            if let statuses {
                sql += " AND status IN (\(statuses.map { _ in "?" }.joined(separator: ", ")))"
                arguments += StatementArguments(statuses.sorted())
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY start, app, id", arguments: arguments).map(Self.storedIncident)
        }
    }

    /// Keeps `acknowledgement` with the record of `app` and `id`; false when none is kept.
    public func acknowledge(app: String, id: String, _ acknowledgement: IncidentAcknowledgement) throws -> Bool {
        try pool.write { db in
            try db.execute(
                sql: "UPDATE incident SET ack_owner = ?, ack_note = ?, ack_at = ? WHERE app = ? AND id = ?",
                arguments: [acknowledgement.owner, acknowledgement.note, acknowledgement.atSeconds, app, id])
            return db.changesCount > 0
        }
    }

    /// Removes the records of `app` that started in `[fromSeconds, toSeconds)` but those of `keeping`.
    public func removeIncidents(app: String, startingFrom fromSeconds: Int64, to toSeconds: Int64, keeping: Set<String>) throws -> Int {
        try pool.write { db in
            let ids = try String.fetchAll(
                db, sql: "SELECT id FROM incident WHERE app = ? AND start >= ? AND start < ?", arguments: [app, fromSeconds, toSeconds]
            ).filter { !keeping.contains($0) }
            for id in ids { try db.execute(sql: "DELETE FROM incident WHERE app = ? AND id = ?", arguments: [app, id]) }
            return ids.count
        }
    }

    /// The record of a row of `incident`'s columns.
    private static func storedIncident(_ row: Row) -> StoredIncident {
        let owner: String? = row[7]
        return StoredIncident(
            app: row[0], id: row[1], startSeconds: row[2], endSeconds: row[3], status: row[4], readAtSeconds: row[5], document: row[6],
            acknowledgement: owner.map { IncidentAcknowledgement(owner: $0, note: row[8] ?? "", atSeconds: row[9] ?? 0) })
    }
}
