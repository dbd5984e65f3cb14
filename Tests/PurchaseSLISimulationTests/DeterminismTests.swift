import PurchaseSLICore
import PurchaseSLISimulation
import Testing

@Suite struct DeterminismTests {
    @Test func sameParametersGiveIdenticalLines() {
        for scenario in Scenario.allCases {
            let parameters = Fixtures.parameters(scenario, rate: 20, seed: 99)
            let first = TrafficSimulator(parameters).prefix(500).map(\.jsonLine)
            let second = TrafficSimulator(parameters).prefix(500).map(\.jsonLine)
            #expect(first.count == 500)
            #expect(first == second, "\(scenario)")
        }
    }

    @Test func wholeRunsAreIdentical() {
        for scenario in Scenario.allCases {
            let parameters = Fixtures.parameters(scenario, days: 2, rate: 0.3, seed: 5)
            #expect(Array(TrafficSimulator(parameters)) == Array(TrafficSimulator(parameters)), "\(scenario)")
        }
    }

    @Test func iteratingTwiceRestartsTheRun() {
        let simulator = TrafficSimulator(Fixtures.parameters(.outage, rate: 5, seed: 3))
        #expect(Array(simulator.prefix(500)) == Array(simulator.prefix(500)))
    }

    @Test func differentSeedsDiffer() {
        let one = TrafficSimulator(Fixtures.parameters(.steady, rate: 30, seed: 1)).prefix(200).map(\.jsonLine)
        let two = TrafficSimulator(Fixtures.parameters(.steady, rate: 30, seed: 2)).prefix(200).map(\.jsonLine)
        #expect(one != two)
        #expect(Set(one.prefix(20)).isDisjoint(with: two.prefix(20)))
    }

    /// `--app` names the app in every event and nothing else changes but the store's transaction ids, which
    /// differ between apps as between runs; without an app the events are those of before (no `app`).
    @Test func anAppIsNamedInEveryEventAndKeepsItsTransactionsApart() {
        var withApp = Fixtures.parameters(.outage, rate: 5, seed: 3)
        withApp.app = "com.example.coins"
        let plain = Array(TrafficSimulator(Fixtures.parameters(.outage, rate: 5, seed: 3)).prefix(2000))
        let named = Array(TrafficSimulator(withApp).prefix(2000))
        #expect(plain.allSatisfy { $0.app == nil } && named.allSatisfy { $0.app == "com.example.coins" })
        #expect(zip(plain, named).allSatisfy { $0.eventID == $1.eventID && $0.timestampMillis == $1.timestampMillis })
        let transactions = (Set(plain.compactMap(\.transactionID)), Set(named.compactMap(\.transactionID)))
        #expect(!transactions.0.isEmpty && transactions.0.isDisjoint(with: transactions.1))
    }

    @Test("the wide catalog: the standard run's traffic under many more names (SKUs, builds, OS releases, campaigns)")
    func aWideCatalogRenamesTheSameTraffic() {
        var wide = Fixtures.parameters(.rollout, rate: 20, seed: 3)
        wide.catalog = .wide
        let standard = Array(TrafficSimulator(Fixtures.parameters(.rollout, rate: 20, seed: 3)))
        let renamed = Array(TrafficSimulator(wide))
        #expect(standard.count == renamed.count && standard.count > 10_000)
        #expect(
            zip(standard, renamed).allSatisfy { plain, named in
                plain.eventID == named.eventID && plain.timestampMillis == named.timestampMillis && plain.resultType == named.resultType
                    && named.productID.hasPrefix(plain.productID + "_t") && named.planID?.hasPrefix((plain.planID ?? "") + "-t") == true
                    && named.osVersion?.hasPrefix((plain.osVersion ?? "") + ".") == true && (plain.offerID == nil) == (named.offerID == nil)
                    && (plain.appVersion == "4.12.0") == (named.appVersion == "4.12.0")
            })
        // Many more series than the standard catalog's.
        func series(_ events: [PurchaseEvent]) -> Int {
            Set(
                events.map {
                    "\($0.productID) \($0.planID ?? "") \($0.offerID ?? "") \($0.appVersion ?? "") \($0.osVersion ?? "") \($0.platform ?? "")"
                }
            ).count
        }
        #expect(series(renamed) > 20 * series(standard))
        #expect(Set(renamed.map(\.productID)).count == 5 * 40)
        #expect(Set(standard.compactMap(\.transactionID)).isDisjoint(with: renamed.compactMap(\.transactionID)))
    }

    /// Pins the output so that a change of generator, platform or Swift version cannot go unnoticed.
    @Test func outputIsPinned() {
        var random = SimulationRandom(seed: 0)
        // xoshiro256** seeded with SplitMix64(0): reference values.
        #expect(random.next() == 0x99EC_5F36_CB75_F2B4)
        #expect(random.next() == 0xBF6E_1F78_4956_452A)
        let first = TrafficSimulator(Fixtures.parameters(.steady, rate: 30, seed: 42)).first { _ in true }
        #expect(
            first?.jsonLine == #"""
                {"eventID":"42e09c05-36f8-4866-a647-650f08163e0f","timestamp":"2026-11-02T00:00:01.763Z","productID":"premium_monthly","planID":"pro-monthly","groupID":"premium","offerID":"winback-50","actionType":"purchase","resultType":"start","appVersion":"4.10.2","platform":"iOS","osVersion":"18.2","variant":"storekit1","price":9.99,"currency":"USD","appAccountToken":"ed4686cf-5695-4507-b007-64a2648fc854"}
                """#)
    }
}
