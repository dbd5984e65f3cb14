import PurchaseSLICore

/// Compares a candidate app version with its baseline and says what to do with the phased release.
/// Pure: a function of the counts and the policy.
public struct RolloutEvaluator: Sendable {
    /// The policy: the objectives (which actions must be seen to proceed) and the rollout rule.
    public let policy: SLOPolicy

    /// Creates an evaluator for `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    /// Every metric of every action and slice, tested one-sided for a regression with Fisher's exact
    /// test where both sides have `minimumSamples` trials, Holm-corrected over all the tests. A
    /// significant regression of at least `minimumEffect` in the success or unfinished rate means
    /// `rollback`, in the 409 or cancel rate `hold`. Otherwise `proceed` needs the busiest action with an
    /// objective to have enough candidate events for the 95 % interval to rule out a success-rate drop
    /// over `maximumRegression`, and no other tested action still in doubt; else `insufficient-data`.
    ///
    /// With `freshness` stale (no event within the loss-of-signal window before the evaluation time), the
    /// verdict is `stale` whatever the comparisons say: a release is not judged on data of the past.
    public func evaluate(_ inputs: RolloutInputs, freshness: DataFreshness? = nil) -> RolloutReport {
        let rule = policy.rollout
        var comparisons = uniqueSlices(inputs).flatMap { labels, pair in
            RateMetric.allCases.compactMap { comparison($0, labels, pair.candidate, pair.baseline) }
        }
        let tested = comparisons.indices.filter { comparisons[$0].isTested }
        for (index, adjusted) in zip(tested, ProportionTest.holmAdjusted(tested.map { comparisons[$0].pValue! })) {
            comparisons[index].adjustedPValue = adjusted
            let worsening = (comparisons[index].effect ?? 0) * (comparisons[index].metric.showsGoodShare ? -1 : 1)
            comparisons[index].isRegression = adjusted < rule.significance && worsening >= rule.minimumEffect
        }
        comparisons.sort { left, right in
            if left.isRegression != right.isRegression { return left.isRegression }
            if left.slice != right.slice { return left.slice.slice == nil && right.slice.slice != nil
                || (left.slice.slice == nil) == (right.slice.slice == nil) && left.slice < right.slice }
            return RateMetric.allCases.firstIndex(of: left.metric)! < RateMetric.allCases.firstIndex(of: right.metric)!
        }
        let regressions = comparisons.filter(\.isRegression)
        let (verdict, reasons): (RolloutReport.Verdict, [RolloutReport.Reason])
        if let freshness, freshness.isStale() {
            (verdict, reasons) = (.stale, [.staleData(newestEventSeconds: freshness.newestEvent(), ageSeconds: freshness.age())])
        } else if !regressions.isEmpty {
            verdict = regressions.contains { $0.metric.losesMoney } ? .rollback : .hold
            reasons = (regressions.filter(\.metric.losesMoney) + regressions.filter { !$0.metric.losesMoney }).map { .regression($0) }
        } else {
            (verdict, reasons) = coverage(comparisons)
        }
        return RolloutReport(
            candidate: inputs.candidate, baseline: inputs.baseline, fromSeconds: inputs.fromSeconds,
            toSeconds: inputs.toSeconds, verdict: verdict,
            reasons: reasons, comparisons: comparisons)
    }

    /// The slices in label order, without a slice whose counts equal one of another dimension of the
    /// same action (a plan sold as one product would otherwise be tested twice); two plans, or two
    /// products, with equal counts are both kept.
    private func uniqueSlices(_ inputs: RolloutInputs) -> [(SeriesLabels, (candidate: OutcomeCounts, baseline: OutcomeCounts))] {
        var seen: [String: [[OutcomeCounts]: EventDimension]] = [:]
        return inputs.counts.sorted { $0.key < $1.key }.filter { labels, pair in
            guard let dimension = labels.slice?.dimension else { return true }
            let counts = [pair.candidate, pair.baseline]
            if let other = seen[labels.actionType]?[counts], other != dimension { return false }
            seen[labels.actionType, default: [:]][counts] = dimension
            return true
        }
    }

    private func comparison(
        _ metric: RateMetric, _ labels: SeriesLabels, _ candidate: OutcomeCounts, _ baseline: OutcomeCounts
    ) -> RolloutComparison? {
        let bad = (metric.badEvents(candidate), metric.badEvents(baseline))
        guard bad.0.trials > 0 || bad.1.trials > 0 else { return nil }
        func side(_ events: (count: Int64, trials: Int64)) -> RolloutComparison.Side {
            .init(count: metric.showsGoodShare ? events.trials - events.count : events.count, trials: events.trials)
        }
        var result = RolloutComparison(metric: metric, slice: labels, candidate: side(bad.0), baseline: side(bad.1))
        guard bad.0.trials > 0, bad.1.trials > 0 else { return result }
        result.effect = result.candidate.rate! - result.baseline.rate!
        result.effectInterval = ProportionTest.differenceInterval(
            count: result.candidate.count, trials: result.candidate.trials,
            otherCount: result.baseline.count, otherTrials: result.baseline.trials)
        let minimum = Int64(policy.rollout.minimumSamples)
        if bad.0.trials >= minimum, bad.1.trials >= minimum {
            result.pValue = ProportionTest.fisherUpperTail(
                count: bad.0.count, trials: bad.0.trials, otherCount: bad.1.count, otherTrials: bad.1.trials)
        }
        return result
    }

    /// Without regressions: for each action with an objective and baseline traffic, whether the
    /// candidate was seen enough to rule out a material drop of its success rate. Proceeding needs the
    /// busiest of them ruled out and none still in doubt; an action too rare on the candidate to test is
    /// said but does not hold the release back.
    private func coverage(_ comparisons: [RolloutComparison]) -> (RolloutReport.Verdict, [RolloutReport.Reason]) {
        let minimum = Int64(policy.rollout.minimumSamples)
        let overall = policy.objectives.compactMap { objective in
            comparisons.first { $0.metric == .successRate && $0.slice == SeriesLabels(actionType: objective.actionType) }
        }.filter { $0.baseline.trials >= minimum }.sorted { $0.baseline.trials > $1.baseline.trials }
        guard let busiest = overall.first else { return (.insufficientData, [.noTraffic]) }
        var verdict = RolloutReport.Verdict.proceed
        let reasons = overall.map { comparison -> RolloutReport.Reason in
            guard comparison.candidate.trials >= minimum, let interval = comparison.effectInterval else {
                if comparison.slice == busiest.slice { verdict = .insufficientData }
                return .tooFewEvents(actionType: comparison.slice.actionType, candidateTrials: comparison.candidate.trials, needed: minimum)
            }
            let largestDrop = max(0, -interval.lowerBound)
            guard largestDrop <= policy.rollout.maximumRegression else {
                verdict = .insufficientData
                return .cannotRuleOut(comparison, largestDrop: largestDrop, allowed: policy.rollout.maximumRegression)
            }
            return .ruledOut(comparison, largestDrop: largestDrop, tested: comparisons.filter(\.isTested).count)
        }
        return (verdict, reasons)
    }
}
