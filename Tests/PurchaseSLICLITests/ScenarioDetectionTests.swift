import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLISimulation
import PurchaseSLIServer
import PurchaseSLIStorage
import Testing

@testable import PurchaseSLICLI

/// The simulator's incidents, ingested and backtested with the default policy, the way `alerts` does.
@Suite struct ScenarioDetectionTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private let start = RFC3339.parseMillis("2026-11-09T00:00:00Z")! / 1000

    private func backtest(_ scenario: Scenario, days: Int, rate: Double) throws -> [AlertEpisode] {
        let store = try SQLiteBucketStore(path: directory.file("\(scenario.rawValue).sqlite"))
        let parameters = SimulationParameters(
            scenario: scenario, startMillis: start * 1000, days: days, seed: 3, attemptsPerMinute: rate)
        var batch: [PurchaseEvent] = []
        for event in TrafficSimulator(parameters) {
            batch.append(event)
            if batch.count == 20_000 {
                _ = try store.record(batch, receivedAtMillis: 0)
                batch.removeAll(keepingCapacity: true)
            }
        }
        _ = try store.record(batch, receivedAtMillis: 0)
        let context = AlertContext(store: store, policy: .default)
        let end = start + Int64(days) * 86_400
        let inputs = try context.inputs(from: start - SLOPolicy.default.lookbackSeconds, to: end)
        return AlertEvaluator(policy: .default).episodes(from: start, to: end, stepSeconds: 60, inputs: inputs)
    }

    func backtestForExtension(_ scenario: Scenario) throws -> [AlertEpisode] {
        try backtest(scenario, days: 4, rate: 30)
    }

    @Test func aHardOutagePagesWithinFifteenMinutes() throws {
        let outageStart = start + 42 * 3600
        let episodes = try backtest(.outage, days: 3, rate: 30)
        guard let page = episodes.first(where: { $0.first.severity == .page && $0.first.labels.actionType == "purchase" }) else {
            Issue.record("the outage did not page")
            return
        }
        #expect(page.startsAt > outageStart && page.startsAt <= outageStart + 15 * 60, "paged at \(RFC3339.format(seconds: page.startsAt))")
        #expect(!episodes.contains { $0.first.severity == .page && $0.startsAt < outageStart })
    }

    @Test func steadyTrafficGivesNoPageAndNoTicketOverSevenDays() throws {
        let episodes = try backtest(.steady, days: 7, rate: 10)
        #expect(episodes.isEmpty, "\(episodes.map { "\($0.first.severity) \($0.first.labels.pairs) \(RFC3339.format(seconds: $0.startsAt))" })")
    }
}

extension ScenarioDetectionTests {
    /// 4.12.0 starts from nothing at 24 h and grows to 15 % of the traffic a day later; at 30 attempts a
    /// minute its first hour holds a handful of purchases, so the test allows three hours (with 10 409s
    /// needed and the significance shared by every slice tested).
    @Test func aNewVersionDoubleSendingReceiptsIsNamedByAppVersionWithinThreeHours() throws {
        let rolloutStart = RFC3339.parseMillis("2026-11-09T00:00:00Z")! / 1000 + 86_400
        let episodes = try backtestForExtension(.retryConflicts)
        guard let spike = episodes.first(where: { $0.first.kind == .alreadyGrantedSpike }) else {
            Issue.record("no 409 spike")
            return
        }
        #expect(spike.first.labels.slice == .init(dimension: .appVersion, value: "4.12.0"))
        #expect(spike.startsAt <= rolloutStart + 3 * 3600, "first 409 spike at \(RFC3339.format(seconds: spike.startsAt))")
    }
}
