import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLISimulation
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// What an alert cost: a week of steady traffic, then the simulator's 40-minute verification outage (90 %
/// of grants fail with a 503 while it lasts, some granted later): the purchase page's cost is about the
/// purchases the outage failed for good, against the same hours of the previous 7 days, in USD at the
/// events' prices.
@Suite struct AlertCostTests {
    @Test func anOutagesPageSaysAboutHowManyPurchasesItLostAndWhatTheyWereWorth() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cost.sqlite")
        let start = RFC3339.parseMillis("2026-11-02T00:00:00Z")!
        let (reports, lostByOutage) = try await offCooperativePool {
            let store = try SQLiteBucketStore(path: path)
            let steady = SimulationParameters(scenario: .steady, startMillis: start, days: 7, seed: 1, attemptsPerMinute: 10)
            let outage = SimulationParameters(scenario: .outage, startMillis: start + 7 * 86_400_000, days: 2, seed: 2, attemptsPerMinute: 10)
            var lostByOutage = 0
            for parameters in [steady, outage] {
                let events = Array(TrafficSimulator(parameters))
                // The purchases the outage failed and that were never granted afterwards (a failed grant is
                // verified again a few minutes later, and granted once the outage is over).
                let purchases = events.filter { $0.actionType == .purchase }
                let failed = Set(
                    purchases.filter { $0.resultType == .failure && $0.errorDescription?.contains("503 Service Unavailable") == true }
                        .compactMap(\.transactionID))
                let granted = Set(purchases.filter { $0.resultType == .success }.compactMap(\.transactionID))
                lostByOutage += failed.subtracting(granted).count
                _ = try await store.record(events, receivedAtMillis: start + 10 * 86_400_000)
            }
            let policy = try SLOPolicy(yaml: String(contentsOfFile: packageRoot + "/dashboards/slos.yaml", encoding: .utf8))
            let context = AlertContext(store: store, storedMaintenance: [], policy: policy, databasePath: path)
            let from = (start + 7 * 86_400_000) / 1000
            return (try await context.episodeReports(from: from, to: from + 2 * 86_400, stepSeconds: 60), lostByOutage)
        }
        let page = try #require(
            reports.first { $0.finding.kind == .successRateBurn && $0.finding.labels == SeriesLabels(actionType: "purchase") })
        let cost = try #require(page.cost?.lost["purchase"])
        #expect(cost.basis == .previousDays(7))
        #expect(cost.interval.contains(cost.purchases) && cost.interval.lowerBound > 0)
        #expect(abs(cost.purchases - Double(lostByOutage)) <= 0.2 * Double(lostByOutage), "\(cost) vs \(lostByOutage)")
        #expect((cost.worth["USD"] ?? 0) > cost.purchases, "coins cost 0.99 USD and more, subscriptions more: \(cost.worth)")
        let text = AlertOutput.text([page], now: page.endsAt ?? 0)
        #expect(text.contains("cost: ≈ ") && text.contains("(estimated against the same hours of the previous 7 days)"), "\(text)")
        #expect(AlertOutput.alertmanagerJSON([page], now: page.endsAt ?? 0).contains(#""cost":"incident cost: ≈ "#))
    }
}
