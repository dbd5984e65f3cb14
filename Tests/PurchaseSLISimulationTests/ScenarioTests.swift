import PurchaseSLICore
import PurchaseSLISimulation
import Testing

@Suite struct ScenarioTests {
    private let hour = Fixtures.hour
    private var steady: [PurchaseEvent] { Fixtures.steady.unique }

    @Test func outageFailsVerificationWithA503DuringItsWindow() throws {
        let run = Fixtures.outage
        let window = try #require(run.schedule.window)
        #expect(window == (run.parameters.startMillis + 14 * hour)..<(run.parameters.startMillis + 14 * hour + 40 * 60_000))
        let events = run.unique
        let outageErrors = events.filter { $0.errorDescription == "verification failed: 503 Service Unavailable" }
        #expect(outageErrors.allSatisfy { $0.statusCode == 503 && $0.resultType == .failure && $0.transactionID != nil })
        #expect(outageErrors.allSatisfy { window.lowerBound <= $0.timestampMillis && $0.timestampMillis < window.upperBound + 120_000 })
        let purchases = events.filter { $0.actionType == .purchase }
        let during = purchases.filter { window.contains($0.timestampMillis - ($0.durationMs ?? 0)) }
        let outside = purchases.filter { !window.contains($0.timestampMillis - ($0.durationMs ?? 0)) }
        #expect(during.successRate < 0.2, "\(during.successRate)")
        #expect(during.count(of: .failure) > 120)
        #expect(outside.successRate > 0.985, "\(outside.successRate)")
        #expect(!steady.contains { $0.errorDescription == "verification failed: 503 Service Unavailable" })
        // Charged but not granted: the next launches retry and are granted once verification is back.
        let recovered = events.count {
            $0.actionType == .retry && $0.resultType == .success && $0.timestampMillis >= window.upperBound
                && $0.timestampMillis < window.upperBound + 5 * hour
        }
        let before = events.count {
            $0.actionType == .retry && $0.resultType == .success && $0.timestampMillis < window.lowerBound
                && $0.timestampMillis >= window.lowerBound - 5 * hour
        }
        #expect(recovered > before + 100, "\(recovered) vs \(before)")
    }

    @Test func retry409DoublesConflictsForTheNewVersionOnly() throws {
        let run = Fixtures.retryConflicts
        let onset = try #require(run.schedule.window).lowerBound
        #expect(onset == run.parameters.startMillis + 8 * hour)
        let events = run.unique
        #expect(!events.contains { $0.appVersion == "4.12.0" && $0.timestampMillis < onset })
        let new = events.filter { $0.appVersion == "4.12.0" }
        let old = events.filter { $0.appVersion == "4.11.0" }
        #expect(new.count(of: .start) > 600)
        #expect(new.conflictsPerPurchase > 0.85, "\(new.conflictsPerPurchase)")
        #expect(old.conflictsPerPurchase < 0.08, "\(old.conflictsPerPurchase)")
        #expect(new.conflictsPerPurchase > 10 * old.conflictsPerPurchase)
        #expect(new.filter { $0.actionType == .purchase }.successRate > 0.985)
        // Totals change modestly: the new version is a small share of the first day.
        #expect(events.conflictsPerPurchase < 0.2, "\(events.conflictsPerPurchase)")
        #expect(events.conflictsPerPurchase > 1.5 * steady.conflictsPerPurchase)
        #expect(Double(events.count) < 1.15 * Double(Fixtures.steady.unique.count) * 10 / 30)
    }

    @Test func cancelSpikeHitsCoins500DuringItsWindow() throws {
        let run = Fixtures.cancelSpike
        let window = try #require(run.schedule.window)
        #expect(window.lowerBound == run.parameters.startMillis + 13 * hour + 20 * 60_000)
        #expect(window.count == 6 * Int(hour))
        let purchases = run.unique.filter { $0.actionType == .purchase }
        func started(inWindow: Bool) -> (PurchaseEvent) -> Bool {
            { window.contains($0.timestampMillis - ($0.durationMs ?? 0)) == inWindow }
        }
        let coins500 = purchases.filter { $0.productID == "coins_500" }
        let spike = coins500.filter(started(inWindow: true)).cancelRate
        let calm = coins500.filter(started(inWindow: false)).cancelRate
        let others = purchases.filter { $0.productID != "coins_500" }.filter(started(inWindow: true)).cancelRate
        #expect((0.25...0.36).contains(spike), "\(spike)")
        #expect(calm < 0.09, "\(calm)")
        #expect(others < 0.09, "\(others)")
        let steadyCoins500 = steady.filter { $0.productID == "coins_500" && $0.actionType == .purchase }.cancelRate
        #expect(steadyCoins500 < 0.09)
        // Detoured purchases complete later in the App Store; their receipts come back as granted retries.
        func grantedRetries(_ range: Range<Int64>) -> Int {
            run.unique.count {
                $0.productID == "coins_500" && $0.actionType == .retry && $0.resultType == .success
                    && range.contains($0.timestampMillis)
            }
        }
        let sixHours = 6 * hour
        let during = grantedRetries(window.lowerBound..<(window.upperBound + 3 * hour))
        let earlier = grantedRetries((window.lowerBound - sixHours * 3 / 2)..<window.lowerBound)
        #expect(during > 3 * earlier + 30, "\(during) vs \(earlier)")
    }

