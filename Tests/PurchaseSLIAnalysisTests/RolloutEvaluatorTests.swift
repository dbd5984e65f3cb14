import PurchaseSLICore
import Testing

@testable import PurchaseSLIAnalysis

/// Counts of one version in one plan of `purchase`: valid events, of which failures and 409s, and cancels.
struct PlanCounts {
    var valid: Int64
    var failures: Int64 = 0
    var conflicts: Int64 = 0
    var cancels: Int64 = 0

    var counts: OutcomeCounts {
        OutcomeCounts(
            start: valid + cancels, success: valid - failures - conflicts, alreadyGranted: conflicts,
            failure: failures, cancel: cancels, conflicts: conflicts)
    }
}

/// Rollout inputs for candidate 2.0 against baseline 1.9, with `purchase` split into plans.
private func inputs(candidate: [String: PlanCounts], baseline: [String: PlanCounts]) -> RolloutInputs {
    var actionRows: [CountRow] = []
    var planRows: [CountRow] = []
    for (version, plans) in [("2.0", candidate), ("1.9", baseline)] {
        actionRows.append(
            CountRow(
                timeSeconds: nil, key: [version, "purchase"],
                counts: plans.values.reduce(OutcomeCounts()) { $0 + $1.counts }))
        planRows += plans.map { CountRow(timeSeconds: nil, key: [version, "purchase", $0.key], counts: $0.value.counts) }
    }
    return RolloutInputs(
        candidate: "2.0", baseline: "1.9", fromSeconds: 0, toSeconds: 86_400,
        actionRows: actionRows, sliceRows: [.planID: planRows])
}

private let evaluator = RolloutEvaluator(policy: .default)

/// A healthy plan mix at a tenth of the baseline's traffic (times `scale`).
private func healthy(_ scale: Int64) -> [String: PlanCounts] {
    [
        "monthly": PlanCounts(valid: 300 * scale, failures: 2 * scale, conflicts: scale, cancels: 18 * scale),
        "yearly": PlanCounts(valid: 200 * scale, failures: scale, conflicts: scale, cancels: 12 * scale),
        "coins": PlanCounts(valid: 500 * scale, failures: 4 * scale, conflicts: 2 * scale, cancels: 30 * scale),
    ]
}

@Suite struct RolloutEvaluatorTests {
    @Test(
        arguments: [
            (3, 4, 1, 4, 17.0 / 70), (5, 5, 0, 5, 1.0 / 252), (0, 10, 4, 10, 1.0), (30, 1000, 10, 1000, 0.0010041667809150049),
            (12, 400, 40, 4000, 0.00192900203676253),
        ] as [(Int64, Int64, Int64, Int64, Double)])
    func fisherTestIsExact(count: Int64, trials: Int64, otherCount: Int64, otherTrials: Int64, expected: Double) {
        let p = ProportionTest.fisherUpperTail(count: count, trials: trials, otherCount: otherCount, otherTrials: otherTrials)
        #expect(abs(p - expected) <= 1e-6 * expected)
    }

    @Test func holmAdjustsStepDown() {
        let adjusted = ProportionTest.holmAdjusted([0.01, 0.04, 0.03, 0.005])
        for (value, expected) in zip(adjusted, [0.03, 0.06, 0.06, 0.02]) { #expect(abs(value - expected) < 1e-12) }
    }

    @Test func wilsonIntervalOfZeroIsNotEmpty() {
        let interval = ProportionTest.wilsonInterval(count: 0, trials: 10)
        #expect(interval.lowerBound == 0 && abs(interval.upperBound - 3.8416 / 13.8416) < 1e-9)
    }

    @Test(
        arguments: [
            // A clean release with plenty of data.
            ("clean", healthy(3), RolloutReport.Verdict.proceed, nil),
            // One plan fails 6 % of the time: the action's average moves by under 2 points.
            (
                "regressed plan", healthy(1).merging(["yearly": PlanCounts(valid: 200, failures: 12, conflicts: 1, cancels: 12)]) { $1 },
                .rollback, "planID=yearly"
            ),
            // Every purchase's receipt is sent twice: 409s, but purchases succeed.
            (
                "409s",
                healthy(1).mapValues {
                    var plan = $0
                    plan.conflicts = plan.valid / 20
                    return plan
                }, .hold, nil
            ),
            // Day one of a phased release: 40 purchases.
            ("too little", ["monthly": PlanCounts(valid: 40), "coins": PlanCounts(valid: 10)], .insufficientData, nil),
        ] as [(String, [String: PlanCounts], RolloutReport.Verdict, String?)])
    func verdicts(name: String, candidate: [String: PlanCounts], verdict: RolloutReport.Verdict, slice: String?) throws {
        let report = evaluator.evaluate(inputs(candidate: candidate, baseline: healthy(10)))
        #expect(report.verdict == verdict, "\(name)")
        if let slice {
            guard case .regression(let comparison) = try #require(report.reasons.first) else {
                Issue.record("\(name): expected a regression first, got \(report.reasons)")
                return
            }
            #expect(comparison.metric == .successRate)
            #expect(comparison.slice.pairs.map { "\($0.0)=\($0.1)" }.last == slice)
        }
    }

