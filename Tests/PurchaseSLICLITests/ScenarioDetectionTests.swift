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

/// The simulator's incidents, ingested and backtested with the default policy, the way `alerts` does.
@Suite struct ScenarioDetectionTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private let start = RFC3339.parseMillis("2026-11-09T00:00:00Z")! / 1000

    /// Ingests `historyDays` of steady traffic (another seed) ending at `start`, then `scenario` for `days`
    /// from `start`, and backtests every minute of the scenario's run. Returns the episodes and when the
    /// scenario's incident starts (`start` for steady traffic).
    private func backtest(
        _ scenario: Scenario, days: Int, rate: Double, seed: UInt64 = 3, historyDays: Int = 0
    ) async throws -> Backtest {
        let store = try SQLiteBucketStore(path: directory.file("\(scenario.rawValue).sqlite"))
        let history = SimulationParameters(
            scenario: .steady, startMillis: (start - Int64(historyDays) * 86_400) * 1000, days: historyDays,
            seed: seed + 1, attemptsPerMinute: rate)
        let run = SimulationParameters(
            scenario: scenario, startMillis: start * 1000, days: days, seed: seed, attemptsPerMinute: rate)
        var batch: [PurchaseEvent] = []
        for event in [history, run].lazy.flatMap({ TrafficSimulator($0) }) {
            batch.append(event)
            if batch.count == 20_000 {
                _ = try await store.record(batch, receivedAtMillis: 0)
                batch.removeAll(keepingCapacity: true)
            }
        }
        _ = try await store.record(batch, receivedAtMillis: 0)
        let context = AlertContext(store: store, storedMaintenance: [], policy: .default)
        let end = start + Int64(days) * 86_400
        let inputs = try await context.inputs(from: start - AlertEvaluator(policy: .default).firingHistorySeconds, to: end)
        let episodes = AlertEvaluator(policy: .default).episodes(from: start, to: end, stepSeconds: 60, inputs: inputs)
        return Backtest(
            episodes: episodes, onset: (IncidentSchedule(run).window?.lowerBound ?? start * 1000) / 1000, end: end,
            context: context, inputs: inputs)
    }

    /// Each incident, after 3 days of steady traffic (a collector that has been running: spikes compare
    /// with the previous 3 days, and the 3-day burn rule needs them), raises its intended alert in time,
    /// nothing before it starts, no alert of another kind or about what the incident does not touch, and
    /// no page where a ticket is what a person needs.
    /// And live evaluation fires exactly what the backtest shows (``liveMismatches(_:)``). The minutes of
    /// simulation and evaluation run on a thread of their own, off the cooperative pool.
    @Test(arguments: IncidentCase.all)
    func anIncidentRaisesItsIntendedAlertInTimeAndNoOther(_ incident: IncidentCase) async throws {
        let run = try await onDedicatedThread { try await self.backtest(incident.scenario, days: incident.days, rate: 30, historyDays: 3) }
        let (episodes, onset) = (run.episodes, run.onset)
        let described = episodes.map { episode in
            "\(episode.first.severity) \(episode.first.kind.rawValue) \(episode.first.labels.pairs) after \((episode.startsAt - onset) / 60) min"
        }
        for intended in incident.intended {
            guard let first = episodes.first(where: { intended.matches($0.first) }) else {
                Issue.record("no \(intended); alerts: \(described)")
                continue
            }
            let delay = (first.startsAt - onset) / 60
            #expect(delay > 0 && delay <= intended.withinMinutes, "\(intended) after \(delay) min")
        }
        #expect(!episodes.contains { $0.startsAt < onset }, "alerts before the incident: \(described)")
        #expect(episodes.allSatisfy { incident.isRelated($0.first) }, "unrelated alerts: \(described)")
        #expect(incident.mayPage || !episodes.contains { $0.first.severity == .page }, "pages: \(described)")
        let (checked, mismatches) = try await onDedicatedThread { try await self.liveMismatches(run) }
        #expect(checked > 0)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(5))")
    }

    /// At 10 attempts a minute (seed 3) and at 30 (seed 2: restores, failing 0.8 % against a 1 % budget,
    /// ticketed three times that week when a 3-day rate a hair over the objective was evidence enough).
    @Test(arguments: [(10.0, 3), (30.0, 2)] as [(Double, UInt64)])
    func steadyTrafficGivesNoPageAndNoTicketOverSevenDays(rate: Double, seed: UInt64) async throws {
        let (run, liveFiring) = try await onDedicatedThread {
            let run = try await self.backtest(.steady, days: 7, rate: rate, seed: seed)
            // Live evaluation agrees, once a day.
            let live = try await stride(from: self.start + 3600, to: run.end, by: 86_400).asyncFilter {
                !(try await run.context.firingReports(at: $0).isEmpty)
            }
            return (run, live)
        }
        #expect(
            run.episodes.isEmpty, "\(run.episodes.map { "\($0.first.severity) \($0.first.labels.pairs) \(RFC3339.format(seconds: $0.startsAt))" })")
        #expect(liveFiring.isEmpty, "live alerts at \(liveFiring.map { RFC3339.format(seconds: $0) })")
    }

    /// A feed that stops for good: `alerts --at` pages NoPurchaseEvents two days and five hours on (past
    /// the day after which the day-earlier window is silent too, when it used to resolve by itself),
    /// since 30 minutes after its last event, as the backtest over those days shows it (one episode that
    /// never resolves), and says how long the silence has lasted.
    @Test func aDeadFeedKeepsPagingDaysLater() async throws {
        let (run, reports, backtest) = try await onDedicatedThread {
            let run = try await self.backtest(.steady, days: 1, rate: 30, historyDays: 3)
            let later = run.end + 2 * 86_400 + 5 * 3600
            return (
                run, try await run.context.firingReports(at: later),
                try await run.context.episodeReports(from: run.end - 3600, to: later + 60, stepSeconds: 60)
            )
        }
        let later = run.end + 2 * 86_400 + 5 * 3600
        let purchase = try #require(reports.first { $0.finding.kind == .noEvents && $0.finding.labels.actionType == "purchase" })
        #expect(purchase.finding.severity == .page)
        // The last terminal events come a few seconds after the run's end; the silence shows 30 minutes later.
        #expect((run.end + 30 * 60...run.end + 35 * 60).contains(purchase.startsAt), "\(RFC3339.format(seconds: purchase.startsAt))")
        #expect(AlertOutput.text(reports, now: later).contains("no purchase events at all for 2 d 4 h"), "\(AlertOutput.text(reports, now: later))")
        let silences = backtest.filter { $0.finding.kind == .noEvents && $0.finding.labels.actionType == "purchase" }
        #expect(silences.count == 1 && silences.first?.startsAt == purchase.startsAt && silences.first?.endsAt == nil)
        #expect(Set(reports.map(\.finding.identity)) == Set(backtest.filter { $0.endsAt == nil }.map(\.finding.identity)))
    }

    /// `serve --notify` (its alert notifier) posts a cancel spike and unfinished purchases to a live
    /// receiver ten minutes into the backtest's episode of each.
    @Test(arguments: [(Scenario.cancelSpike, AlertFinding.Kind.cancelRateSpike), (.renewalBatch, .unfinishedPurchases)])
    func serveSendsTheSpikeAlertsToALiveReceiver(_ scenario: Scenario, _ kind: AlertFinding.Kind) async throws {
        let run = try await onDedicatedThread { try await self.backtest(scenario, days: 2, rate: 30, historyDays: 3) }
        let episode = try #require(run.episodes.first { $0.first.kind == kind })
        try await withReceiver { port, received in
            try await HTTPClientTransport.withTransport { transport in
                let notifier = AlertNotifier(
                    context: AlertContext(store: run.context.store, storedMaintenance: [], policy: .default), intervalSeconds: 60,
                    sender: WebhookSender(url: URL(string: "http://127.0.0.1:\(port)/api/v2/alerts")!, format: .alertmanager, transport: transport),
                    logger: Logger(label: "test"), nowMillis: { 0 })
                var state = notifier.initialState
                await notifier.notify(at: episode.startsAt + 600, state: &state)
                let posts = await received.posts
                let alerts = (try? JSONSerialization.jsonObject(with: Data((posts.first?.body ?? "").utf8))) as? [[String: Any]] ?? []
                let names = alerts.compactMap { ($0["labels"] as? [String: String])?["alertname"] }
                #expect(names.contains(kind.rawValue), "posted: \(posts.map(\.body))")
                #expect(
                    alerts.first { ($0["labels"] as? [String: String])?["alertname"] == kind.rawValue }?["startsAt"] as? String
                        == RFC3339.format(seconds: episode.startsAt))
            }
        }
    }

    /// What `alerts --at T` and `serve --notify` report at T is what the backtest shows firing at T, for
    /// every scenario and every alert kind: minute by minute over the 10 minutes around the start and the
    /// end of each episode and every 30 minutes within it, by the evaluator given only the minutes a live
    /// evaluation reads; and through the store (`firingReports`, as `alerts --at` runs it, since when
    /// included) at the first minute of each episode, 10 minutes in, and for episodes of up to 6 hours at
    /// their last minute and an hour after it.
    /// Returns how many minutes were checked and what disagreed. Blocks for minutes: call it on a thread
    /// of its own.
    private func liveMismatches(_ run: Backtest) async throws -> (checked: Int, mismatches: [String]) {
        let evaluator = AlertEvaluator(policy: .default)
        let history = AlertEvaluator(policy: .default).firingHistorySeconds
        var checked = 0
        var mismatches: [String] = []
        for episode in run.episodes {
            let last = (episode.endsAt ?? run.end) - 60
            var minutes = Set<Int64>(stride(from: episode.startsAt - 5 * 60, through: episode.startsAt + 5 * 60, by: 60))
            minutes.formUnion(stride(from: last - 5 * 60, through: min(last + 6 * 60, run.end - 60), by: 60))
            minutes.formUnion(stride(from: episode.startsAt, through: last, by: 1800))
            for time in minutes.sorted() where time >= start {
                let live = Set(evaluator.findings(at: time, inputs: run.inputs.restricted(from: time - history, to: time)).map(\.identity))
                if live != run.firing(at: time) {
                    mismatches.append("\(RFC3339.format(seconds: time)): live \(live), backtest \(run.firing(at: time))")
                }
                checked += 1
            }
            var storeMinutes: Set<Int64> = [episode.startsAt, min(last, episode.startsAt + 600)]
            if last - episode.startsAt <= 6 * 3600 { storeMinutes.formUnion([last, last + 3600]) }
            for time in storeMinutes.sorted() where time < run.end {
                let reports = try await run.context.firingReports(at: time)
                let live = Dictionary(uniqueKeysWithValues: reports.map { ($0.finding.identity, $0.startsAt) })
                let backtest = Dictionary(
                    uniqueKeysWithValues: run.episodes.filter { $0.startsAt <= time && ($0.endsAt ?? .max) > time }
                        .map { ($0.first.identity, $0.startsAt) })
                if live != backtest {
                    mismatches.append("store, \(RFC3339.format(seconds: time)): live (alert: since) \(live), backtest \(backtest)")
                }
            }
        }
        return (checked, mismatches)
    }
}