    @Test func renewalBatchLeavesFailingAndUnfinishedRenewals() throws {
        let run = Fixtures.renewalBatch
        let window = try #require(run.schedule.window)
        #expect(window == (run.parameters.startMillis + 10 * hour)..<(run.parameters.startMillis + 20 * hour))
        let renewals = run.unique.filter {
            $0.productID == "premium_monthly" && $0.actionType == .retry && window.contains($0.timestampMillis)
        }
        let starts = renewals.count(of: .start)
        let failures = renewals.filter { $0.errorDescription == "transaction unfinished: renewal not handled" }
        let unfinished = starts - renewals.count { $0.resultType.isTerminal }
        #expect(failures.count > 400)
        #expect(failures.allSatisfy { $0.resultType == .failure })
        #expect(Double(unfinished) / Double(starts) > 0.25, "\(unfinished) of \(starts)")
        #expect(renewals.successRate < 0.6)
        // The same stuck transactions fail again and again.
        #expect(Set(failures.compactMap(\.transactionID)).count < failures.count / 2)
        let steadyRenewals = steady.filter { $0.productID == "premium_monthly" && $0.actionType == .retry }
        #expect(steadyRenewals.successRate > 0.95)
        #expect(!steady.contains { $0.errorDescription == "transaction unfinished: renewal not handled" })
    }

    @Test func slowBurnRaisesFailuresOfTheWinbackOffer() throws {
        let run = Fixtures.slowBurn
        let window = try #require(run.schedule.window)
        #expect(window == (run.parameters.startMillis + 8 * hour)..<run.parameters.endMillis)
        let purchases = run.unique.filter { $0.actionType == .purchase }
        let winback = purchases.filter { $0.offerID == "winback-50" && window.contains($0.timestampMillis) }
        let otherOffers = purchases.filter { $0.offerID != "winback-50" }
        #expect(winback.count(of: .start) > 400)
        #expect((0.025...0.08).contains(winback.failureRate), "\(winback.failureRate)")
        #expect(otherOffers.failureRate < 0.012, "\(otherOffers.failureRate)")
        let signature = purchases.filter { $0.errorDescription == "invalid offer signature" }
        #expect(signature.allSatisfy { $0.offerID == "winback-50" && $0.timestampMillis >= window.lowerBound })
        #expect(signature.count > 10)
    }

    @Test func rolloutPhasesAndRegressesProMonthlyOnTheNewVersion() throws {
        let run = Fixtures.rollout
        let phase = try #require(run.schedule.phaseMillis)
        #expect(phase == 24 * hour / 5)
        let starts = run.unique.filter { $0.resultType == .start }
        var shares: [Double] = []
        for index in 0..<5 {
            let begin = run.parameters.startMillis + Int64(index) * phase
            let inPhase = starts.filter { (begin..<(begin + phase)).contains($0.timestampMillis) }
            shares.append(Double(inPhase.count { $0.appVersion == "4.12.0" }) / Double(inPhase.count))
        }
        for (share, nominal) in zip(shares, [0.01, 0.02, 0.05, 0.10, 0.20]) {
            #expect(abs(share - nominal) < nominal * 0.3 + 0.003, "\(shares)")
        }
        let proMonthly = run.unique.filter { $0.planID == "pro-monthly" && $0.actionType == .purchase }
        let newVersion = proMonthly.filter { $0.appVersion == "4.12.0" }
        let oldVersion = proMonthly.filter { $0.appVersion == "4.11.0" }
        #expect((0.045...0.13).contains(newVersion.failureRate), "\(newVersion.failureRate)")
        #expect(oldVersion.failureRate < 0.015, "\(oldVersion.failureRate)")
        let newCoins = run.unique.filter { $0.appVersion == "4.12.0" && $0.productID.hasPrefix("coins") }
        #expect(newCoins.failureRate < 0.02)
        #expect(
            run.unique.filter { $0.errorDescription == "StoreKit2 purchase: unknown product state" }
                .allSatisfy { $0.appVersion == "4.12.0" && $0.planID == "pro-monthly" && $0.variant == "storekit2" })
    }

    @Test func rolloutPhasesLastADayInLongRuns() {
        let schedule = IncidentSchedule(Fixtures.parameters(.rollout, days: 7, rate: 1, seed: 1))
        let start = Fixtures.start
        #expect(schedule.phaseMillis == 24 * hour)
        let shares = (0..<7).map { schedule.newVersionShare(at: start + Int64($0) * 24 * hour + hour) }
        #expect(shares == [0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 1.0])
    }

    @Test func incidentsKeepTheirNominalTimesInLongRuns() {
        func window(_ scenario: Scenario, days: Int) -> Range<Int64>? {
            IncidentSchedule(Fixtures.parameters(scenario, days: days, rate: 1, seed: 1)).window
        }
        let start = Fixtures.start
        #expect(window(.steady, days: 7) == nil)
        #expect(window(.outage, days: 2) == (start + 42 * hour)..<(start + 42 * hour + 40 * 60_000))
        #expect(window(.outage, days: 7)?.lowerBound == start + 42 * hour)
        #expect(window(.retryConflicts, days: 3) == (start + 24 * hour)..<(start + 72 * hour))
        #expect(window(.cancelSpike, days: 2) == (start + 40 * hour)..<(start + 46 * hour))
        #expect(window(.renewalBatch, days: 2) == (start + 30 * hour)..<(start + 40 * hour))
        #expect(window(.slowBurn, days: 5) == (start + 24 * hour)..<(start + 120 * hour))
    }

    @Test func summariesAreSingleLines() {
        for scenario in Scenario.allCases {
            #expect(!scenario.summary.isEmpty && !scenario.summary.contains("\n"))
            #expect(Scenario(rawValue: scenario.rawValue) == scenario)
        }
        #expect(
            Scenario.allCases.map(\.rawValue)
                == [
                    "steady", "outage", "retry-409", "cancel-spike", "renewal-batch", "slow-burn", "rollout", "paymentdetour", "appcrash",
                    "double-grant", "replayed-receipt", "slow-grant-queue",
                ])
    }
}