    /// A release is not judged on old data: with the newest event at least the rollout rule's staleAfter
    /// (3 hours) old (or none), the verdict is stale whatever the counts say; with a fresh one the counts decide.
    @Test(
        arguments: [
            (86_400 - 4 * 3600, RolloutReport.Verdict.stale), (86_400 - 3 * 3600 - 60, .stale), (nil, .stale), (86_400 - 2 * 3600, .rollback),
            (86_400 - 2 * 60, .rollback),
        ] as [(Int64?, RolloutReport.Verdict)])
    func staleDataGetsNoVerdict(newestEvent: Int64?, expected: RolloutReport.Verdict) {
        var regressed = healthy(10)
        regressed["monthly"]?.failures = 300
        let freshness = DataFreshness(
            atSeconds: 86_400, newestEventSeconds: newestEvent.map { ["purchase": $0] } ?? [:], staleAfterSeconds: 30 * 60)
        let report = evaluator.evaluate(inputs(candidate: regressed, baseline: healthy(10)), freshness: freshness)
        #expect(report.verdict == expected)
        #expect(report.checks.last?.verdict == expected, "the check at the evaluation time says the same")
        #expect(report.comparisons.contains { $0.isRegression }, "the comparisons are still made")
    }

    @Test func twoPlansWithEqualCountsAreBothCompared() {
        let plans = ["a": PlanCounts(valid: 300, failures: 30), "b": PlanCounts(valid: 300, failures: 30)]
        let report = evaluator.evaluate(
            inputs(
                candidate: plans,
                baseline: [
                    "a": PlanCounts(valid: 3000, failures: 3),
                    "b": PlanCounts(valid: 3000, failures: 3),
                ]))
        let regressed = Set(report.comparisons.filter { $0.metric == .successRate && $0.isRegression }.compactMap(\.slice.slice?.value))
        #expect(regressed == ["a", "b"])
    }

    @Test func aFewHundredEventsCannotRuleOutADrop() {
        let candidate = ["monthly": PlanCounts(valid: 120, failures: 2), "coins": PlanCounts(valid: 30)]
        let report = evaluator.evaluate(inputs(candidate: candidate, baseline: healthy(10)))
        #expect(report.verdict == .insufficientData)
        #expect(report.reasons.contains { if case .notYetConclusive = $0 { true } else { false } })
    }

    /// A rollback names the feature-flag variant that fares worst on the candidate, with both sides' numbers.
    @Test func aRollbackNamesTheWorstVariant() throws {
        var regressed = healthy(3)
        regressed["monthly"]?.failures = 90
        var inputs = inputs(candidate: regressed, baseline: healthy(30))
        let bad = PlanCounts(valid: 2_400, failures: 90).counts
        let good = PlanCounts(valid: 600, failures: 2).counts
        inputs.candidateVariants = ["purchase": ["storekit2": bad, "storekit1": good, nil: PlanCounts(valid: 5).counts]]
        let report = evaluator.evaluate(inputs)
        #expect(report.verdict == .rollback)
        let suspect = try #require(report.suspectVariant)
        #expect(suspect.variant == "storekit2" && suspect.trials == 2_400 && suspect.othersTrials == 600)
        #expect(abs(suspect.rate - (1 - 90.0 / 2_400)) < 1e-9 && abs((suspect.othersRate ?? 0) - (1 - 2.0 / 600)) < 1e-9)
        #expect(suspect.isSignificantlyWorse)
        // Variants that fail alike: the worst is still given, but not as the flag to blame.
        inputs.candidateVariants = [
            "purchase": [
                "storekit2": PlanCounts(valid: 2_400, failures: 72).counts,
                "storekit1": PlanCounts(valid: 600, failures: 17).counts,
            ]
        ]
        let alike = try #require(evaluator.evaluate(inputs).suspectVariant)
        #expect(alike.variant == "storekit2" && !alike.isSignificantlyWorse)
    }

    /// What a regression lost, at the latest price events carried: a plan at its price, the action as
    /// the sum over its plans, per currency.
    @Test func aRollbackSaysWhatTheLostPurchasesCost() throws {
        var regressed = healthy(3)
        regressed["monthly"]?.failures = 90
        var inputs = inputs(candidate: regressed, baseline: healthy(30))
        inputs.prices = [
            ProductPrice(productID: "pro", planID: "monthly", price: 9.99, currency: "USD", seenMillis: 2),
            ProductPrice(productID: "pro-old", planID: "monthly", price: 4.99, currency: "USD", seenMillis: 1),
        ]
        let report = evaluator.evaluate(inputs)
        let plan = try #require(report.comparisons.first { $0.isRegression && $0.slice.slice?.value == "monthly" && $0.metric == .successRate })
        let excess = try #require(plan.excessEvents)
        #expect(excess > 80 && abs((plan.lostAmounts["USD"] ?? 0) - excess * 9.99) < 1e-6, "\(plan.lostAmounts)")
        let action = try #require(report.comparisons.first { $0.isRegression && $0.slice.slice == nil && $0.metric == .successRate })
        #expect(abs((action.lostAmounts["USD"] ?? 0) - excess * 9.99) < 1e-6, "only the monthly plan has a price and lost")
    }
}