/// A backtest of a simulated run: its episodes, and what evaluating it live needs.
private struct Backtest: Sendable {
    var episodes: [AlertEpisode]
    /// When the scenario's incident starts.
    var onset: Int64
    /// The end of the run.
    var end: Int64
    var context: AlertContext
    var inputs: AlertInputs

    /// The alerts the backtest shows firing at `time`.
    func firing(at time: Int64) -> Set<AlertFinding.Identity> {
        Set(episodes.filter { $0.startsAt <= time && ($0.endsAt ?? .max) > time }.map(\.first.identity))
    }
}

/// An alert an incident must raise: its kind, severity and action, naming the action itself or one of
/// `slices`, at most `withinMinutes` after the incident starts.
struct IntendedAlert: Sendable, CustomStringConvertible {
    var kind: AlertFinding.Kind
    var severity: Severity
    var actionType: String
    /// The slices it may name; nil stands for the whole action.
    var slices: [SeriesLabels.Slice?]
    var withinMinutes: Int64

    /// Whether `finding` is this alert.
    func matches(_ finding: AlertFinding) -> Bool {
        finding.kind == kind && finding.severity == severity && finding.labels.actionType == actionType
            && slices.contains(finding.labels.slice)
    }

    var description: String {
        let names = slices.map { $0.map { "\($0.dimension.rawValue)=\($0.value ?? "")" } ?? actionType }
        return "\(severity) \(kind.rawValue) for \(names.joined(separator: " or ")) within \(withinMinutes) min"
    }
}

