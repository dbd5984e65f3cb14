import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

@testable import PurchaseSLIAnalysis

private let origin: Int64 = 1_794_614_400  // 2026-11-14T00:00:00Z
private let minutes = 5 * 1440

private func minute(_ index: Int) -> Int64 { origin + Int64(index) * 60 }

/// Per-minute rows of one key: `valid` valid events of which `conflicts` are 409s, and `cancels`.
private func rows(
    _ key: [String?], valid: Int64, conflicts: (Int) -> Int64 = { _ in 0 }, cancels: (Int) -> Int64 = { _ in 0 }
) -> [CountRow] {
    (0..<minutes).map { index in
        CountRow(
            timeSeconds: minute(index), key: key,
            counts: OutcomeCounts(
                start: valid, success: valid - conflicts(index), alreadyGranted: conflicts(index), cancel: cancels(index),
                conflicts: conflicts(index)))
    }
}

private let evaluator = AlertEvaluator(policy: .default)

@Suite struct SpikeTests {
    @Test(
        arguments: [
            (8, 10, 0.5, 56.0 / 1024), (0, 10, 0.5, 1.0), (11, 10, 0.5, 0.0), (10, 10, 0.5, 1.0 / 1024), (3, 20, 0.1, 0.3230732),
        ] as [(Int64, Int64, Double, Double)])
    func binomialUpperTailIsExact(atLeast: Int64, trials: Int64, probability: Double, expected: Double) {
        #expect(abs(RateTest.binomialUpperTail(atLeast: atLeast, trials: trials, probability: probability) - expected) < 1e-6)
    }

    /// P(X ≤ k) equals 1 − P(X ≥ k + 1) at both ends and past the mode, to rounding.
    @Test(
        arguments: [
            (0, 10, 0.5), (2, 10, 0.5), (10, 10, 0.5), (11, 10, 0.5), (-1, 10, 0.5), (3, 1000, 0.144), (140, 1000, 0.144),
            (200, 1000, 0.144), (0, 21, 0.144), (5, 300, 1.0), (5, 300, 0.0),
        ] as [(Int64, Int64, Double)])
    func binomialLowerTailIsTheUpperTailsComplement(atMost: Int64, trials: Int64, probability: Double) {
        let complement = 1 - RateTest.binomialUpperTail(atLeast: atMost + 1, trials: trials, probability: probability)
        #expect(abs(RateTest.binomialLowerTail(atMost: atMost, trials: trials, probability: probability) - complement) < 1e-9)
    }

    @Test func equalRatesAreNotSignificant() {
        let p = RateTest.poissonRateExcess(observed: 50, exposure: 1000, baselineObserved: 150, baselineExposure: 3000)
        #expect(p > 0.3 && p < 0.7)
    }

    @Test func aVersionWhose409sPerPurchaseJumpIsNamedWhileTheTotalBarelyMoves() {
        // 4.12.0 has 5 % of the purchases; from minute 4400 each of its purchases brings an extra retry that
        // ends in 409. The retry action's 409s barely move (20 a minute become 25).
        let purchases = rows(["purchase", "4.11.0"], valid: 95) + rows(["purchase", "4.12.0"], valid: 5)
        let retries =
            rows(["retry", "4.11.0"], valid: 25, conflicts: { _ in 20 })
            + rows(["retry", "4.12.0"], valid: 1, conflicts: { $0 >= 4400 ? 5 : 1 })
        let overall = rows(["purchase"], valid: 100) + rows(["retry"], valid: 26, conflicts: { $0 >= 4400 ? 25 : 21 })
        let inputs = AlertInputs(
            startSeconds: origin, endSeconds: minute(minutes), overall: overall, sliceRows: [.appVersion: purchases + retries])
        #expect(!evaluator.findings(at: minute(4390), inputs: inputs).contains { $0.kind == .alreadyGrantedSpike })
        // 40 minutes in, 4.12.0's hour holds 220 409s for 300 purchases against 4.11.0's 0.21 per purchase.
        let during = evaluator.findings(at: minute(4440), inputs: inputs).filter { $0.kind == .alreadyGrantedSpike }
        #expect(during.map(\.labels) == [SeriesLabels(actionType: "purchase", slice: .init(dimension: .appVersion, value: "4.12.0"))])
        #expect(during.first?.evidence(as: AlreadyGrantedEvidence.self)?.spike.baseline == "the other app versions over the same window")
        #expect(during.first?.evidence(as: AlreadyGrantedEvidence.self)?.spike.measure == "409s (already granted) per successful purchase")
        #expect((during.first?.evidence(as: AlreadyGrantedEvidence.self)?.spike.pValue ?? 1) < 1e-6)
    }

