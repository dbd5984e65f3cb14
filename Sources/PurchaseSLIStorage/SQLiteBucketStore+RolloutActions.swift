import GRDB
public import PurchaseSLICore

extension SQLiteBucketStore {
    /// Keeps the action, replacing the one kept under its key.
    public func record(_ action: RolloutAction) throws {
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO rollout_action (store, app, candidate, release_start, verdict, dry_run, outcome, status,
                        detail, step, time, attempts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    action.store.rawValue, action.app, action.candidate, action.releaseStartSeconds, action.verdict, action.isDryRun,
                    action.outcome.rawValue, action.status, action.detail, action.step, action.timeSeconds, action.attempts,
                ])
        }
    }

    /// The actions last tried at or after `fromSeconds`, oldest first.
    public func rolloutActions(fromSeconds: Int64) throws -> [RolloutAction] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT store, app, candidate, release_start, verdict, dry_run, outcome, status, detail, step, time, attempts
                    FROM rollout_action WHERE time >= ? ORDER BY time, store, app, candidate, release_start, verdict, dry_run
                    """, arguments: [fromSeconds]
            ).compactMap { row in
                guard let store = Store(rawValue: row[0]), let outcome = RolloutAction.Outcome(rawValue: row[6]) else { return nil }
                return RolloutAction(
                    store: store, app: row[1], candidate: row[2], releaseStartSeconds: row[3], verdict: row[4], isDryRun: row[5],
                    outcome: outcome, status: row[7], detail: row[8], step: row[9], timeSeconds: row[10], attempts: row[11])
            }
        }
    }
}
