import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// `rollout confirm`: a person's confirmation of an action awaiting one, read, checked and kept at once.
@Suite struct RolloutConfirmationTests {
    private let waiting = RolloutAction(
        store: .apple, app: "com.example.app", candidate: "5.0.0", releaseStartSeconds: 1_795_000_000, verdict: "rollback", isDryRun: false,
        outcome: .awaitingConfirmation, status: 0, detail: "evidence: …", step: 2, timeSeconds: 1_795_003_600, attempts: 1)

    @Test func twoConfirmationsAtOnceConfirmOnceAndTheOtherIsTold() async throws {
        let store = InMemoryBucketStore()
        try await RolloutActionRepository(store.sql).record(waiting)
        let confirmation = RolloutConfirmation(store: store)
        let outcomes = await withTaskGroup(of: String.self) { group in
            for person in ["Ana", "Bo"] {
                group.addTask {
                    do {
                        return try await confirmation.confirm(id: waiting.id, by: person, atSeconds: 1_795_004_000).detail
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0.hasPrefix("confirmed by ") }.count == 1, "\(outcomes)")
        #expect(outcomes.contains { $0.contains("does not await confirmation: it is confirmed") }, "\(outcomes)")
        let kept = try await RolloutActionRepository(store.sql).actions(fromSeconds: .min)
        #expect(kept.count == 1 && kept[0].outcome == .confirmed)
    }

    @Test func anUnknownIdNamesTheActionsAwaitingOne() async throws {
        let store = InMemoryBucketStore()
        try await RolloutActionRepository(store.sql).record(waiting)
        await #expect {
            try await RolloutConfirmation(store: store).confirm(id: "000000000000", by: "Ana", atSeconds: 1_795_004_000)
        } throws: { error in
            "\(error)" == "no rollout action has id 000000000000; awaiting confirmation: \(waiting.id)"
        }
    }
}
