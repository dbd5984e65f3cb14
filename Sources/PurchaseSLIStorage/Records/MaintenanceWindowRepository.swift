import Foundation
public import PurchaseSLICore

/// The stored maintenance windows (``MaintenanceWindow``), written once over SQL for every backend. Made
/// for one app (``app``), it lists and removes only that app's windows and those of every app; a window
/// is kept whatever app it names, and a declaration is checked against every window kept.
public struct MaintenanceWindowRepository: Sendable {
    private let sql: any SQLExecutor
    /// The app whose windows it sees (with those of every app), or nil for all of them.
    public let app: String?

    /// The repository of the windows kept in `sql`'s database, seen by `app` (nil: every window).
    public init(_ sql: any SQLExecutor, app: String? = nil) {
        self.sql = sql
        self.app = app
    }

    /// The windows seen, in order of first start (then id, by bytes).
    public func windows() async throws -> [MaintenanceWindow] {
        try await sql.read(select, of: Self.table).map(Self.window)
    }

    /// Keeps `window`, replacing one of the same id (`migrate` copies windows so): one statement.
    public func record(_ window: MaintenanceWindow) async throws {
        _ = try await sql.write(upsert(window), of: Self.table)
    }

    /// Keeps a window a person declares once `check` accepts the windows kept (of every app: the cap and
    /// the share count them all), in one transaction that other declarations (of any process) wait for:
    /// two at once cannot both pass a cap only one of them fits in.
    /// - Throws: what `check` throws, or ``MaintenanceWindowConflict`` when a window of its id is kept
    ///   (a declaration never replaces one).
    public func declare(_ window: MaintenanceWindow, check: @escaping @Sendable ([MaintenanceWindow]) throws -> Void) async throws {
        let insert = upsert(window, replacing: false)
        try await sql.transaction(locking: Self.table, read: MaintenanceWindowRepository(sql).select) { rows in
            let kept = try rows.map(Self.window)
            guard !kept.contains(where: { $0.id == window.id }) else { throw MaintenanceWindowConflict(id: window.id) }
            try check(kept)
            return ([insert], ())
        }
    }

    /// Removes the window `id` when it is seen, and gives it back; nil when none seen has that id. One
    /// statement: of two removals at once, one gets it.
    public func remove(id: String) async throws -> MaintenanceWindow? {
        let statement: SQLStatement = "DELETE FROM maintenance_window WHERE id = \(id) AND \(sql: seen) RETURNING \(sql: Self.columns)"
        return try await sql.write(statement, of: Self.table).first.map(Self.window)
    }

    /// The condition on a row that this repository sees it.
    private var seen: SQLStatement {
        app.map { "(app = '' OR app = \($0))" } ?? "TRUE"
    }

    private var select: SQLStatement {
        "SELECT \(sql: Self.columns) FROM maintenance_window WHERE \(sql: seen) ORDER BY start_seconds, id \(.byteOrder)"
    }

    private func upsert(_ window: MaintenanceWindow, replacing: Bool = true) -> SQLStatement {
        let insert: SQLStatement = """
            INSERT INTO maintenance_window (\(sql: Self.columns))
            VALUES (\(window.id), \(window.app), \(window.startSeconds), \(window.endSeconds), \(window.recurrence?.description),
                \(Self.json(window.actions)), \(window.reason), \(window.createdSeconds))
            """
        return replacing
            ? """
            \(sql: insert) ON CONFLICT (id) DO UPDATE SET app = excluded.app, start_seconds = excluded.start_seconds,
                end_seconds = excluded.end_seconds, rrule = excluded.rrule, actions = excluded.actions, reason = excluded.reason,
                created = excluded.created
            """
            : insert
    }

    private static let table = "maintenance_window"

    /// The columns ``window(_:)`` reads, in its order.
    private static let columns: SQLStatement = "id, app, start_seconds, end_seconds, rrule, actions, reason, created"

    /// The window a row of ``columns`` keeps.
    private static func window(_ row: SQLRow) throws -> MaintenanceWindow {
        let actions = try row.text(5)
        guard let decoded = try? JSONDecoder().decode([String].self, from: Data(actions.utf8)) else {
            throw StorageError.damaged(table: table, row: try row.text(0), detail: "actions: expected a JSON array of strings, found \(actions)")
        }
        return MaintenanceWindow(
            id: try row.text(0), app: try row.text(1), startSeconds: try row.integer(2), endSeconds: try row.integer(3),
            recurrence: try row.optionalText(4).map(RecurrenceRule.init(parsing:)), actions: decoded, reason: try row.text(6),
            createdSeconds: try row.optionalInteger(7))
    }

    /// Actions as their column keeps them: a JSON array of strings.
    private static func json(_ actions: [String]) -> String {
        String(decoding: try! JSONEncoder().encode(actions), as: UTF8.self)
    }
}

/// A declared maintenance window's id is kept already.
public struct MaintenanceWindowConflict: Error, Sendable, Hashable {
    /// The id taken.
    public var id: String

    /// The conflict of a declaration of `id`.
    public init(id: String) {
        self.id = id
    }
}
