import Foundation
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLIStores
import Testing

/// The stores' release controls against local stand-ins of their APIs: the App Store phased release
/// paused, the Play staged rollout halted, each only when in progress, with the stores' errors.
@Suite struct RolloutActionTests {
    static func appStore(_ baseURL: URL) async throws -> AppStoreConnectClient {
        try await AppStoreConnectClient(
            keyPEM: FakeStoreAPIs.applePEM, keyID: FakeStoreAPIs.keyID, issuerID: FakeStoreAPIs.issuerID, appID: FakeStoreAPIs.appID,
            baseURL: baseURL, retryDelaySeconds: 0.01)
    }

    static func play(_ baseURL: URL) async throws -> GooglePlayPublisherClient {
        try await GooglePlayPublisherClient(
            serviceAccountJSON: FakeStoreAPIs.serviceAccountJSON(tokenURL: baseURL.appendingPathComponent("token").absoluteString),
            packageName: "com.example.app", baseURL: baseURL, retryDelaySeconds: 0.01)
    }

    /// The releases of a Play track whose 4.12.0 is rolling out to 5 % of users.
    static let stagedRollout: [[String: any Sendable]] = [
        ["name": "4.11.0", "versionCodes": ["411"], "status": "completed"],
        ["name": "4.12.0 (412)", "versionCodes": ["412"], "status": "inProgress", "userFraction": 0.05],
    ]

