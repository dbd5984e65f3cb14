import Foundation
import InMemoryLogging
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIServer

/// 2026-11-14T00:00:00Z.
private let start: Int64 = 1_794_614_400

/// Three days of purchases every 14.4 s: 4.11.0 throughout, 5.0.0 on every third from the second day,
/// whose pro-monthly purchases fail one time in six; elsewhere one purchase in a hundred fails.
private func releaseStore(_ directory: TemporaryDirectory) async throws -> SQLiteBucketStore {
    let store = try SQLiteBucketStore(path: directory.file("release.sqlite"))
    let events = (0..<18_000).map { index in
        let time = start * 1000 + Int64(index) * 14_400
        let version = time >= (start + 86_400) * 1000 && index % 3 == 0 ? "5.0.0" : "4.11.0"
        let plan = index % 2 == 0 ? "pro-monthly" : "pro-yearly"
        let fails = version == "5.0.0" && plan == "pro-monthly" && index % 36 == 0 || index % 100 == 1
        return PurchaseEvent(
            eventID: "e\(index)", timestampMillis: time, productID: "pro", planID: plan, actionType: .purchase,
            resultType: fails ? .failure : .success, appVersion: version, platform: "iOS", variant: "storekit2",
            errorDescription: fails ? "receipt rejected" : nil)
    }
    _ = try await store.record(events, receivedAtMillis: 0)
    return store
}

/// Records the verdicts it is sent, and fails the sends it is told to.
private final class RecordingRolloutSender: RolloutNotificationSender, @unchecked Sendable {
    private let lock = NSLock()
    private var sends: [String] = []
    private var failuresLeft: Int

    init(failing failures: Int = 0) { failuresLeft = failures }

    var delivered: [String] { lock.withLock { sends } }

    func send(_ report: RolloutReport, previous: RolloutReport.Verdict?) async throws {
        try lock.withLock {
            if failuresLeft > 0 {
                failuresLeft -= 1
                throw NotificationError.refused(URL(string: "http://receiver.test/hook")!, status: 503, answer: "busy")
            }
            sends.append("\(report.candidate) \(previous?.rawValue ?? "none") -> \(report.verdict.rawValue)")
        }
    }
}

@Suite struct RolloutNotifierTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore

    init() async throws {
        directory = try TemporaryDirectory()
        store = try await releaseStore(directory)
    }

    private func notifier(_ sender: RecordingRolloutSender?, logs: InMemoryLogHandler) -> RolloutNotifier {
        RolloutNotifier(
            store: store, policy: .default, intervalSeconds: 3600, candidate: nil, baseline: nil, sender: sender,
            logger: Logger(label: "test") { _ in logs }, nowMillis: { 0 })
    }

    /// Checked every hour of the second and third day, the newest version's verdict is posted when it
    /// changes, once each: waiting, then rolled back; a check that says the same posts nothing.
    @Test func postsEachChangeOfTheVerdictOnce() async throws {
        let sender = RecordingRolloutSender()
        let notifier = notifier(sender, logs: InMemoryLogHandler())
        var state = RolloutNotificationState()
        var verdicts: [RolloutReport.Verdict] = []
        for time in stride(from: start + 86_400 + 3600, through: start + 3 * 86_400, by: 3600) {
            if let report = await notifier.check(at: time, state: &state) { verdicts.append(report.verdict) }
        }
        #expect(verdicts.first == .insufficientData && verdicts.last == .rollback, "\(verdicts)")
        #expect(sender.delivered == ["5.0.0 none -> insufficient-data", "5.0.0 insufficient-data -> rollback"])
    }

    /// A send that fails is logged, recorded as the `rollout` receiver's failure, and tried again at the
    /// next check; nothing is lost or sent twice.
    @Test func aFailedSendIsRetriedAtTheNextCheck() async throws {
        let sender = RecordingRolloutSender(failing: 1)
        let logs = InMemoryLogHandler()
        let deliveries = NotificationDeliveries()
        let notifier = RolloutNotifier(
            store: store, policy: .default, intervalSeconds: 3600, candidate: nil, baseline: nil, sender: sender,
            logger: Logger(label: "test") { _ in logs }, nowMillis: { 0 }, deliveries: deliveries, receiverHost: "hooks.slack.test")
        var state = RolloutNotificationState()
        let late = start + 3 * 86_400
        await notifier.check(at: late, state: &state)
        #expect(sender.delivered.isEmpty)
        #expect(logs.entries.contains { $0.level == .warning && $0.message.description.contains("not delivered") })
        #expect(
            deliveries.receivers.map { "\($0.name) \($0.host) \($0.failures) \($0.failingSinceSeconds == late)" } == [
                "rollout hooks.slack.test 1 true"
            ])
        await notifier.check(at: late, state: &state)
        await notifier.check(at: late, state: &state)
        #expect(sender.delivered == ["5.0.0 none -> rollback"])
        #expect(deliveries.receivers.first?.failingSinceSeconds == nil && deliveries.receivers.first?.lastSuccessSeconds == late)
    }

    /// Without a receiver each change is logged with the versions, the verdict and the step.
    @Test func withoutAReceiverTheVerdictIsLogged() async throws {
        let logs = InMemoryLogHandler()
        var state = RolloutNotificationState()
        await notifier(nil, logs: logs).check(at: start + 3 * 86_400, state: &state)
        let entry = try #require(logs.entries.first { $0.message.description == "rollout verdict" })
        #expect(entry.metadata["candidate"] == "5.0.0" && entry.metadata["baseline"] == "4.11.0" && entry.metadata["verdict"] == "rollback")
    }
}

