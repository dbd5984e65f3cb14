import Foundation
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIOutbound
import PurchaseSLIRendering
import PurchaseSLIServer
import PurchaseSLISimulation
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// The store-side incidents of the simulator at 10 attempts a minute, with the App Store's notification of every charge, backtested
/// with the default policy as `alerts` does.
@Suite(.serialized) struct ChargeDetectionTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private let start = RFC3339.parseMillis("2026-11-09T00:00:00Z")! / 1000

    /// The alerts of the ledger: charges not granted, transactions granted again, grants without a charge,
    /// charges granted late.
    private static let ledgerKinds: Set<AlertFinding.Kind> = [.chargedNotGranted, .doubleGrant, .grantedWithoutCharge, .timeToGrantBurn]

    /// The episodes of the ledger's alerts over a 2-day run of `scenario` (events and notifications), the
    /// incident's onset, the text of the first episode's kind ten minutes into it (and whether it is what
    /// `alerts --at` reports then, since when the backtest says), and the store.
    private func backtest(
        _ scenario: Scenario
    ) async throws -> (episodes: [AlertEpisode], onset: Int64, text: String, agreesLive: Bool, store: SQLiteBucketStore) {
        let store = try SQLiteBucketStore(path: directory.file("\(scenario.rawValue).sqlite"))
        let run = SimulationParameters(scenario: scenario, startMillis: start * 1000, days: 2, seed: 3, attemptsPerMinute: 10)
        let simulator = TrafficSimulator(run)
        var batch: [PurchaseEvent] = []
        for event in simulator {
            batch.append(event)
            if batch.count == 20_000 {
                _ = try await store.record(batch, receivedAtMillis: 0)
                batch.removeAll(keepingCapacity: true)
            }
        }
        _ = try await store.record(batch, receivedAtMillis: 0)
        let notifications = SimulatedNotification.notifications(of: simulator.storeCharges, bundleID: SimulateCommand.bundleID)
        // Each notification is received by the end of the minute the App Store signed it in.
        for minute in Dictionary(grouping: notifications, by: { $0.signedMillis / 60_000 }).sorted(by: { $0.key < $1.key }) {
            _ = try await store.record(minute.value, receivedAtMillis: (minute.key + 1) * 60_000)
        }
        let context = AlertContext(store: store, storedMaintenance: [], policy: .default)
        let end = start + 2 * 86_400
        let inputs = try await context.inputs(from: start - AlertEvaluator(policy: .default).firingHistorySeconds, to: end)
        let episodes = AlertEvaluator(policy: .default).episodes(from: start, to: end, stepSeconds: 60, inputs: inputs)
            .filter { Self.ledgerKinds.contains($0.first.kind) }
        let time = (episodes.first?.startsAt ?? 0) + 600
        var reports: [AlertReport] = []
        if let first = episodes.first { reports = try await context.firingReports(at: time).filter { $0.finding.kind == first.first.kind } }
        let backtestFiring = Dictionary(
            uniqueKeysWithValues: episodes.filter { $0.first.kind == episodes.first?.first.kind && $0.startsAt <= time && ($0.endsAt ?? .max) > time }
                .map { ($0.first.identity, $0.startsAt) })
        let live = Dictionary(uniqueKeysWithValues: reports.map { ($0.finding.identity, $0.startsAt) })
        return (
            episodes, (IncidentSchedule(run).window?.lowerBound ?? start * 1000) / 1000, AlertOutput.text(reports, now: time),
            live == backtestFiring, store
        )
    }

    @Test("steady traffic, every charge granted once within its grace time, raises no alert of the ledger")
    func steadyRaisesNone() async throws {
        let run = try await onDedicatedThread { try await self.backtest(.steady) }
        #expect(run.episodes.isEmpty, "\(run.episodes.map { "\($0.first.labels.pairs) \(RFC3339.format(seconds: $0.startsAt))" })")
    }

    @Test("the payment detour: coins_500 charged after the app reported cancel, detected within 20 minutes, the cancel named")
    func paymentDetourDetected() async throws {
        let run = try await onDedicatedThread { try await self.backtest(.paymentDetour) }
        let first = try #require(run.episodes.first)
        #expect(first.startsAt > run.onset && first.startsAt <= run.onset + 20 * 60, "after \((first.startsAt - run.onset) / 60) min")
        #expect(run.episodes.allSatisfy { $0.first.labels.slice?.value == "coins_500" && $0.first.labels.store == "apple" })
        #expect(run.text.contains("the app reported cancel"), "\(run.text)")
        #expect(run.text.contains("payment-detour pattern"), "\(run.text)")
        #expect(run.text.contains("USD"), "\(run.text)")
        #expect(run.agreesLive)

        // serve --notify's notifier posts it to Slack ten minutes in, since the episode's start.
        try await withReceiver { port, received in
            try await HTTPClientTransport.withTransport { transport in
                let notifier = AlertNotifier(
                    context: AlertContext(store: run.store, storedMaintenance: [], policy: .default), intervalSeconds: 60,
                    sender: WebhookSender(url: URL(string: "http://127.0.0.1:\(port)/slack")!, format: .slack, transport: transport),
                    logger: Logger(label: "test"), nowMillis: { 0 })
                var state = notifier.initialState
                await notifier.notify(at: first.startsAt + 600, state: &state)
                let body = await received.posts.first?.body ?? ""
                #expect(body.contains("App Store charges") && body.contains("not granted within 15 min"), "\(body)")
                #expect(body.contains("payment-detour pattern"), "\(body)")
                #expect(body.contains("purchase-sli charges"), "\(body)")
            }
        }
    }

    @Test("the app crash: charges with nothing after the start, detected within 20 minutes and paging")
    func appCrashDetected() async throws {
        let run = try await onDedicatedThread { try await self.backtest(.appCrash) }
        let first = try #require(run.episodes.first)
        #expect(first.startsAt > run.onset && first.startsAt <= run.onset + 20 * 60, "after \((first.startsAt - run.onset) / 60) min")
        #expect(run.episodes.contains { $0.severity == .page })
        #expect(run.text.contains("the app reported start") && run.text.contains("nothing since"), "\(run.text)")
    }

    @Test("the double-grant bug: purchases granted again by their retry, detected within 20 minutes and paging, nothing else")
    func doubleGrantDetected() async throws {
        let run = try await onDedicatedThread { try await self.backtest(.doubleGrant) }
        let first = try #require(run.episodes.first)
        #expect(first.startsAt > run.onset && first.startsAt <= run.onset + 20 * 60, "after \((first.startsAt - run.onset) / 60) min")
        #expect(run.episodes.allSatisfy { $0.first.kind == .doubleGrant }, "\(run.episodes.map(\.first.kind))")
        #expect(run.episodes.contains { $0.severity == .page })
        #expect(run.text.contains("granted again") && run.text.contains("409 already granted"), "\(run.text)")
        #expect(run.text.contains("and again") && run.text.contains("(retry,"), "\(run.text)")
        #expect(run.text.contains("given away") && run.text.contains("USD"), "\(run.text)")
        #expect(run.text.contains("purchase-sli grants") && run.text.contains("--double"), "\(run.text)")
        #expect(run.agreesLive)
    }

    @Test("replayed receipts: coins_1200 grants no App Store charge names, detected after the wait, nothing else")
    func replayedReceiptDetected() async throws {
        let run = try await onDedicatedThread { try await self.backtest(.replayedReceipt) }
        let first = try #require(run.episodes.first)
        let wait = SLOPolicy.default.reconciliation.chargeWaitSeconds
        #expect(
            first.startsAt > run.onset + wait && first.startsAt <= run.onset + wait + 20 * 60, "after \((first.startsAt - run.onset) / 60) min")
        #expect(
            run.episodes.allSatisfy { $0.first.kind == .grantedWithoutCharge && $0.first.labels.slice?.value == "coins_1200" },
            "\(run.episodes.map { "\($0.first.kind) \($0.first.labels.pairs)" })")
        #expect(run.text.contains("no App Store charge names it") && run.text.contains("replayed or forged receipt"), "\(run.text)")
        #expect(run.text.contains("--uncharged"), "\(run.text)")
        #expect(run.agreesLive)
    }

    @Test(
        "a slow grant queue: purchases granted minutes after the charge page on time to grant within 20 minutes, before any charge counts as not granted"
    )
    func slowGrantQueueDetected() async throws {
        let run = try await onDedicatedThread { try await self.backtest(.slowGrantQueue) }
        let first = try #require(run.episodes.first)
        #expect(first.startsAt > run.onset && first.startsAt <= run.onset + 20 * 60, "after \((first.startsAt - run.onset) / 60) min")
        #expect(
            run.episodes.allSatisfy { $0.first.kind == .timeToGrantBurn && $0.first.labels.store == "apple" },
            "\(run.episodes.map { "\($0.first.kind) \($0.first.labels.pairs)" })")
        #expect(first.severity == .page && first.first.labels.slice == nil, "\(first.first.labels.pairs) \(first.severity)")
        #expect(run.text.contains("purchase, store=apple: charges granted within 1 min"), "\(run.text)")
        #expect(run.text.contains("were not granted within 1 min"), "\(run.text)")
        #expect(run.text.contains("purchase-sli charges") && run.text.contains("--slow"), "\(run.text)")
        #expect(run.agreesLive)
        // The queue drained: the page ends within an hour of the incident's end.
        let end = try #require(IncidentSchedule(SimulationParameters(scenario: .slowGrantQueue, startMillis: start * 1000, days: 2)).window)
        #expect((first.endsAt ?? .max) <= end.upperBound / 1000 + 3600, "ended \(first.endsAt.map { RFC3339.format(seconds: $0) } ?? "never")")
    }
}
