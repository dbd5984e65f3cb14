public import PurchaseSLICore

/// The incidents' records (``StoredIncident``), written once over SQL for every backend: one per app and
/// id (an app's book, or `""` for the book of every app), its figures replaced as they are taken again,
/// its acknowledgement kept until a person gives another.
public struct IncidentRepository: Sendable {
    private let sql: any SQLExecutor

    /// The repository of the records kept in `sql`'s database.
    public init(_ sql: any SQLExecutor) {
        self.sql = sql
    }

    /// Keeps each record, replacing the figures kept under its app and id but keeping the acknowledgement
    /// kept with them (a record's own acknowledgement is ignored; the last of an app and id given wins):
    /// all or nothing, in one transaction.
    public func save(_ incidents: [StoredIncident]) async throws {
        var latest: [[String]: StoredIncident] = [:]
        for incident in incidents { latest[[incident.app, incident.id]] = incident }
        let rows = latest.values.sorted { ($0.app, $0.id) < ($1.app, $1.id) }
        guard !rows.isEmpty else { return }
        let values = rows.map { incident -> SQLStatement in
            """
            (\(incident.app), \(incident.id), \(incident.startSeconds), \(incident.endSeconds), \(incident.status), \(incident.readAtSeconds),
                \(incident.document))
            """
        }
        let statements = SQLStatement.inserting(values) { values in
            """
            INSERT INTO incident (app, id, start_seconds, end_seconds, status, read_at, document) VALUES \(sql: values)
            ON CONFLICT (app, id) DO UPDATE SET start_seconds = excluded.start_seconds, end_seconds = excluded.end_seconds,
                status = excluded.status, read_at = excluded.read_at, document = excluded.document
            """
        }
        _ = try await sql.write(statements, of: Self.table)
    }

    /// The records of `app` (nil: of every app) whose span reaches into `[fromSeconds, toSeconds)` (started
    /// before its end; not ended, or ended after its start) and whose status is among `statuses` (nil: any),
    /// by start, then app and id (by bytes).
    public func incidents(app: String?, fromSeconds: Int64, toSeconds: Int64, statuses: Set<String>?) async throws -> [StoredIncident] {
        let ofApp: SQLStatement = app.map { "app = \($0)" } ?? "TRUE"
        let ofStatus: SQLStatement = statuses.map { "status \(oneOf: $0.sorted())" } ?? "TRUE"
        return try await sql.read(
            """
            SELECT \(sql: Self.columns) FROM incident
            WHERE start_seconds < \(toSeconds) AND (end_seconds IS NULL OR end_seconds > \(fromSeconds)) AND \(sql: ofApp) AND \(sql: ofStatus)
            ORDER BY start_seconds, app \(.byteOrder), id \(.byteOrder)
            """, of: Self.table
        ).map(Self.incident)
    }

    /// The record of `app` and `id`, or nil; read among those that started at the minute `id` names.
    public func incident(app: String, id: String, startSeconds: Int64) async throws -> StoredIncident? {
        try await incidents(app: app, fromSeconds: startSeconds, toSeconds: startSeconds + .secondsPerMinute, statuses: nil).first { $0.id == id }
    }

    /// Keeps `acknowledgement` with the record of `app` and `id`, replacing any before; false when no such
    /// record is kept. One statement.
    public func acknowledge(app: String, id: String, _ acknowledgement: IncidentAcknowledgement) async throws -> Bool {
        let statement: SQLStatement = """
            UPDATE incident SET ack_owner = \(acknowledgement.owner), ack_note = \(acknowledgement.note), ack_at = \(acknowledgement.atSeconds)
            WHERE app = \(app) AND id = \(id) RETURNING id
            """
        return try await !sql.write(statement, of: Self.table).isEmpty
    }

    /// Removes the record of `app` and `id`; false when none is kept. One statement.
    public func remove(app: String, id: String) async throws -> Bool {
        try await !sql.write("DELETE FROM incident WHERE app = \(app) AND id = \(id) RETURNING id", of: Self.table).isEmpty
    }

    /// Removes the records of `app` that started in `[fromSeconds, toSeconds)` but those of `keeping`
    /// (ids), and gives back how many: the incidents a rebuild of that range no longer finds. One statement.
    public func remove(app: String, startingFrom fromSeconds: Int64, to toSeconds: Int64, keeping: Set<String>) async throws -> Int {
        let statement: SQLStatement = """
            DELETE FROM incident WHERE app = \(app) AND start_seconds >= \(fromSeconds) AND start_seconds < \(toSeconds)
                AND NOT (id \(oneOf: keeping.sorted())) RETURNING id
            """
        return try await sql.write(statement, of: Self.table).count
    }

    private static let table = "incident"

    /// The columns ``incident(_:)`` reads, in its order.
    private static let columns: SQLStatement =
        "app, id, start_seconds, end_seconds, status, read_at, document, ack_owner, ack_note, ack_at"

    /// The record a row of ``columns`` keeps.
    private static func incident(_ row: SQLRow) throws -> StoredIncident {
        StoredIncident(
            app: try row.text(0), id: try row.text(1), startSeconds: try row.integer(2), endSeconds: try row.optionalInteger(3),
            status: try row.text(4), readAtSeconds: try row.integer(5), document: try row.text(6),
            acknowledgement: try row.optionalText(7).map {
                IncidentAcknowledgement(owner: $0, note: try row.optionalText(8) ?? "", atSeconds: try row.optionalInteger(9) ?? 0)
            })
    }
}
