import Foundation
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIAnalysis

@Suite struct SequentialRateTestTests {
    /// `hours` hours of a candidate with `share` of 1,000 trials an hour, failing `candidateRate` of the
    /// time where the baseline fails 1 %, without noise.
    private func steady(hours: Int, share: Double, candidateRate: Double) -> [SequentialRateTest.Hour] {
        let candidate = 1_000 * share
        return Array(
            repeating: SequentialRateTest.Hour(
                candidateBad: Int64((candidate * candidateRate).rounded()), candidateTrials: Int64(candidate),
                baselineBad: Int64(((1_000 - candidate) * 0.01).rounded()), baselineTrials: Int64(1_000 - candidate)), count: hours)
    }

    /// Evidence grows with the data in the direction of the truth and not against it.
    @Test(
        arguments: [
            // (candidate's failure rate, direction, null ratio, expect a small p-value)
            (0.01, SequentialRateTest.Direction.worse, 1.0, false), (0.05, .worse, 1.0, true), (0.01, .better, 2.0, true),
            (0.02, .better, 2.0, false), (0.03, .worse, 2.0, true), (0.015, .worse, 2.0, false),
        ] as [(Double, SequentialRateTest.Direction, Double, Bool)])
    func pValuesFollowTheTruth(rate: Double, direction: SequentialRateTest.Direction, nullRatio: Double, small: Bool) {
        let p = SequentialRateTest.pValue(steady(hours: 72, share: 0.1, candidateRate: rate), nullRatio: nullRatio, direction: direction)
        #expect((p < 0.001) == small, "p = \(p)")
    }

    /// The p-value is the running minimum over the looks: an hour that goes the other way does not take
    /// evidence back.
    @Test func thePValueNeverRisesWithMoreHours() {
        var hours = steady(hours: 24, share: 0.1, candidateRate: 0.05)
        let before = SequentialRateTest.pValue(hours, nullRatio: 1, direction: .worse)
        hours += Array(repeating: SequentialRateTest.Hour(candidateBad: 0, candidateTrials: 100, baselineBad: 30, baselineTrials: 900), count: 24)
        #expect(SequentialRateTest.pValue(hours, nullRatio: 1, direction: .worse) == before)
    }

    /// The bounds bracket the true ratio and narrow as hours are added.
    @Test func boundsBracketTheRatioAndNarrow() throws {
        var widths: [Double] = []
        for count in [24, 96, 384] {
            let hours = steady(hours: count, share: 0.1, candidateRate: 0.03)
            let lower = try #require(SequentialRateTest.bound(hours, direction: .worse, alpha: 0.025))
            let upper = try #require(SequentialRateTest.bound(hours, direction: .better, alpha: 0.025))
            #expect(lower < 3 && 3 < upper, "\(lower) to \(upper) after \(count) hours")
            widths.append(log(upper / lower))
        }
        #expect(widths[0] > widths[1] && widths[1] > widths[2], "\(widths)")
    }

