import PurchaseSLICore
import Testing

@testable import PurchaseSLIAnalysis

@Suite struct PeriodComparisonTests {
    @Test func aDropInSuccessIsWorseAndSignificant() {
        let comparison = PeriodComparison(
            .successRate, current: OutcomeCounts(success: 950, failure: 50), previous: OutcomeCounts(success: 995, failure: 5),
            minimumTrials: 100)
        #expect(comparison.isWorse)
        #expect(abs((comparison.change ?? 0) + 0.045) < 1e-12)
        #expect((comparison.pValue ?? 1) < 1e-8)
    }

    @Test func twoSidedTestIsSymmetric() {
        let up = PeriodComparison(
            .conflictRate, current: OutcomeCounts(success: 180, alreadyGranted: 20, conflicts: 20),
            previous: OutcomeCounts(success: 195, alreadyGranted: 5, conflicts: 5), minimumTrials: 100)
        let down = PeriodComparison(
            .conflictRate, current: OutcomeCounts(success: 195, alreadyGranted: 5, conflicts: 5),
            previous: OutcomeCounts(success: 180, alreadyGranted: 20, conflicts: 20), minimumTrials: 100)
        #expect(up.isWorse && !down.isWorse)
        #expect(abs((up.pValue ?? 0) - (down.pValue ?? 1)) < 1e-12)
        // Twice the one-sided Fisher tail.
        let oneSided = ProportionTest.fisherUpperTail(count: 20, trials: 200, otherCount: 5, otherTrials: 200)
        #expect(abs((up.pValue ?? 0) - 2 * oneSided) < 1e-12)
    }

    @Test func fewTrialsAreNotTestedAndHolmCorrects() {
        var comparisons = [
            PeriodComparison(
                .successRate, current: OutcomeCounts(success: 40, failure: 10), previous: OutcomeCounts(success: 50),
                minimumTrials: 100),
            PeriodComparison(
                .successRate, current: OutcomeCounts(success: 900, failure: 100), previous: OutcomeCounts(success: 1000),
                minimumTrials: 100),
            PeriodComparison(
                .cancelRate, current: OutcomeCounts(success: 900, cancel: 100), previous: OutcomeCounts(success: 900, cancel: 95),
                minimumTrials: 100),
        ]
        #expect(comparisons[0].pValue == nil)
        PeriodComparison.correct(&comparisons)
        #expect(comparisons[0].adjustedPValue == nil)
        #expect(comparisons[1].adjustedPValue == min(1, 2 * comparisons[1].pValue!))
        #expect(comparisons[1].isSignificant(at: 0.01) && !comparisons[2].isSignificant(at: 0.01))
    }
}