    @Test func theAppStorePhasedReleaseIsPausedOnlyWhenActive() async throws {
        let apis = FakeStoreAPIs()
        await apis.setAppleVersion("4.12.0", .init(id: "pr412", state: "ACTIVE", day: 2))
        await apis.setAppleVersion("4.11.0", .init(id: "pr411", state: "COMPLETE", day: 7))
        await apis.setAppleVersion("4.10.0", nil)
        try await FakeStoreAPIs.serve(apis) { base in
            let client = try await Self.appStore(base)
            let dry = await client.pause(version: "4.12.0", dryRun: true)
            #expect(
                dry.outcome == .wouldPause
                    && dry.detail == "would PATCH /v1/appStoreVersionPhasedReleases/pr412 phasedReleaseState PAUSED (active on day 2)")
            #expect(await apis.count("PATCH", "/v1") == 0, "a dry run changes nothing")
            let live = await client.pause(version: "4.12.0", dryRun: false)
            #expect(live.outcome == .paused && live.status == 200, "\(live)")
            #expect(
                await apis.changes == [
                    #"{"data":{"attributes":{"phasedReleaseState":"PAUSED"},"id":"pr412","type":"appStoreVersionPhasedReleases"}}"#
                ])
            #expect(await apis.appleVersions["4.12.0"]??.state == "PAUSED")
            #expect(await client.pause(version: "4.12.0", dryRun: false).outcome == .alreadyPaused)
            #expect(await client.pause(version: "4.11.0", dryRun: false).detail.contains("complete: every user has it"))
            #expect(await client.pause(version: "4.10.0", dryRun: false).detail == "4.10.0 is not released in phases")
            #expect(await client.pause(version: "9.9.9", dryRun: false).outcome == .notInPhasedRelease)
            #expect(await apis.count("PATCH", "/v1") == 1, "only the active release is changed")
            // Every request carried a token the stand-in verified: iat and exp 15 minutes apart.
            #expect(await apis.appleLifetimes == Array(repeating: 900, count: 7))
        }
    }

    /// The App Store's errors: a 401 is tried once more with a new token, a 429 after its Retry-After, a
    /// 5xx until the attempts run out (failed: tried at the next check); a 409 or 403 is refused with
    /// Apple's words.
    @Test(
        arguments: [
            ([401], RolloutAction.Outcome.paused, 200, "paused on day 3"), ([429], .paused, 200, "paused on day 3"),
            ([503, 502, 500], .failed, 500, "500 UNEXPECTED_ERROR"),
            ([409], .refused, 409, "409 STATE_ERROR: scripted 409"), ([403], .refused, 403, "403 FORBIDDEN_ERROR"),
        ] as [([Int], RolloutAction.Outcome, Int, String)])
    func theAppStoreErrorsAreOutcomes(statuses: [Int], outcome: RolloutAction.Outcome, status: Int, detail: String) async throws {
        let apis = FakeStoreAPIs()
        await apis.setAppleVersion("4.12.0", .init(id: "pr412", state: "ACTIVE", day: 3))
        await apis.script("asc patch", statuses.map { ($0, $0 == 429 ? ["Retry-After": "1"] : [:]) })
        try await FakeStoreAPIs.serve(apis) { base in
            let result = await try Self.appStore(base).pause(version: "4.12.0", dryRun: false)
            #expect(result.outcome == outcome && result.status == status, "\(result)")
            #expect(result.detail.contains(detail), "\(result.detail)")
            #expect(await apis.count("PATCH", "pr412") == (outcome == .refused ? 1 : min(3, statuses.count + 1)))
        }
    }

    @Test func thePlayStagedRolloutIsHaltedInOneEdit() async throws {
        let apis = FakeStoreAPIs()
        await apis.setPlayReleases(Self.stagedRollout)
        try await FakeStoreAPIs.serve(apis) { base in
            let client = try await Self.play(base)
            let dry = await client.pause(version: "4.12.0", dryRun: true)
            #expect(
                dry.outcome == .wouldPause && dry.detail == "would set release 4.12.0 on production to halted at 5 % of users and commit the edit")
            #expect(await apis.count("DELETE", "edits/edit1") == 1, "the dry run's edit is deleted")
            #expect(await apis.count("PUT", "/edits") == 0)
            let live = await client.pause(version: "4.12.0", dryRun: false)
            #expect(live.outcome == .paused && live.detail == "staged rollout of 4.12.0 on production halted at 5 % of users", "\(live)")
            let put = try #require(await apis.changes.last)
            #expect(put.contains(#""name":"4.12.0 (412)","status":"halted","userFraction":0.05"#), "\(put)")
            #expect(put.contains(#""name":"4.11.0","status":"completed""#) && put.contains(#""track":"production""#), "\(put)")
            #expect(await apis.count("POST", "edit2:commit") == 1)
            #expect(await apis.playReleases[1]["status"] as? String == "halted")
            #expect(await client.pause(version: "4.12.0", dryRun: false).outcome == .alreadyPaused)
            #expect(await client.pause(version: "4.13.0", dryRun: false).outcome == .notInPhasedRelease)
            #expect(await apis.playLifetimes == Array(repeating: 3600, count: 4))
        }
    }

    /// Play's errors: a commit refused (409 ABORTED: another edit was committed) deletes the edit and is
    /// refused with Google's words; a token endpoint down through every retry is a failure.
    @Test func thePlayErrorsAreOutcomes() async throws {
        let apis = FakeStoreAPIs()
        await apis.setPlayReleases(Self.stagedRollout)
        await apis.script("play commit", [(409, [:])])
        await apis.script("play token", [(503, [:]), (503, [:]), (503, [:])])
        try await FakeStoreAPIs.serve(apis) { base in
            let client = try await Self.play(base)
            let down = await client.pause(version: "4.12.0", dryRun: false)
            #expect(down.outcome == .failed && down.status == 503 && down.detail.hasPrefix("getting an access token for purchase-sli@"), "\(down)")
            let refused = await client.pause(version: "4.12.0", dryRun: false)
            #expect(refused.outcome == .refused && refused.detail.contains("409 STATE_ERROR: scripted 409"), "\(refused)")
            #expect(await apis.count("DELETE", "edits/edit1") == 1)
            #expect(await apis.playReleases[1]["status"] as? String == "inProgress", "nothing was committed")
        }
    }
}

