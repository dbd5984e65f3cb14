import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// What ``RolloutActionRepository`` does on every backend: the one implementation over each backend's
/// ``SQLExecutor``, held to the same fixtures and expectations.
@Suite("Rollout action contract")
struct RolloutActionContractTests {
    private func action(
        _ store: Store, app: String = "com.example.app", verdict: String, dryRun: Bool, _ outcome: RolloutAction.Outcome, at time: Int64,
        step: Int? = 2
    ) -> RolloutAction {
        RolloutAction(
            store: store, app: app, candidate: "4.12.0", releaseStartSeconds: 1_795_000_000, verdict: verdict, isDryRun: dryRun,
            outcome: outcome, status: outcome == .failed ? 503 : 200, detail: "answer é", step: step, timeSeconds: time,
            attempts: outcome == .failed ? 1 : 2)
    }

    @Test(
        "one per store, app, release, verdict and mode, the latest replacing the one before, read from a time",
        arguments: Backend.all)
    func kept(_ backend: Backend) async throws {
        let actions = RolloutActionRepository(try await backend.store().sql)
        try await actions.record(action(.apple, verdict: "rollback", dryRun: false, .failed, at: 1_795_003_600))
        try await actions.record(action(.apple, verdict: "rollback", dryRun: false, .paused, at: 1_795_007_200))
        try await actions.record(action(.apple, verdict: "rollback", dryRun: true, .wouldPause, at: 1_795_001_000, step: nil))
        try await actions.record(action(.google, verdict: "hold", dryRun: false, .alreadyPaused, at: 1_795_005_000))
        #expect(
            try await actions.actions(fromSeconds: 0) == [
                action(.apple, verdict: "rollback", dryRun: true, .wouldPause, at: 1_795_001_000, step: nil),
                action(.google, verdict: "hold", dryRun: false, .alreadyPaused, at: 1_795_005_000),
                action(.apple, verdict: "rollback", dryRun: false, .paused, at: 1_795_007_200),
            ])
        #expect(try await actions.actions(fromSeconds: 1_795_005_001).map(\.store) == [.apple])
    }

    @Test("one app's repository lists its own actions; every app's lists them all", arguments: Backend.all)
    func appScope(_ backend: Backend) async throws {
        let sql = try await backend.store().sql
        let everyApp = RolloutActionRepository(sql)
        try await everyApp.record(action(.apple, app: "com.example.coins", verdict: "rollback", dryRun: false, .paused, at: 1_795_003_600))
        try await everyApp.record(action(.apple, app: "com.example.premium", verdict: "rollback", dryRun: false, .paused, at: 1_795_003_600))
        #expect(try await RolloutActionRepository(sql, app: "com.example.coins").actions(fromSeconds: 0).map(\.app) == ["com.example.coins"])
        #expect(try await everyApp.actions(fromSeconds: 0).map(\.app) == ["com.example.coins", "com.example.premium"])
    }

    @Test("an update reads every action and keeps what it returns, or nothing when it throws", arguments: Backend.all)
    func update(_ backend: Backend) async throws {
        let actions = RolloutActionRepository(try await backend.store().sql)
        let waiting = action(.apple, verdict: "rollback", dryRun: false, .awaitingConfirmation, at: 1_795_003_600)
        try await actions.record(waiting)
        struct NotWaiting: Error {}
        let confirmed = try await actions.update { kept in
            guard var action = kept.first(where: { $0.outcome == .awaitingConfirmation }) else { throw NotWaiting() }
            action.outcome = .confirmed
            action.timeSeconds += 60
            return action
        }
        #expect(try await actions.actions(fromSeconds: 0) == [confirmed])
        await #expect(throws: NotWaiting.self) {
            try await actions.update { kept in
                guard let action = kept.first(where: { $0.outcome == .awaitingConfirmation }) else { throw NotWaiting() }
                return action
            }
        }
        #expect(try await actions.actions(fromSeconds: 0) == [confirmed])
    }
}
