#if PostgreSQL
import Logging
import PostgresNIO
public import PurchaseSLICore
import PurchaseSLIStorage

extension PostgresBucketStore {
    /// Keeps the action, replacing the one kept under its key: one statement.
    public func record(_ action: RolloutAction) throws {
        let logger = logger
        let step = action.step.map { Int32(clamping: $0) }
        try withConnection { connection in
            try await connection.run(
                """
                INSERT INTO rollout_action (store, app, candidate, release_start, verdict, dry_run, outcome, status, detail, step, time,
                    attempts)
                VALUES (\(action.store.rawValue), \(action.app), \(action.candidate), \(action.releaseStartSeconds), \(action.verdict),
                    \(action.isDryRun), \(action.outcome.rawValue), \(Int32(clamping: action.status)), \(action.detail), \(step),
                    \(action.timeSeconds), \(Int32(clamping: action.attempts)))
                ON CONFLICT (store, app, candidate, release_start, verdict, dry_run) DO UPDATE SET outcome = excluded.outcome,
                    status = excluded.status, detail = excluded.detail, step = excluded.step, time = excluded.time,
                    attempts = excluded.attempts
                """, logger: logger)
        }
    }

    /// The actions last tried at or after `fromSeconds`, oldest first.
    public func rolloutActions(fromSeconds: Int64) throws -> [RolloutAction] {
        let logger = logger
        return try withConnection { connection in
            var actions: [RolloutAction] = []
            let rows = try await connection.query(
                """
                SELECT store, app, candidate, release_start, verdict, dry_run, outcome, status, detail, step, time, attempts
                FROM rollout_action WHERE time >= \(fromSeconds)
                ORDER BY time, store COLLATE "C", app COLLATE "C", candidate COLLATE "C", release_start, verdict COLLATE "C", dry_run
                """, logger: logger)
            for try await row in rows {
                let (store, app, candidate, start, verdict, dryRun, outcome, status, detail, step, time, attempts) = try row.decode(
                    (String, String, String, Int64, String, Bool, String, Int32, String, Int32?, Int64, Int32).self)
                guard let store = Store(rawValue: store), let outcome = RolloutAction.Outcome(rawValue: outcome) else { continue }
                actions.append(
                    RolloutAction(
                        store: store, app: app, candidate: candidate, releaseStartSeconds: start, verdict: verdict, isDryRun: dryRun,
                        outcome: outcome, status: Int(status), detail: detail, step: step.map(Int.init), timeSeconds: time,
                        attempts: Int(attempts)))
            }
            return actions
        }
    }
}
#endif