/// A `simulate` incident scenario, run for `days` at 30 attempts a minute, and what it must raise.
struct IncidentCase: Sendable, CustomTestStringConvertible {
    var scenario: Scenario
    var days: Int
    var intended: [IntendedAlert]
    /// What any alert of the run may be about (nil: anything); its kind must be one of `intended`'s.
    var related: [SeriesLabels]?
    /// Whether anything may page: a slow burn or a regression at a few percent of traffic is a ticket.
    var mayPage: Bool

    var testDescription: String { scenario.rawValue }

    /// Whether `finding` is of an intended kind and about what the incident touches.
    func isRelated(_ finding: AlertFinding) -> Bool {
        intended.contains { $0.kind == finding.kind } && (related?.contains(finding.labels) ?? true)
    }

    private static func slice(_ dimension: EventDimension, _ value: String) -> SeriesLabels.Slice {
        .init(dimension: dimension, value: value)
    }

    private static func purchase(_ dimension: EventDimension, _ value: String) -> SeriesLabels {
        SeriesLabels(actionType: "purchase", slice: slice(dimension, value))
    }

    /// Every incident scenario; runs of 2 days place each at its nominal time (the rollout needs 5 for
    /// phases of a day: 1, 2, 5, 10, 20 %).
    static let all: [IncidentCase] = [
        // Verification answers 503 for 40 minutes; purchases, restores and retries all fail: the fast test
        // pages within 3 minutes.
        IncidentCase(
            scenario: .outage, days: 2,
            intended: [IntendedAlert(kind: .successRateBurn, severity: .page, actionType: "purchase", slices: [nil], withinMinutes: 3)],
            related: nil, mayPage: true),
        // 4.12.0 starts from nothing at 24 h and reaches 15 % of the traffic a day later: its first hour holds
        // about 5 purchases, each with an extra 409, under the 10 a spike needs, so three hours.
        IncidentCase(
            scenario: .retryConflicts, days: 2,
            intended: [
                IntendedAlert(
                    kind: .alreadyGrantedSpike, severity: .ticket, actionType: "purchase", slices: [slice(.appVersion, "4.12.0")],
                    withinMinutes: 180)
            ],
            related: [purchase(.appVersion, "4.12.0")], mayPage: false),
        // coins_500 cancels go from 6 % to 30 % for 6 hours: money may be taken without a grant.
        IncidentCase(
            scenario: .cancelSpike, days: 2,
            intended: [
                IntendedAlert(
                    kind: .cancelRateSpike, severity: .ticket, actionType: "purchase", slices: [slice(.productID, "coins_500")],
                    withinMinutes: 60)
            ],
            related: [purchase(.productID, "coins_500")], mayPage: false),
        // Launches bring bursts of premium_monthly renewal retries; all but the first fail (55 %) or never
        // finish: retries fail about half the time against a 95 % objective, and are left unfinished. Both
        // within the first hour; the page may name the premium_monthly slice until the whole action pages.
        // Purchases of premium_monthly, blocked by the unfinished renewals, fail 5 % more: about 5.7 %, a hair
        // over the 6 h page threshold of a 28-day objective (5 % of its budget in 6 h: 5.6×), so the plan,
        // and the intro offer it sells most, may page.
        IncidentCase(
            scenario: .renewalBatch, days: 2,
            intended: [
                IntendedAlert(
                    kind: .successRateBurn, severity: .page, actionType: "retry",
                    slices: [nil, slice(.productID, "premium_monthly"), slice(.planID, "pro-monthly"), slice(.groupID, "premium")],
                    withinMinutes: 60),
                IntendedAlert(kind: .unfinishedPurchases, severity: .ticket, actionType: "retry", slices: [nil], withinMinutes: 60),
            ],
            related: [
                SeriesLabels(actionType: "retry"),
                SeriesLabels(actionType: "retry", slice: slice(.productID, "premium_monthly")),
                SeriesLabels(actionType: "retry", slice: slice(.planID, "pro-monthly")),
                SeriesLabels(actionType: "retry", slice: slice(.groupID, "premium")),
                purchase(.productID, "premium_monthly"), purchase(.planID, "pro-monthly"), purchase(.groupID, "premium"),
                purchase(.offerID, "intro-7d"),
            ],
            mayPage: true),
        // From 24 h, winback-50 purchases (under 4 % of purchases) fail about 4.7 % instead of 0.7 %: a
        // ticket naming the offer within a day, never a page.
        IncidentCase(
            scenario: .slowBurn, days: 2,
            intended: [
                IntendedAlert(
                    kind: .successRateBurn, severity: .ticket, actionType: "purchase", slices: [slice(.offerID, "winback-50")],
                    withinMinutes: 1440)
            ],
            related: [purchase(.offerID, "winback-50")], mayPage: false),
        // pro-monthly purchases with StoreKit 2 on 4.12.0 fail 8.5 % more (about 2.6 % of 4.12.0's purchases):
        // a ticket naming the version before the release reaches 10 % on day 4, so it can be paused; no
        // page while it is at 20 % or less. Other alerts may only name what the regression touches.
        IncidentCase(
            scenario: .rollout, days: 5,
            intended: [
                IntendedAlert(
                    kind: .successRateBurn, severity: .ticket, actionType: "purchase", slices: [slice(.appVersion, "4.12.0")],
                    withinMinutes: 3 * 1440)
            ],
            related: [
                purchase(.appVersion, "4.12.0"), purchase(.productID, "premium_monthly"), purchase(.planID, "pro-monthly"),
                purchase(.groupID, "premium"), purchase(.variant, "storekit2"),
            ],
            mayPage: false),
        // The grant server grants again 10 % of the purchases' receipts their retry re-sends: a ticket per
        // product as its first repeat comes (the store told by the events' platform, no notification
        // needed), and a page once the store's repeats of the last hour pass 5 %.
        IncidentCase(
            scenario: .doubleGrant, days: 2,
            intended: [
                IntendedAlert(
                    kind: .doubleGrant, severity: .ticket, actionType: "purchase",
                    slices: ["coins_100", "coins_500", "coins_1200", "premium_monthly", "premium_yearly"].map { slice(.productID, $0) },
                    withinMinutes: 10)
            ],
            related: nil, mayPage: true),
    ]
}
