public import PurchaseSLICore

/// What was done to the stores' releases (``RolloutAction``), written once over SQL for every backend:
/// one action per ``RolloutAction/key``, replaced by each attempt. Made for one app (``app``), it lists
/// and changes only that app's actions.
public struct RolloutActionRepository: Sendable {
    private let sql: any SQLExecutor
    /// The app whose actions it sees, or nil for every app's.
    public let app: String?

    /// The repository of the actions kept in `sql`'s database, seen by `app` (nil: every app's).
    public init(_ sql: any SQLExecutor, app: String? = nil) {
        self.sql = sql
        self.app = app
    }

    /// Keeps `action`, replacing the one kept under its key: one statement.
    public func record(_ action: RolloutAction) async throws {
        _ = try await sql.write(Self.upsert(action), of: Self.table)
    }

    /// The actions seen last tried at or after `fromSeconds`, oldest first (then by key).
    public func actions(fromSeconds: Int64) async throws -> [RolloutAction] {
        try await sql.read(select(fromSeconds: fromSeconds), of: Self.table).compactMap(Self.action)
    }

    /// Hands the actions seen (all of them, oldest first) to `change` and keeps the action it returns, in
    /// one transaction that other writers of the actions (of any process) wait for; returns it.
    /// - Throws: what `change` throws, and then keeps nothing.
    public func update(_ change: @escaping @Sendable ([RolloutAction]) throws -> RolloutAction) async throws -> RolloutAction {
        try await sql.transaction(locking: Self.table, read: select(fromSeconds: .min)) { rows in
            let changed = try change(try rows.compactMap(Self.action))
            return ([Self.upsert(changed)], changed)
        }
    }

    private func select(fromSeconds: Int64) -> SQLStatement {
        let order: SQLStatement = """
            ORDER BY time, store \(.byteOrder), app \(.byteOrder), candidate \(.byteOrder), release_start, verdict \(.byteOrder), dry_run
            """
        let seen: SQLStatement = app.map { "app = \($0)" } ?? "TRUE"
        return "SELECT \(sql: Self.columns) FROM rollout_action WHERE time >= \(fromSeconds) AND \(sql: seen) \(sql: order)"
    }

    private static func upsert(_ action: RolloutAction) -> SQLStatement {
        """
        INSERT INTO rollout_action (\(sql: columns))
        VALUES (\(action.store.rawValue), \(action.app), \(action.candidate), \(action.releaseStartSeconds), \(action.verdict),
            \(action.isDryRun), \(action.outcome.rawValue), \(Int64(action.status)), \(action.detail), \(action.step.map(Int64.init)),
            \(action.timeSeconds), \(Int64(action.attempts)))
        ON CONFLICT (store, app, candidate, release_start, verdict, dry_run) DO UPDATE SET outcome = excluded.outcome,
            status = excluded.status, detail = excluded.detail, step = excluded.step, time = excluded.time, attempts = excluded.attempts
        """
    }

    private static let table = "rollout_action"

    /// The columns ``action(_:)`` reads, in its order.
    private static let columns: SQLStatement =
        "store, app, candidate, release_start, verdict, dry_run, outcome, status, detail, step, time, attempts"

    /// The action a row of ``columns`` keeps; nil for a store or outcome this version does not know (a
    /// newer version wrote it).
    private static func action(_ row: SQLRow) throws -> RolloutAction? {
        guard let store = Store(rawValue: try row.text(0)), let outcome = RolloutAction.Outcome(rawValue: try row.text(6)) else { return nil }
        return RolloutAction(
            store: store, app: try row.text(1), candidate: try row.text(2), releaseStartSeconds: try row.integer(3), verdict: try row.text(4),
            isDryRun: try row.boolean(5), outcome: outcome, status: Int(try row.integer(7)), detail: try row.text(8),
            step: try row.optionalInteger(9).map(Int.init), timeSeconds: try row.integer(10), attempts: Int(try row.integer(11)))
    }
}