    @Test func aProductWhoseCancelsJumpAgainstItsOwnPreviousDaysIsACancelRateSpike() {
        let product = rows(["purchase", "coins_500"], valid: 40, cancels: { $0 >= 4400 ? 15 : ($0 % 10 == 0 ? 2 : 0) })
        let other = rows(["purchase", "coins_100"], valid: 60, cancels: { $0 % 10 == 0 ? 3 : 0 })
        let overall = rows(["purchase"], valid: 100, cancels: { ($0 >= 4400 ? 15 : ($0 % 10 == 0 ? 2 : 0)) + ($0 % 10 == 0 ? 3 : 0) })
        let inputs = AlertInputs(
            startSeconds: origin, endSeconds: minute(minutes), overall: overall, sliceRows: [.productID: product + other])
        let spikes = evaluator.findings(at: minute(4430), inputs: inputs).filter { $0.kind == .cancelRateSpike }
        #expect(spikes.map(\.labels.slice?.value) == ["coins_500"])
        #expect(spikes.first?.evidence(as: CancelSpikeEvidence.self)?.spike.baseline == "the same window on the previous 3 days")
        #expect(evaluator.findings(at: minute(4390), inputs: inputs).filter { $0.kind == .cancelRateSpike }.isEmpty)
    }

    /// A product sold a few times an hour: from minute 4320 its cancels come one every 10 minutes, 6 in any
    /// hour (fewer than the 10 a spike needs), so the test reaches back two hours (12 cancels and 4 sales
    /// against none in 36 sales on the previous days) and finds the spike.
    @Test func aThinProductsCancelSpikeIsFoundOverAWindowReachingBack() {
        let product = (0..<minutes).map { index in
            let valid: Int64 = index < 4320 ? (index % 10 == 0 ? 1 : 0) : (index % 30 == 0 ? 1 : 0)
            let cancels: Int64 = index >= 4320 && index % 10 == 5 ? 1 : 0
            return CountRow(
                timeSeconds: minute(index), key: ["purchase", "coins_2000"], counts: OutcomeCounts(start: valid, success: valid, cancel: cancels))
        }
        let overall = product.map { CountRow(timeSeconds: $0.timeSeconds, key: ["purchase"], counts: $0.counts) }
        let inputs = AlertInputs(startSeconds: origin, endSeconds: minute(minutes), overall: overall, sliceRows: [.productID: product])
        let spikes = evaluator.findings(at: minute(4440), inputs: inputs).filter { $0.kind == .cancelRateSpike }
        #expect(spikes.map(\.labels.slice?.value) == ["coins_2000"])
        let spike = spikes.first?.evidence(as: CancelSpikeEvidence.self)?.spike
        #expect(spike?.windowSeconds == 2 * 3600 && spike?.observed == 12 && spike?.exposure == 16, "\(String(describing: spike))")
    }

    @Test func aPreviousDayWithAnIncidentOfItsOwnDoesNotMakeAnOrdinaryHourASpike() {
        // Retries answer 409 three times in four, except in one hour (minutes 4200..<4260) of an outage's
        // aftermath: three times the retries, catching up, none of them a 409. A day later the same hour,
        // ordinary again, is 2.5× the three previous days summed (30 %) but not twice any one of them.
        let overall = (0..<minutes).map { index in
            let aftermath = (4200..<4260).contains(index)
            let valid: Int64 = aftermath ? 60 : 20
            let conflicts: Int64 = aftermath ? 0 : 15
            return CountRow(
                timeSeconds: minute(index), key: ["retry"],
                counts: OutcomeCounts(
                    start: valid, success: valid - conflicts, alreadyGranted: conflicts, conflicts: conflicts))
        }
        let inputs = AlertInputs(startSeconds: origin, endSeconds: minute(minutes), overall: overall, sliceRows: [:])
        #expect(!evaluator.findings(at: minute(4260 + 1440), inputs: inputs).contains { $0.kind == .alreadyGrantedSpike })
    }

    @Test func steadyRatesAndTooFewEventsDoNotSpike() {
        // A 409 rate that doubles on a handful of events stays quiet: fewer than the minimum count.
        let overall = rows(["retry"], valid: 3, conflicts: { $0 >= 4400 && $0 % 20 == 0 ? 1 : 0 })
        let inputs = AlertInputs(startSeconds: origin, endSeconds: minute(minutes), overall: overall, sliceRows: [:])
        #expect(evaluator.episodes(from: minute(4320), to: minute(minutes), stepSeconds: 60, inputs: inputs).isEmpty)
    }
}

extension SpikeTests {
    @Test func attemptsLeftWithoutATerminalEventAreUnfinishedPurchases() {
        // 50 attempts a minute, each finished, until minute 4400; then 20 of them never get a terminal event.
        let overall = (0..<minutes).map { index in
            let unfinished: Int64 = index >= 4400 ? 20 : 0
            return CountRow(timeSeconds: minute(index), key: ["purchase"], counts: OutcomeCounts(start: 50, success: 50 - unfinished))
        }
        let inputs = AlertInputs(startSeconds: origin, endSeconds: minute(minutes), overall: overall, sliceRows: [:])
        // The test looks at the window that ended 10 minutes ago: nothing yet at 4405, a spike by 4440.
        #expect(!evaluator.findings(at: minute(4405), inputs: inputs).contains { $0.kind == .unfinishedPurchases })
        let spike = evaluator.findings(at: minute(4440), inputs: inputs).first { $0.kind == .unfinishedPurchases }
        #expect(
            spike?.evidence(as: UnfinishedEvidence.self)?.spike.observed == 600
                && spike?.evidence(as: UnfinishedEvidence.self)?.spike.exposure == 3000)
        #expect(spike?.evidence(as: UnfinishedEvidence.self)?.spike.baselineObserved == 0)
    }
}
