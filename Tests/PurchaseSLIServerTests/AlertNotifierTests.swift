import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIServer

/// 2026-11-14T10:00:00Z, the first minute of the fixture's traffic.
private let tenOClock: Int64 = 1_794_650_400

/// The minute `hour`:`minute` of the fixture's day, in seconds.
private func at(_ hour: Int64, _ minute: Int64) -> Int64 { tenOClock + (hour - 10) * 3600 + minute * 60 }

/// Purchases from 10:00 to 14:00, 20 a minute, half of which fail from 12:00 to 12:30. With the default
/// policy the 1 h / 5 min page rule fires from 12:18, last at 12:33, and keepFiringFor holds the alert to
/// 13:03.
private func outageStore(_ directory: TemporaryDirectory) async throws -> SQLiteBucketStore {
    let store = try SQLiteBucketStore(path: directory.file("outage.sqlite"))
    let events = (0..<240).flatMap { minute in
        (0..<20).map { index in
            let failing = (120..<150).contains(minute) && index % 2 == 0
            return PurchaseEvent(
                eventID: "e-\(minute)-\(index)", timestampMillis: (tenOClock + Int64(minute) * 60 + Int64(index)) * 1000,
                productID: "coins_100", actionType: .purchase, resultType: failing ? .failure : .success,
                errorDescription: failing ? "verification failed: 503" : nil)
        }
    }
    _ = try await store.record(events, receivedAtMillis: 0)
    return store
}

/// Records what it is sent, one line a report, and fails the sends it is told to.
private final class RecordingSender: AlertNotificationSender, @unchecked Sendable {
    let resendsFiring: Bool
    private let lock = NSLock()
    private var sends: [[String]] = []
    private var failuresLeft: Int

    init(resendsFiring: Bool, failing failures: Int = 0) {
        self.resendsFiring = resendsFiring
        failuresLeft = failures
    }

    /// The sends that succeeded.
    var delivered: [[String]] { lock.withLock { sends } }

    func send(_ reports: [AlertReport], evaluatedAt time: Int64) async throws {
        try lock.withLock {
            if failuresLeft > 0 {
                failuresLeft -= 1
                throw NotificationError.refused(URL(string: "http://receiver.test/hook")!, status: 503, answer: "busy")
            }
            sends.append(
                reports.map { report in
                    "\(report.finding.kind.rawValue) \(report.finding.severity) since \(RFC3339.format(seconds: report.startsAt))"
                        + (report.endsAt.map { " resolved \(RFC3339.format(seconds: $0))" } ?? "")
                })
        }
    }
}

/// Keeps the reports it is sent.
private final class ReportCollector: AlertNotificationSender, @unchecked Sendable {
    let resendsFiring = false
    private let lock = NSLock()
    private var received: [[AlertReport]] = []

    var sends: [[AlertReport]] { lock.withLock { received } }

    func send(_ reports: [AlertReport], evaluatedAt time: Int64) async throws {
        lock.withLock { received.append(reports) }
    }
}