/// A store control that records what it was asked and pauses.
private final class PausingControl: StoreReleaseControl, @unchecked Sendable {
    let store = Store.apple
    private let lock = NSLock()
    private var versions: [String] = []
    var asked: [String] { lock.withLock { versions } }

    func releasesInProgress() async throws(StoreReleaseReadError) -> [StoreRelease] {
        throw StoreReleaseReadError("the stand-in lists no releases")
    }

    func pause(version: String, dryRun: Bool) async -> (outcome: RolloutAction.Outcome, status: Int, detail: String) {
        lock.withLock { versions.append(version) }
        return (dryRun ? .wouldPause : .paused, 200, "phased release of \(version) paused")
    }
}

extension RolloutNotifierTests {
    /// The verdict that turns to rollback pauses the release once, logs it for the audit, counts it in
    /// /metrics, and is posted with what was done; the checks after it act no more.
    @Test func aRollbackPausesOnceAndIsAuditedCountedAndPosted() async throws {
        let control = PausingControl()
        let logs = InMemoryLogHandler()
        let metrics = ServerMetrics(store: nil)
        let sender = RecordingRolloutSender()
        let logger = Logger(label: "test") { _ in logs }
        let actuator = RolloutActuator(
            controls: [control], dryRun: false, requiresConfirmation: false, store: store, logger: logger,
            record: { metrics.record(rolloutAction: $0) })
        let notifier = RolloutNotifier(
            store: store, policy: .default, intervalSeconds: 3600, candidate: nil, baseline: nil, sender: sender, logger: logger,
            nowMillis: { 0 }, actuator: actuator)
        var state = RolloutNotificationState()
        for time in stride(from: start + 86_400 + 3600, through: start + 3 * 86_400, by: 3600) {
            await notifier.check(at: time, state: &state)
        }
        #expect(control.asked == ["5.0.0"])
        let audit = try #require(logs.entries.first { $0.message.description == "rollout action" })
        #expect(audit.level == .notice && audit.metadata["outcome"] == "paused" && audit.metadata["mode"] == "live")
        let exposition = await String(decoding: metrics.exposition(), as: UTF8.self)
        let line = exposition.split(separator: "\n").first { $0.hasPrefix("purchase_sli_rollout_actions_total{") } ?? ""
        #expect(
            [#"store="apple""#, #"mode="live""#, #"outcome="paused""#].allSatisfy(line.contains) && line.hasSuffix(" 1"), "\(exposition)")
        #expect(sender.delivered == ["5.0.0 none -> insufficient-data", "5.0.0 insufficient-data -> rollback"])
        #expect(try await RolloutActionRepository(store.sql).actions(fromSeconds: 0).map(\.outcome) == [.paused])
    }
}

@Suite struct RolloutNotificationStateTests {
    /// A report of `verdict` for `candidate` at `step`.
    private func report(_ candidate: String, _ verdict: RolloutReport.Verdict, step: Int? = 5) -> RolloutReport {
        RolloutReport(
            candidate: candidate, baseline: "4.11.0", fromSeconds: 0, toSeconds: 3600, verdict: verdict, reasons: [], comparisons: [],
            progress: RolloutReport.Progress(step: step, nextStep: nil, share: nil, day: 1, startSeconds: 0, earlierRelease: nil, confidence: 0.9))
    }

    @Test(
        arguments: [
            // (verdicts in turn, which are changes)
            ([RolloutReport.Verdict.insufficientData, .insufficientData, .proceed, .proceed], [true, false, true, false]),
            ([.proceed, .rollback, .rollback, .proceed], [true, true, false, true]),
            ([.stale, .stale, .insufficientData], [false, false, true]),
            ([.rollback, .stale, .rollback, .stale, .proceed], [true, false, false, false, true]),
        ] as [([RolloutReport.Verdict], [Bool])])
    func eachChangeOnce(verdicts: [RolloutReport.Verdict], changes: [Bool]) {
        var state = RolloutNotificationState()
        let seen = verdicts.map { verdict -> Bool in
            let change = state.change(report("5.0.0", verdict)).isChange
            if change { state.deliveredChange() }
            return change
        }
        #expect(seen == changes)
    }

    /// A proceed that clears a further step is news; a new candidate starts its own history.
    @Test func aNewStepOrCandidateIsAChange() {
        var state = RolloutNotificationState()
        _ = state.change(report("5.0.0", .proceed, step: 5))
        state.deliveredChange()
        let next = state.change(report("5.0.0", .proceed, step: 10))
        #expect(next.isChange && next.previous == .proceed)
        state.deliveredChange()
        let other = state.change(report("5.1.0", .insufficientData))
        #expect(other.isChange && other.previous == nil)
    }
}