    /// The evidence after each hour is the mixture of the binomial likelihood ratios written out from
    /// π(r) = s·r / (s·r + 1 − s), its peak so far, on seeded hours from a sliver of a share to nearly all
    /// of it, with and without bad events, in both directions and at null ratios below and above 1.
    @Test(arguments: [(0.2, SequentialRateTest.Direction.worse), (1, .worse), (3, .worse), (0.5, .better), (1.4, .better), (40, .better)])
    func evidenceIsTheMixtureOfBinomialLikelihoodRatios(nullRatio: Double, direction: SequentialRateTest.Direction) {
        var generator = SeededGenerator(seed: 7)
        func share(_ ratio: Double, _ share: Double) -> Double { share * ratio / (share * ratio + 1 - share) }
        let alternatives = SequentialRateTest.alternatives(to: nullRatio, direction)
        var sums = [Double](repeating: 0, count: alternatives.count)
        var peak = 0.0
        var evidence = SequentialRateTest.Evidence(nullRatio: nullRatio, direction: direction)
        // Stretches of 100 hours where the candidate fails about 4, 1/4, 1, 10 and 1/20 times as often.
        for (hourIndex, candidateShareOfBad) in ([4, 0.25, 1, 10, 0.05] as [Double]).flatMap { Array(repeating: $0, count: 100) }.enumerated() {
            let trials = Int64.random(in: 0...5_000, using: &generator)
            let candidateTrials = [0, 1, trials / 1_000, trials / 2, trials - 1, trials][hourIndex % 6]
            let candidateBad = Int64.random(in: 0...Int64(Double(candidateTrials) / 20 * candidateShareOfBad), using: &generator)
            let baselineBad = Int64.random(in: 0...max(0, (trials - candidateTrials) / 20), using: &generator)
            let hour = SequentialRateTest.Hour(
                candidateBad: candidateBad, candidateTrials: candidateTrials, baselineBad: baselineBad, baselineTrials: trials - candidateTrials)
            evidence.add(hour)
            guard candidateTrials > 0, trials > candidateTrials, candidateBad + baselineBad > 0 else { continue }
            let s = Double(candidateTrials) / Double(trials)
            let null = share(nullRatio, s)
            for (index, ratio) in alternatives.enumerated() {
                let alternative = share(ratio, s)
                sums[index] += Double(candidateBad) * log(alternative / null) + Double(baselineBad) * log((1 - alternative) / (1 - null))
            }
            let largest = sums.max()!
            peak = max(peak, largest + log(sums.reduce(0) { $0 + exp($1 - largest) } / Double(sums.count)))
            #expect(abs(evidence.peakLog - peak) <= 1e-9 * max(1, peak), "\(evidence.peakLog) against \(peak)")
        }
        #expect(peak > 0, "no stretch gave evidence: the mixture was not compared")
    }

    /// Without bad events on either side there is no evidence either way.
    @Test func noBadEventsNoEvidence() {
        let hours = Array(repeating: SequentialRateTest.Hour(candidateBad: 0, candidateTrials: 50, baselineBad: 0, baselineTrials: 950), count: 10)
        #expect(SequentialRateTest.pValue(hours, nullRatio: 1, direction: .worse) == 1)
        #expect(SequentialRateTest.pValue(hours, nullRatio: 2, direction: .better) == 1)
    }

    /// The trials said to settle a drop from the start are about those an identical candidate needs, at a
    /// small share and at half the traffic (where the small-share formula would say half as many).
    @Test(arguments: [0.1, 0.5])
    func theTrialsToSettleAreAboutThoseNeeded(share: Double) throws {
        let estimate = try #require(SequentialRateTest.trialsToSettle([], nullRatio: 2, baselineRate: 0.01, share: share, alpha: 0.05))
        let hour = steady(hours: 1, share: share, candidateRate: 0.01)[0]
        var hours: [SequentialRateTest.Hour] = []
        while SequentialRateTest.pValue(hours, nullRatio: 2, direction: .better) >= 0.05 { hours.append(hour) }
        let needed = Double(hours.count) * Double(hour.candidateTrials)
        #expect(abs(Double(estimate) - needed) <= 0.3 * needed, "estimated \(estimate), needed \(needed)")
        // What the first hours gave is taken off.
        let later = try #require(
            SequentialRateTest.trialsToSettle(
                Array(hours.prefix(hours.count / 2)), nullRatio: 2, baselineRate: 0.01, share: share, alpha: 0.05))
        #expect(later < estimate)
    }

    /// A regression allowed so small that no app could make the trials to settle it: unknown, not a
    /// number past Int64 (which trapped).
    @Test(arguments: [1.000_000_1, 1.000_000_000_1, 1])
    func trialsPastAnyAppAreUnknown(nullRatio: Double) {
        #expect(SequentialRateTest.trialsToSettle([], nullRatio: nullRatio, baselineRate: 0.01, share: 0.5, alpha: 0.05) == nil)
    }
}