@Suite struct AlertNotifierTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore
    let logs = InMemoryLogHandler()

    init() async throws {
        directory = try TemporaryDirectory()
        store = try await outageStore(directory)
    }

    /// Evaluates at each of `times` in turn, as the service would, and returns what `sender` received.
    private func notify(at times: [Int64], sender: RecordingSender) async -> [[String]] {
        let notifier = AlertNotifier(
            context: AlertContext(store: store, storedMaintenance: [], policy: .default), intervalSeconds: 60, sender: sender,
            logger: Logger(label: "test") { _ in logs },
            nowMillis: {
                Issue.record("the clock was read")
                return 0
            })
        var state = notifier.initialState
        for time in times { await notifier.notify(at: time, state: &state) }
        return sender.delivered
    }

    @Test func anOutageThatStartsAndEndsIsSentOnceFiringAndOnceResolved() async {
        let sends = await notify(
            at: [at(11, 0), at(12, 20), at(12, 25), at(13, 30), at(13, 40)],
            sender: RecordingSender(resendsFiring: false))
        #expect(
            sends == [
                ["PurchaseSuccessRateBurn page since 2026-11-14T12:02:00Z"],
                ["PurchaseSuccessRateBurn page since 2026-11-14T12:02:00Z resolved 2026-11-14T13:30:00Z"],
            ])
    }

    /// The notifier lives as long as `serve`: a window declared while it runs (`maintenance add`, `POST
    /// /v1/maintenance`) counts from its next round, not from the next restart.
    @Test func aWindowDeclaredWhileItRunsSilencesTheNextRound() async throws {
        let sender = RecordingSender(resendsFiring: true)
        let notifier = AlertNotifier(
            context: AlertContext(store: store, storedMaintenance: [], policy: .default), intervalSeconds: 60, sender: sender,
            logger: Logger(label: "test") { _ in logs }, nowMillis: { 0 })
        var state = notifier.initialState
        await notifier.notify(at: at(12, 20), state: &state)
        try await MaintenanceWindowRepository(store.sql).record(
            MaintenanceWindow(id: "mw-1", startSeconds: at(11, 30), endSeconds: at(13, 30), reason: "grant server migration"))
        await notifier.notify(at: at(12, 25), state: &state)
        #expect(sender.delivered.first == ["PurchaseSuccessRateBurn page since 2026-11-14T12:02:00Z"])
        #expect(sender.delivered.last?.allSatisfy { !$0.contains("page since") || $0.contains("resolved") } == true, "\(sender.delivered)")
    }

    @Test func alertmanagerGetsTheFiringAlertAtEveryEvaluationAndTheResolutionOnce() async {
        let sends = await notify(at: [at(12, 20), at(12, 25), at(13, 30), at(13, 40)], sender: RecordingSender(resendsFiring: true))
        #expect(
            sends == [
                ["PurchaseSuccessRateBurn page since 2026-11-14T12:02:00Z"],
                ["PurchaseSuccessRateBurn page since 2026-11-14T12:02:00Z"],
                ["PurchaseSuccessRateBurn page since 2026-11-14T12:02:00Z resolved 2026-11-14T13:30:00Z"],
            ])
    }

    @Test func aFailedSendIsLoggedWithItsURLAndStatusAndRetriedAtTheNextEvaluation() async {
        let sends = await notify(at: [at(12, 20), at(12, 25), at(12, 30)], sender: RecordingSender(resendsFiring: false, failing: 1))
        #expect(sends == [["PurchaseSuccessRateBurn page since 2026-11-14T12:02:00Z"]])
        let warnings = logs.entries.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.metadata["url"] == "http://receiver.test/…" && warnings.first?.metadata["status"] == "503")
        #expect(logs.entries.contains { $0.level == .info && $0.message == "alert notifications sent" })
    }
}

extension AlertNotifierTests {
    /// `serve --alert-app`: a notifier per app sends that app's alerts alone, each report naming the app.
    @Test func aNotifierOfOneAppSendsItsAlertsAlone() async throws {
        let shared = try SQLiteBucketStore(path: directory.file("apps.sqlite"))
        // The outage's events as the premium app's, and the same traffic without failures as the coins app's.
        let events = (0..<240).flatMap { minute in
            (0..<20).flatMap { index in
                let failing = (120..<150).contains(minute) && index % 2 == 0
                let apps: [(app: String, fails: Bool)] = [("com.example.premium", failing), ("com.example.coins", false)]
                return apps.map { app, fails in
                    PurchaseEvent(
                        eventID: "\(app)-\(minute)-\(index)", timestampMillis: (tenOClock + Int64(minute) * 60 + Int64(index)) * 1000,
                        productID: "coins_100", actionType: .purchase, resultType: fails ? .failure : .success, app: app)
                }
            }
        }
        _ = try await shared.record(events, receivedAtMillis: 0)
        var sent: [String: [[AlertReport]]] = [:]
        for app in ["com.example.premium", "com.example.coins"] {
            let sender = ReportCollector()
            let notifier = AlertNotifier(
                context: AlertContext(store: shared, storedMaintenance: [], policy: .default, app: app), intervalSeconds: 60, sender: sender,
                logger: Logger(label: "test") { _ in logs }, nowMillis: { 0 })
            var state = notifier.initialState
            for time in [at(11, 0), at(12, 20), at(13, 40)] { await notifier.notify(at: time, state: &state) }
            sent[app] = sender.sends
        }
        #expect(sent["com.example.coins"]?.isEmpty == true)
        let premium = try #require(sent["com.example.premium"])
        #expect(premium.count == 2 && premium.allSatisfy { $0.count == 1 && $0[0].app == "com.example.premium" })
        #expect(AlertOutput.alertmanagerJSON(premium[0], now: at(12, 20)).contains(#""app":"com.example.premium""#))
    }

    /// (The limit only stops a hang; a machine busy with the rest of the suite can take a while.)
    @Test(.timeLimit(.minutes(10))) func theNotifierRunsAsAServiceOfTheAppAndStopsWithIt() async throws {
        let app = makeApp(store: store) { $0.notifyURL = URL(string: "http://127.0.0.1:1/hook") }
        try await app.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
    }
}
