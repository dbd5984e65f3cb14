import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLISimulation
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

    @Test func aHardOutagePagesWithinFifteenMinutes() throws {
        let outageStart = start + 42 * 3600
        let episodes = try backtest(.outage, days: 3, rate: 30)
        let page = try #require(episodes.first { $0.first.severity == .page && $0.first.labels.actionType == "purchase" })
        #expect(page.startsAt > outageStart && page.startsAt <= outageStart + 15 * 60, "paged at \(RFC3339.format(seconds: page.startsAt))")
        #expect(!episodes.contains { $0.first.severity == .page && $0.startsAt < outageStart })
    }

    @Test func steadyTrafficGivesNoPageAndNoTicketOverSevenDays() throws {
        let episodes = try backtest(.steady, days: 7, rate: 10)
        #expect(episodes.isEmpty, "\(episodes.map { "\($0.first.severity) \($0.first.labels.pairs) \(RFC3339.format(seconds: $0.startsAt))" })")
    }
}
