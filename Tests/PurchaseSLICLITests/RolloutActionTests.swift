import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIOutbound
import PurchaseSLIRendering
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLIStores
import PurchaseSLITestSupport
import Testing

/// The stores' release controls against local stand-ins of their APIs: the App Store phased release
/// paused, the Play staged rollout halted, each only when in progress, with the stores' errors.
@Suite struct RolloutActionTests {
    static func appStore(_ baseURL: URL, _ transport: any OutboundTransport) async throws -> AppStoreConnectClient {
        try await AppStoreConnectClient(
            keyPEM: FakeStoreAPIs.applePEM, keyID: FakeStoreAPIs.keyID, issuerID: FakeStoreAPIs.issuerID, appID: FakeStoreAPIs.appID,
            baseURL: baseURL, transport: transport, retryDelaySeconds: 0.01)
    }

    static func play(_ baseURL: URL, _ transport: any OutboundTransport) async throws -> GooglePlayPublisherClient {
        try await GooglePlayPublisherClient(
            serviceAccountJSON: FakeStoreAPIs.serviceAccountJSON(tokenURL: baseURL.appendingPathComponent("token").absoluteString),
            packageName: "com.example.app", baseURL: baseURL, transport: transport, retryDelaySeconds: 0.01)
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
        try await FakeStoreAPIs.serve(apis) { base, transport in
            let client = try await Self.appStore(base, transport)
            let dry = await client.pause(version: "4.12.0", dryRun: true)
            #expect(
                dry.outcome == .wouldPause
                    && dry.detail == "would PATCH /v1/appStoreVersionPhasedReleases/pr412 phasedReleaseState PAUSED (active on day 2)")
            #expect(await apis.count("PATCH", "/v1") == 0, "a dry run changes nothing")
            let live = await client.pause(version: "4.12.0", dryRun: false)
            #expect(live.outcome == .paused && live.status == 200, "\(live)")
            #expect(
                await apis.changes == [
                    #"{"data":{"type":"appStoreVersionPhasedReleases","id":"pr412","attributes":{"phasedReleaseState":"PAUSED"}}}"#
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
        try await FakeStoreAPIs.serve(apis) { base, transport in
            let result = try await Self.appStore(base, transport).pause(version: "4.12.0", dryRun: false)
            #expect(result.outcome == outcome && result.status == status, "\(result)")
            #expect(result.detail.contains(detail), "\(result.detail)")
            #expect(await apis.count("PATCH", "pr412") == (outcome == .refused ? 1 : min(3, statuses.count + 1)))
        }
    }

    /// A redirect from either store's API is refused (a person must look), never followed: the token
    /// (App Store Connect's JWT, Play's access token, the service account's signed assertion) reaches no
    /// other origin.
    @Test(arguments: redirectStatuses)
    func aRedirectFromAStoreIsRefusedAndNotFollowed(status: Int) async throws {
        let answer: LiveAnswer = { _, _ in jsonResponse(200, "{}") }
        try await withLiveServer(answer: answer) { other, otherSent in
            let apis = FakeStoreAPIs()
            await apis.setAppleVersion("4.12.0", .init(id: "pr412", state: "ACTIVE", day: 3))
            await apis.setPlayReleases(Self.stagedRollout)
            let location = ["Location": other.appendingPathComponent("elsewhere").absoluteString]
            await apis.script("asc patch", [(status, location)])
            await apis.script("play token", [(status, location)])
            await apis.script("play get", [(status, location)])
            try await FakeStoreAPIs.serve(apis) { base, transport in
                let apple = try await Self.appStore(base, transport).pause(version: "4.12.0", dryRun: false)
                #expect(apple.outcome == .refused && apple.status == status, "\(apple)")
                #expect(
                    apple.detail
                        == "pausing phased release pr412: App Store Connect answered \(status) (redirect to \(other.absoluteString)/…): redirects are not followed"
                )
                #expect(await apis.count("PATCH", "pr412") == 1, "not tried again")
                let play = try await Self.play(base, transport)
                let token = await play.pause(version: "4.12.0", dryRun: false)
                #expect(
                    token.outcome == .refused
                        && token.detail.hasSuffix(
                            "Google's token endpoint answered \(status) (redirect to \(other.absoluteString)/…): redirects are not followed"),
                    "\(token)")
                let track = await play.pause(version: "4.12.0", dryRun: false)
                #expect(track.outcome == .refused && track.detail.contains("the Android Publisher API answered \(status)"), "\(track)")
                #expect(await apis.playReleases[1]["status"] as? String == "inProgress", "nothing was changed")
            }
            let reached = await otherSent.all.map(\.line)
            #expect(reached.isEmpty, "the other origin got \(reached)")
        }
    }

    @Test func thePlayStagedRolloutIsHaltedInOneEdit() async throws {
        let apis = FakeStoreAPIs()
        await apis.setPlayReleases(Self.stagedRollout)
        try await FakeStoreAPIs.serve(apis) { base, transport in
            let client = try await Self.play(base, transport)
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
        try await FakeStoreAPIs.serve(apis) { base, transport in
            let client = try await Self.play(base, transport)
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

        func releasesInProgress() async throws(StoreReleaseReadError) -> [StoreRelease] {
            [StoreRelease(store: store, name: store == .apple ? "4.12.0" : "4.12.0 (412)", isPaused: false)]
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

    /// What both stores say they have in release.
    let releases = StoreReleases(read: [
        .apple: [StoreRelease(store: .apple, name: "4.12.0", isPaused: false)],
        .google: [StoreRelease(store: .google, name: "4.12.0 (412)", isPaused: false)],
    ])

    @Test func eachReleaseIsActedOnOncePerVerdictAndMode() async throws {
        let store = InMemoryBucketStore()
        let apple = Control(.apple, [.failed, .paused])
        let google = Control(.google, [.paused])
        let actuator = RolloutActuator(
            controls: [apple, google], dryRun: false, requiresConfirmation: false, store: store, logger: Logger(label: "test"))
        // Only the App Store releases an iOS-only candidate; a hold is not among the verdicts acted on.
        #expect(await actuator.act(on: report(.hold, platforms: ["iOS"]), verdicts: [.rollback], releases: releases, at: 90_000).isEmpty)
        let first = await actuator.act(on: report(.rollback, platforms: ["iOS", "iPadOS"]), verdicts: [.rollback], releases: releases, at: 90_000)
        #expect(first.map(\.outcome) == [.failed] && google.calls.isEmpty)
        // The failure is tried again at the next check; then it is settled and left alone.
        let second = await actuator.act(on: report(.rollback, platforms: ["iOS"]), verdicts: [.rollback], releases: releases, at: 93_600)
        #expect(second.map(\.outcome) == [.paused] && second.first?.attempts == 2)
        #expect(await actuator.act(on: report(.rollback, platforms: ["iOS"]), verdicts: [.rollback], releases: releases, at: 97_200).isEmpty)
        #expect(apple.calls.count == 2 && apple.calls.allSatisfy { $0 == ("4.12.0", false) })
        // A restart (a new actuator over the same store) does not act again; a re-release does.
        let restarted = RolloutActuator(
            controls: [apple, google], dryRun: false, requiresConfirmation: false, store: store, logger: Logger(label: "test"))
        #expect(await restarted.act(on: report(.rollback, platforms: ["iOS"]), verdicts: [.rollback], releases: releases, at: 100_800).isEmpty)
        let again = await restarted.act(
            on: report(.rollback, platforms: ["Android"], start: 200_000), verdicts: [.rollback], releases: releases, at: 210_000)
        #expect(again.map(\.store) == [.google] && apple.calls.count == 2)
        // A dry run is kept apart: turning it live later still acts.
        let dry = RolloutActuator(controls: [apple], dryRun: true, store: store, logger: Logger(label: "test"))
        #expect(
            await dry.act(on: report(.hold, platforms: []), verdicts: [.rollback, .hold], releases: releases, at: 100_800).map(\.isDryRun) == [true])
        let kept = try await RolloutActionRepository(store.sql).actions(fromSeconds: 0)
        #expect(kept.map(\.outcome) == [.paused, .paused, .paused] && kept.map(\.verdict) == ["rollback", "hold", "rollback"], "\(kept)")
    }
}

extension RolloutActuatorTests {
    /// Live and by default, the store is only read until a person confirms; the confirmation and the evidence
    /// are in the record of the pause that follows, and an action is confirmed once.
    @Test func aLiveActionWaitsForAPersonsConfirmation() async throws {
        let store = InMemoryBucketStore()
        let apple = Control(.apple, [.wouldPause, .paused])
        let actuator = RolloutActuator(controls: [apple], dryRun: false, store: store, logger: Logger(label: "test"))
        var rollback = report(.rollback, platforms: ["iOS"])
        rollback.comparisons = [
            RolloutComparison(
                metric: .successRate, slice: SeriesLabels(actionType: "purchase"), candidate: .init(count: 60, trials: 100),
                baseline: .init(count: 99, trials: 100))
        ]
        rollback.comparisons[0].isRegression = true
        let waiting = await actuator.act(on: rollback, verdicts: [.rollback], releases: releases, at: 90_000)
        #expect(waiting.map(\.outcome) == [.awaitingConfirmation] && apple.calls.map(\.dryRun) == [true], "only read: \(apple.calls)")
        let id = try #require(waiting.first?.id)
        #expect(waiting.first?.detail.contains("evidence: the rollback verdict on 4.12.0 against 4.11.0") == true, "\(waiting)")
        #expect(waiting.first?.detail.contains("successRate of purchase: 60 of 100 on the candidate against 99 of 100") == true)
        // Awaiting is settled: the checks after it neither read nor act.
        #expect(await actuator.act(on: rollback, verdicts: [.rollback], releases: releases, at: 93_600).isEmpty && apple.calls.count == 1)
        let confirmation = RolloutConfirmation(store: store)
        await #expect(throws: RolloutConfirmation.Failure.self) { try await confirmation.confirm(id: "000000000000", by: "Ana", atSeconds: 94_000) }
        await #expect(throws: RolloutConfirmation.Failure.self) { try await confirmation.confirm(id: id, by: " \u{0}\u{202E} ", atSeconds: 94_000) }
        let confirmed = try await confirmation.confirm(id: id.uppercased(), by: "Ana (release manager)", atSeconds: 94_000)
        #expect(confirmed.outcome == .confirmed && confirmed.id == id)
        let paused = await actuator.act(on: rollback, verdicts: [.rollback], releases: releases, at: 97_200)
        #expect(paused.map(\.outcome) == [.paused] && apple.calls.last?.dryRun == false)
        let detail = paused.first?.detail ?? ""
        #expect(detail.contains("confirmed by Ana (release manager) at 1970-01-02T02:06:40Z") && detail.contains("evidence: "), "\(detail)")
        do {
            _ = try await confirmation.confirm(id: id, by: "Ana", atSeconds: 98_000)
            Issue.record("a paused action was confirmed again")
        } catch {
            #expect("\(error)".contains("does not await confirmation: it is paused"), "\(error)")
        }
    }

    /// A candidate the store has no release of (a version only events name) is left alone without a call
    /// to the store, and the record names what the store does have in release.
    @Test func aVersionTheStoreDoesNotReleaseIsLeftAlone() async throws {
        let store = InMemoryBucketStore()
        let apple = Control(.apple, [])
        let actuator = RolloutActuator(controls: [apple], dryRun: false, requiresConfirmation: false, store: store, logger: Logger(label: "test"))
        var forged = report(.rollback, platforms: ["iOS"])
        forged.candidate = "99.0.0"
        let done = await actuator.act(on: forged, verdicts: [.rollback], releases: releases, at: 90_000)
        #expect(done.map(\.outcome) == [.notInPhasedRelease] && apple.calls.isEmpty)
        #expect(done.first?.detail == "App Store has no release of 99.0.0 in progress (in progress: 4.12.0)")
    }
}

/// End to end: a release ingested hour by hour through `serve`'s HTTP API while the rollout notifier
/// `serve --rollout-every 1h` runs checks at each hour's end (the time handed to it rather than read
/// from the clock), acting through the stand-ins of both stores' APIs.
@Suite struct RolloutActionEndToEndTests {
    /// 2026-11-14T00:00:00Z.
    static let start: Int64 = 1_794_614_400

    /// Records what Slack would be posted.
    final class SlackRecorder: RolloutNotificationSender, @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [String] = []
        var posted: [String] { lock.withLock { texts } }

        func send(_ report: RolloutReport, previous: RolloutReport.Verdict?) async throws {
            let text = RolloutOutput.slackJSON(report, previous: previous, pageURL: nil)
            lock.withLock { texts.append(text) }
        }
    }

    /// Hour `hour`'s events: a purchase every 5 s on iOS and Android in turn; from the second day every
    /// third is 5.0.0, whose pro-monthly purchases fail one time in twenty-four when `bad`; one in a hundred
    /// fails elsewhere.
    static func events(hour: Int, bad: Bool) -> String {
        (0..<720).map { index in
            let number = hour * 720 + index
            let time = (start + Int64(hour) * 3600) * 1000 + Int64(index) * 5000
            let version = hour >= 24 && number % 3 == 0 ? "5.0.0" : "4.11.0"
            let plan = number % 2 == 0 ? "pro-monthly" : "pro-yearly"
            let fails = bad && version == "5.0.0" && plan == "pro-monthly" && number % 144 == 0 || number % 100 == 1
            let platform = number % 4 < 2 ? "iOS" : "Android"
            return #"{"eventID":"e\#(number)","timestamp":"\#(RFC3339.format(millis: time))","productID":"pro","planID":"\#(plan)","#
                + #""actionType":"purchase","resultType":"\#(fails ? "failure" : "success")","appVersion":"\#(version)","platform":"\#(platform)"}"#
        }.joined(separator: "\n")
    }

    @Test(arguments: [(true, true), (false, true), (true, false)] as [(Bool, Bool)])
    func aBadReleaseIsPausedOnceAtTheHourItsVerdictTurns(bad: Bool, live: Bool) async throws {
        let apis = FakeStoreAPIs()
        await apis.setAppleVersion("5.0.0", .init(id: "pr500", state: "ACTIVE", day: 1))
        await apis.setPlayReleases([["name": "5.0.0", "versionCodes": ["500"], "status": "inProgress", "userFraction": 0.1]])
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("serve.sqlite"))
        let slack = SlackRecorder()
        try await FakeStoreAPIs.serve(apis) { base, transport in
            let actuator = RolloutActuator(
                controls: [try await RolloutActionTests.appStore(base, transport), try await RolloutActionTests.play(base, transport)],
                dryRun: !live, requiresConfirmation: false, store: store, logger: Logger(label: "test"))
            let notifier = RolloutNotifier(
                store: store, policy: .default, intervalSeconds: 3600, candidate: nil, baseline: nil, sender: slack, logger: Logger(label: "test"),
                nowMillis: { 0 }, actuator: actuator)
            var configuration = ServerConfiguration()
            configuration.latenessLimitMillis = 400 * 86_400_000  // the release is in November 2026, whenever the test runs
            // The client's connection waits while the test evaluates each hour, which a busy suite can make
            // last beyond the 30 s a real client may stay idle: that is the test's pause, not a client's.
            configuration.idleTimeoutSeconds = 3600
            // Each hour's events arrive by its end, as a live stream's do: none is late.
            let clock = SimulatedClock()
            let app = buildApplication(
                configuration: configuration, store: store, databasePath: nil, receivingClock: clock.millis, logger: Logger(label: "test"))
            try await testLive(app) { client in
                var state = RolloutNotificationState()
                var turned: Int?
                for hour in 0..<48 {
                    clock.set((Self.start + Int64(hour + 1) * 3600) * 1000 - 1)
                    let response = try await client.execute(
                        uri: "/v1/events", method: .post, headers: [.contentType: "application/x-ndjson"],
                        body: ByteBuffer(string: Self.events(hour: hour, bad: bad)))
                    #expect(response.status == .accepted, "hour \(hour): \(String(buffer: response.body))")
                    let report = await notifier.check(at: Self.start + Int64(hour + 1) * 3600, state: &state)
                    if report?.verdict == .rollback, turned == nil { turned = hour }
                    // Nothing is changed before the verdict turns; once it has, one pause and one halt.
                    let changed = live && turned != nil ? 1 : 0
                    #expect(await apis.count("PATCH", "pr500") == changed, "hour \(hour)")
                    #expect(await apis.count("POST", ":commit") == changed, "hour \(hour)")
                }
                #expect(
                    bad ? (turned ?? 0) > 24 : turned == nil, "the verdict turns after the first hour of 5.0.0: \(String(describing: turned))"
                )
                let reads = await apis.count("GET", "appStoreVersions") - (await apis.releaseListings)
                #expect(bad ? reads == 1 : reads == 0, "each store is asked once for the version, at the turn")
                #expect(await apis.releaseListings == 48, "the releases in progress are read at every check")
                let posted = slack.posted.joined(separator: "\n")
                if bad && live {
                    #expect(await apis.appleVersions["5.0.0"]??.state == "PAUSED")
                    #expect(await apis.playReleases.first?["status"] as? String == "halted")
                    #expect(posted.contains("*Done:* App Store: phased release of `5.0.0` paused"), "\(posted)")
                    #expect(posted.contains("Resume Phased Release once fixed"), "\(posted)")
                    #expect(
                        posted.contains(
                            "Its App Store phased release is paused and its Google Play staged rollout halted; resume with a fixed build"),
                        "\(posted)")
                    #expect(posted.contains("*Done:* Google Play: staged rollout of `5.0.0` halted"), "\(posted)")
                } else if bad {
                    #expect(await apis.appleVersions["5.0.0"]??.state == "ACTIVE", "a dry run changes nothing")
                    #expect(posted.contains("DRY RUN, App Store: `would PATCH /v1/appStoreVersionPhasedReleases/pr500"), "\(posted)")
                } else {
                    #expect(!posted.contains("Done:"), "\(posted)")
                }
                let kept = try await RolloutActionRepository(store.sql).actions(fromSeconds: 0)
                #expect(kept.count == (bad ? 2 : 0) && kept.allSatisfy { $0.isDryRun == !live })
            }
        }
    }

    /// 100 events an hour of a forged newer version, every purchase failing, sent with the same ingest key.
    static func forgedEvents(hour: Int) -> String {
        (0..<100).map { index in
            let time = (start + Int64(hour) * 3600) * 1000 + Int64(index) * 30_000
            return #"{"eventID":"f\#(hour)-\#(index)","timestamp":"\#(RFC3339.format(millis: time))","productID":"pro","planID":"pro-monthly","#
                + #""actionType":"purchase","resultType":"failure","appVersion":"6.0.0","platform":"iOS"}"#
        }.joined(separator: "\n")
    }

    /// Forged events can neither choose the candidate nor pause a release alone: the candidate is the version
    /// the stores have in release (not the forged 6.0.0, newer and failing), and live, the turn to rollback
    /// only reads the stores until a person confirms; the next check then pauses and halts, the records
    /// naming who confirmed.
    @Test func forgedEventsNeitherChooseTheCandidateNorPauseAlone() async throws {
        let apis = FakeStoreAPIs()
        await apis.setAppleVersion("5.0.0", .init(id: "pr500", state: "ACTIVE", day: 1))
        await apis.setPlayReleases([["name": "5.0.0 (500)", "versionCodes": ["500"], "status": "inProgress", "userFraction": 0.1]])
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("serve.sqlite"))
        let slack = SlackRecorder()
        try await FakeStoreAPIs.serve(apis) { base, transport in
            let actuator = RolloutActuator(
                controls: [try await RolloutActionTests.appStore(base, transport), try await RolloutActionTests.play(base, transport)], dryRun: false,
                store: store,
                logger: Logger(label: "test"))
            let notifier = RolloutNotifier(
                store: store, policy: .default, intervalSeconds: 3600, candidate: nil, baseline: nil, sender: slack, logger: Logger(label: "test"),
                nowMillis: { 0 }, actuator: actuator)
            var configuration = ServerConfiguration()
            configuration.latenessLimitMillis = 400 * 86_400_000
            configuration.idleTimeoutSeconds = 3600  // the test's pauses between requests (above)
            let app = buildApplication(configuration: configuration, store: store, databasePath: nil, logger: Logger(label: "test"))
            try await testLive(app) { client in
                var state = RolloutNotificationState()
                var candidates: Set<String> = []
                for hour in 0..<48 {
                    let body = Self.events(hour: hour, bad: true) + (hour >= 30 ? "\n" + Self.forgedEvents(hour: hour) : "")
                    let response = try await client.execute(
                        uri: "/v1/events", method: .post, headers: [.contentType: "application/x-ndjson"], body: ByteBuffer(string: body))
                    #expect(response.status == .accepted)
                    if let report = await notifier.check(at: Self.start + Int64(hour + 1) * 3600, state: &state) {
                        candidates.insert(report.candidate)
                    }
                }
                #expect(candidates == ["5.0.0"], "the stores' release is the candidate: \(candidates)")
                let (patches, commits) = (await apis.count("PATCH", "pr500"), await apis.count("POST", ":commit"))
                #expect(patches == 0 && commits == 0, "nothing changed without a person")
                let waiting = try await RolloutActionRepository(store.sql).actions(fromSeconds: 0)
                #expect(
                    waiting.map(\.outcome) == [.awaitingConfirmation, .awaitingConfirmation] && waiting.allSatisfy { $0.candidate == "5.0.0" }
                )
                let posted = slack.posted.joined(separator: "\n")
                #expect(posted.contains("AWAITING CONFIRMATION to pause the phased release of `5.0.0`"), "\(posted)")
                #expect(posted.contains("purchase-sli rollout confirm \(waiting[0].id)"), "\(posted)")
                for action in waiting {
                    _ = try await RolloutConfirmation(store: store).confirm(id: action.id, by: "Ana", atSeconds: Self.start + 48 * 3600)
                }
                _ = await notifier.check(at: Self.start + 49 * 3600, state: &state)
                let (patched, committed) = (await apis.count("PATCH", "pr500"), await apis.count("POST", ":commit"))
                #expect(patched == 1 && committed == 1)
                #expect(await apis.appleVersions["5.0.0"]??.state == "PAUSED")
                let done = try await RolloutActionRepository(store.sql).actions(fromSeconds: 0)
                #expect(
                    done.map(\.outcome) == [.paused, .paused] && done.allSatisfy { $0.detail.contains("confirmed by Ana at ") }, "\(done)")
            }
        }
    }

    /// The same bad release replayed at once, 47 hours of events sent an hour or more after their time (a
    /// backlog, or events written after the fact): even acting without confirmation, the bulk of late events
    /// waits for a person, and the record says how many were late.
    @Test func aBulkOfLateEventsWaitsForAPersonEvenWithoutConfirmation() async throws {
        let apis = FakeStoreAPIs()
        await apis.setAppleVersion("5.0.0", .init(id: "pr500", state: "ACTIVE", day: 1))
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("serve.sqlite"))
        try await FakeStoreAPIs.serve(apis) { base, transport in
            let actuator = RolloutActuator(
                controls: [try await RolloutActionTests.appStore(base, transport)], dryRun: false, requiresConfirmation: false, store: store,
                logger: Logger(label: "test"))
            let notifier = RolloutNotifier(
                store: store, policy: .default, intervalSeconds: 3600, candidate: nil, baseline: nil, sender: nil, logger: Logger(label: "test"),
                nowMillis: { 0 }, actuator: actuator)
            var configuration = ServerConfiguration()
            configuration.latenessLimitMillis = 400 * 86_400_000
            // The client posts from Swift's cooperative pool, which the full suite can keep busy past the
            // 30 s idle timeout between two of its requests: the pause is the test's, not a client's.
            configuration.idleTimeoutSeconds = 3600
            let clock = SimulatedClock()
            clock.set((Self.start + 48 * 3600) * 1000)
            let app = buildApplication(
                configuration: configuration, store: store, databasePath: nil, receivingClock: clock.millis, logger: Logger(label: "test"))
            try await testLive(app) { client in
                for hour in 0..<48 {
                    let response = try await client.execute(
                        uri: "/v1/events", method: .post, headers: [.contentType: "application/x-ndjson"],
                        body: ByteBuffer(string: Self.events(hour: hour, bad: true)))
                    #expect(response.status == .accepted)
                }
            }
            var state = RolloutNotificationState()
            let report = await notifier.check(at: Self.start + 48 * 3600, state: &state)
            #expect(report?.verdict == .rollback && report?.arrivals?.isBulk == true, "\(String(describing: report?.arrivals))")
            #expect(await apis.count("PATCH", "pr500") == 0, "a bulk of late events changes nothing alone")
            let kept = try await RolloutActionRepository(store.sql).actions(fromSeconds: 0)
            #expect(kept.map(\.outcome) == [.awaitingConfirmation], "\(kept)")
            #expect(kept.first?.detail.contains("events arrived an hour or more after their time (a bulk: never acted on without a person)") == true)
        }
    }
}

/// A receiving clock a test sets.
final class SimulatedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var now: Int64 = 0

    /// Sets the time, in milliseconds.
    func set(_ millis: Int64) { lock.withLock { now = millis } }

    /// The time, in milliseconds.
    var millis: @Sendable () -> Int64 { { [self] in lock.withLock { now } } }
}
