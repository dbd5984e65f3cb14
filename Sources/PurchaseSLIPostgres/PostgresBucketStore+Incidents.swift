#if PostgreSQL
import Logging
import PostgresNIO
public import PurchaseSLICore
public import PurchaseSLIStorage

extension PostgresBucketStore: IncidentRecordStore {
    /// Keeps each record, replacing the figures kept under its app and id, keeping their acknowledgement:
    /// one statement, whatever the number of records.
    public func save(_ incidents: [StoredIncident]) throws {
        guard !incidents.isEmpty else { return }
        // One row per app and id (the last given wins, as in the other stores), as ON CONFLICT needs.
        let latest = Array(
            Dictionary(incidents.map { ([$0.app, $0.id], $0) }, uniquingKeysWith: { _, last in last }).values)
        let logger = logger
        try withConnection { connection in
            // An array cannot hold a null bigint through postgres-nio: `ended` says which ends are given.
            try await connection.run(
                """
                INSERT INTO incident (app, id, start_seconds, end_seconds, status, read_at, document)
                SELECT app, id, start_seconds, CASE WHEN ended THEN end_seconds END, status, read_at, document
                FROM unnest(\(latest.map(\.app)), \(latest.map(\.id)), \(latest.map(\.startSeconds)), \(latest.map { $0.endSeconds ?? 0 }),
                    \(latest.map { $0.endSeconds != nil }), \(latest.map(\.status)), \(latest.map(\.readAtSeconds)), \(latest.map(\.document)))
                    AS r(app, id, start_seconds, end_seconds, ended, status, read_at, document)
                ORDER BY 1, 2
                ON CONFLICT (app, id) DO UPDATE SET start_seconds = excluded.start_seconds, end_seconds = excluded.end_seconds,
                    status = excluded.status, read_at = excluded.read_at, document = excluded.document
                """, logger: logger)
        }
    }

    /// The records of `app` (nil: every app's) reaching into `[fromSeconds, toSeconds)`, of `statuses`, by
    /// start, then app and id.
    public func incidents(app: String?, fromSeconds: Int64, toSeconds: Int64, statuses: Set<String>?) throws -> [StoredIncident] {
        let statuses = statuses?.sorted()
        let logger = logger
        return try withConnection { connection in
            var incidents: [StoredIncident] = []
            for try await (app, id, start, end, status, readAt, document, owner, note, at) in try await connection.query(
                """
                SELECT app, id, start_seconds, end_seconds, status, read_at, document, ack_owner, ack_note, ack_at FROM incident
                WHERE start_seconds < \(toSeconds) AND (end_seconds IS NULL OR end_seconds > \(fromSeconds))
                    AND (\(app)::text IS NULL OR app = \(app)) AND (\(statuses)::text[] IS NULL OR status = ANY(\(statuses)))
                ORDER BY start_seconds, app COLLATE "C", id COLLATE "C"
                """, logger: logger
            ).decode((String, String, Int64, Int64?, String, Int64, String, String?, String?, Int64?).self) {
                incidents.append(
                    StoredIncident(
                        app: app, id: id, startSeconds: start, endSeconds: end, status: status, readAtSeconds: readAt, document: document,
                        acknowledgement: owner.map { IncidentAcknowledgement(owner: $0, note: note ?? "", atSeconds: at ?? 0) }))
            }
            return incidents
        }
    }

    /// Keeps `acknowledgement` with the record of `app` and `id`; false when none is kept: one statement.
    public func acknowledge(app: String, id: String, _ acknowledgement: IncidentAcknowledgement) throws -> Bool {
        let logger = logger
        return try withConnection { connection in
            var updated = false
            for try await _ in try await connection.query(
                """
                UPDATE incident SET ack_owner = \(acknowledgement.owner), ack_note = \(acknowledgement.note), ack_at = \(acknowledgement.atSeconds)
                WHERE app = \(app) AND id = \(id) RETURNING id
                """, logger: logger)
            { updated = true }
            return updated
        }
    }

    /// Removes the records of `app` that started in `[fromSeconds, toSeconds)` but those of `keeping`: one
    /// statement.
    public func removeIncidents(app: String, startingFrom fromSeconds: Int64, to toSeconds: Int64, keeping: Set<String>) throws -> Int {
        let kept = keeping.sorted()
        let logger = logger
        return try withConnection { connection in
            var removed = 0
            for try await _ in try await connection.query(
                """
                DELETE FROM incident WHERE app = \(app) AND start_seconds >= \(fromSeconds) AND start_seconds < \(toSeconds)
                    AND NOT id = ANY(\(kept)) RETURNING id
                """, logger: logger)
            { removed += 1 }
            return removed
        }
    }
}
#endif
