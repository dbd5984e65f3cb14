import GRDB
public import PurchaseSLICore

extension SQLiteBucketStore {
    /// Keeps the window, replacing one of the same id.
    public func record(_ window: MaintenanceWindow) throws {
        _ = try insert(window, onConflict: "REPLACE")
    }

    /// Keeps the window unless one of its id is kept.
    public func add(_ window: MaintenanceWindow) throws -> Bool {
        try insert(window, onConflict: "IGNORE")
    }

    /// Inserts the window, `INSERT OR REPLACE` or `INSERT OR IGNORE`; whether a row was written.
    private func insert(_ window: MaintenanceWindow, onConflict: String) throws -> Bool {
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT OR \(onConflict) INTO maintenance_window (id, app, start, end, rrule, actions, reason, created)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    window.id, window.app, window.startSeconds, window.endSeconds, window.recurrence?.description,
                    window.actions.joined(separator: String(Self.actionSeparator)), window.reason, window.createdSeconds,
                ])
            return db.changesCount == 1
        }
    }

    /// The windows kept, in order of first start.
    public func maintenanceWindows() throws -> [MaintenanceWindow] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.windowColumns) FROM maintenance_window ORDER BY start, id").map(Self.window)
        }
    }

    /// Removes the window `id` and gives it back, in one statement: of two removals at once, one gets it.
    public func removeMaintenanceWindow(id: String) throws -> MaintenanceWindow? {
        try pool.write { db in
            try Row.fetchOne(db, sql: "DELETE FROM maintenance_window WHERE id = ? RETURNING \(Self.windowColumns)", arguments: [id])
                .map(Self.window)
        }
    }

    /// The columns ``window(_:)`` reads, in its order.
    private static let windowColumns = "id, app, start, end, rrule, actions, reason, created"

    /// The window a row of ``windowColumns`` keeps.
    private static func window(_ row: Row) throws -> MaintenanceWindow {
        let actions: String = row[5]
        return MaintenanceWindow(
            id: row[0], app: row[1], startSeconds: row[2], endSeconds: row[3],
            recurrence: try (row[4] as String?).map(RecurrenceRule.init(parsing:)),
            actions: actions.isEmpty ? [] : actions.split(separator: actionSeparator, omittingEmptySubsequences: false).map(String.init),
            reason: row[6], createdSeconds: row[7])
    }

    /// What joins a window's actions in their column (no action name holds it).
    private static let actionSeparator: Character = "\u{1F}"
}
