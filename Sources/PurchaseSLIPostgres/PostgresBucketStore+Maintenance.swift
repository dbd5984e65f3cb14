#if PostgreSQL
import Logging
import PostgresNIO
public import PurchaseSLICore
import PurchaseSLIStorage

extension PostgresBucketStore {
    /// Keeps the window, replacing one of the same id: one statement.
    public func record(_ window: MaintenanceWindow) throws {
        let logger = logger
        try withConnection { connection in
            try await connection.run(
                """
                INSERT INTO maintenance_window (id, app, start_seconds, end_seconds, rrule, actions, reason, created)
                VALUES (\(window.id), \(window.app), \(window.startSeconds), \(window.endSeconds), \(window.recurrence?.description),
                    \(window.actions), \(window.reason), \(window.createdSeconds))
                ON CONFLICT (id) DO UPDATE SET app = excluded.app, start_seconds = excluded.start_seconds,
                    end_seconds = excluded.end_seconds, rrule = excluded.rrule, actions = excluded.actions, reason = excluded.reason,
                    created = excluded.created
                """, logger: logger)
        }
    }

    /// Keeps the window unless one of its id is kept: one statement.
    public func add(_ window: MaintenanceWindow) throws -> Bool {
        let logger = logger
        return try withConnection { connection in
            var inserted = false
            let rows = try await connection.query(
                """
                INSERT INTO maintenance_window (id, app, start_seconds, end_seconds, rrule, actions, reason, created)
                VALUES (\(window.id), \(window.app), \(window.startSeconds), \(window.endSeconds), \(window.recurrence?.description),
                    \(window.actions), \(window.reason), \(window.createdSeconds))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """, logger: logger)
            for try await _ in rows { inserted = true }
            return inserted
        }
    }

    /// The windows kept, in order of first start.
    public func maintenanceWindows() throws -> [MaintenanceWindow] {
        let logger = logger
        return try withConnection { connection in
            var windows: [MaintenanceWindow] = []
            let rows = try await connection.query(
                """
                SELECT id, app, start_seconds, end_seconds, rrule, actions, reason, created FROM maintenance_window
                ORDER BY start_seconds, id COLLATE "C"
                """, logger: logger)
            for try await row in rows { windows.append(try Self.window(row)) }
            return windows
        }
    }

    /// Removes the window `id` and gives it back, in one statement: of two removals at once, one gets it.
    public func removeMaintenanceWindow(id: String) throws -> MaintenanceWindow? {
        let logger = logger
        return try withConnection { connection in
            var removed: MaintenanceWindow?
            let rows = try await connection.query(
                """
                DELETE FROM maintenance_window WHERE id = \(id)
                RETURNING id, app, start_seconds, end_seconds, rrule, actions, reason, created
                """, logger: logger)
            for try await row in rows { removed = try Self.window(row) }
            return removed
        }
    }

    /// The window a row of (id, app, start_seconds, end_seconds, rrule, actions, reason, created) keeps.
    private static func window(_ row: PostgresRow) throws -> MaintenanceWindow {
        let (id, app, start, end, rrule, actions, reason, created) = try row.decode(
            (String, String, Int64, Int64, String?, [String], String, Int64?).self)
        return MaintenanceWindow(
            id: id, app: app, startSeconds: start, endSeconds: end, recurrence: try rrule.map(RecurrenceRule.init(parsing:)),
            actions: actions, reason: reason, createdSeconds: created)
    }
}
#endif