/// The actuator: once per store, release, verdict and mode; failures tried again; only the stores that
/// release the candidate's platforms; only the verdicts the policy names.
@Suite struct RolloutActuatorTests {
    /// A recording control that answers `outcomes` in turn.
    final class Control: StoreReleaseControl, @unchecked Sendable {
        let store: Store
        private let lock = NSLock()
        private var outcomes: [RolloutAction.Outcome]
        private(set) var calls: [(version: String, dryRun: Bool)] = []

        init(_ store: Store, _ outcomes: [RolloutAction.Outcome]) {
            self.store = store
            self.outcomes = outcomes
        }

        func pause(version: String, dryRun: Bool) async -> (outcome: RolloutAction.Outcome, status: Int, detail: String) {
            lock.withLock {
                calls.append((version, dryRun))
                let outcome = outcomes.isEmpty ? .paused : outcomes.removeFirst()
                return (outcome, outcome == .failed ? 503 : 200, "\(outcome.rawValue) \(version)")
            }
        }
    }

    func report(_ verdict: RolloutReport.Verdict, platforms: [String], start: Int64 = 86_400) -> RolloutReport {
        var report = RolloutReport(
            candidate: "4.12.0", baseline: "4.11.0", fromSeconds: start, toSeconds: start + 7200, verdict: verdict, reasons: [], comparisons: [])
        report.platforms = platforms
        return report
    }

    @Test func eachReleaseIsActedOnOncePerVerdictAndMode() async throws {
        let store = InMemoryBucketStore()
        let apple = Control(.apple, [.failed, .paused])
        let google = Control(.google, [.paused])
        let actuator = RolloutActuator(controls: [apple, google], dryRun: false, store: store, logger: Logger(label: "test"))
        // Only the App Store releases an iOS-only candidate; a hold is not among the verdicts acted on.
        #expect(await actuator.act(on: report(.hold, platforms: ["iOS"]), verdicts: [.rollback], at: 90_000).isEmpty)
        let first = await actuator.act(on: report(.rollback, platforms: ["iOS", "iPadOS"]), verdicts: [.rollback], at: 90_000)
        #expect(first.map(\.outcome) == [.failed] && google.calls.isEmpty)
        // The failure is tried again at the next check; then it is settled and left alone.
        let second = await actuator.act(on: report(.rollback, platforms: ["iOS"]), verdicts: [.rollback], at: 93_600)
        #expect(second.map(\.outcome) == [.paused] && second.first?.attempts == 2)
        #expect(await actuator.act(on: report(.rollback, platforms: ["iOS"]), verdicts: [.rollback], at: 97_200).isEmpty)
        #expect(apple.calls.count == 2 && apple.calls.allSatisfy { $0 == ("4.12.0", false) })
        // A restart (a new actuator over the same store) does not act again; a re-release does.
        let restarted = RolloutActuator(controls: [apple, google], dryRun: false, store: store, logger: Logger(label: "test"))
        #expect(await restarted.act(on: report(.rollback, platforms: ["iOS"]), verdicts: [.rollback], at: 100_800).isEmpty)
        let again = await restarted.act(on: report(.rollback, platforms: ["Android"], start: 200_000), verdicts: [.rollback], at: 210_000)
        #expect(again.map(\.store) == [.google] && apple.calls.count == 2)
        // A dry run is kept apart: turning it live later still acts.
        let dry = RolloutActuator(controls: [apple], dryRun: true, store: store, logger: Logger(label: "test"))
        #expect(await dry.act(on: report(.hold, platforms: []), verdicts: [.rollback, .hold], at: 100_800).map(\.isDryRun) == [true])
        let kept = try store.rolloutActions(fromSeconds: 0)
        #expect(kept.map(\.outcome) == [.paused, .paused, .paused] && kept.map(\.verdict) == ["rollback", "hold", "rollback"], "\(kept)")
    }
}
