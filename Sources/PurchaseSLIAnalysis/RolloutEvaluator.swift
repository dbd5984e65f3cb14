import Foundation
import PurchaseSLICore

/// Compares a candidate app version with its baseline and says what to do with the phased release.
/// Pure: a function of the hourly counts, the phased release's progress and the policy.
///
/// Every test is anytime-valid (``SequentialRateTest``): the verdict may be asked for every hour of a
/// week, and the chance that an identical release is ever held or rolled back stays under the rule's
/// significance. Each hour of the range is one look: ``RolloutReport/checks`` says what each said.
public struct RolloutEvaluator: Sendable {
    /// The policy: the objectives (which actions are compared for `proceed`) and the rollout rule.
    public let policy: SLOPolicy

    /// Creates an evaluator for `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    /// The verdict at the end of the range, with every comparison and what each hourly check said.
    ///
    /// Every metric of every action and slice is tested one-sided for a regression where both sides
    /// have `minimumSamples` trials, Holm-corrected over all the tests. A significant regression of at
    /// least `minimumEffect` in the success or unfinished rate means `rollback`, in the 409 or cancel rate
    /// `hold`. Otherwise `proceed` needs each of the rule's `actions` to have ruled out a success-rate drop
    /// over `maximumRegression` with the confidence the next step of the phased release asks; once
    /// ruled out at a look, it stays ruled out (the guarantee covers every look), so a settled release
    /// does not go back to waiting on noise. Else `insufficient-data`.
    ///
    /// With the newest event at least `staleAfter` old (or none), the verdict is `stale`.
    public func evaluate(_ inputs: RolloutInputs, freshness: DataFreshness? = nil) -> RolloutReport {
        var run = Run(evaluator: self, inputs: inputs)
        var checks: [RolloutCheck] = []
        let firstHour = inputs.fromSeconds - inputs.fromSeconds.floorDividedBy(.secondsPerHour).remainder
        for hour in stride(from: firstHour, to: inputs.toSeconds, by: .secondsPerHour) {
            run.add(hourStarting: hour)
            let end = min(hour + .secondsPerHour, inputs.toSeconds)
            var look = run.look(at: end, detailed: end == inputs.toSeconds)
            if let release = inputs.release, release.isGone(at: end) { look.gone(release, checks: checks) }
            checks.append(RolloutCheck(timeSeconds: end, step: look.progress?.step, verdict: look.verdict, reason: look.reasons.first))
            if end == inputs.toSeconds { return report(look, inputs: inputs, freshness: freshness, checks: checks) }
        }
        var look = run.look(at: inputs.toSeconds, detailed: true)
        if let release = inputs.release, release.isGone(at: inputs.toSeconds) { look.gone(release, checks: checks) }
        return report(look, inputs: inputs, freshness: freshness, checks: checks)
    }

    private func report(_ look: Look, inputs: RolloutInputs, freshness: DataFreshness?, checks: [RolloutCheck]) -> RolloutReport {
        var (verdict, reasons, checks) = (look.verdict, look.reasons, checks)
        if let freshness, freshness.age().map({ $0 >= policy.rollout.staleAfterSeconds }) ?? true {
            // No verdict, but what the data up to its newest event shows is still said.
            let stale = RolloutReport.Reason.staleData(newestEventSeconds: freshness.newestEvent(), ageSeconds: freshness.age())
            (verdict, reasons) = (.stale, [stale] + reasons.filter { if case .regression = $0 { true } else { false } })
            // The check at the evaluation time says so too.
            if !checks.isEmpty { (checks[checks.count - 1].verdict, checks[checks.count - 1].reason) = (.stale, stale) }
        }
        var report = RolloutReport(
            candidate: inputs.candidate, baseline: inputs.baseline, fromSeconds: inputs.fromSeconds, toSeconds: inputs.toSeconds,
            verdict: verdict, reasons: reasons, comparisons: look.comparisons, progress: look.progress, checks: checks)
        report.platforms = inputs.platforms.sorted()
        if case .regression(let comparison) = reasons.first {
            report.suspectVariant = suspectVariant(comparison.metric, action: comparison.slice.actionType, inputs: inputs)
        }
        return report
    }

    /// The candidate's variant of `action` with the worst `metric` among those with at least a tenth of
    /// its trials (and 20 or more), when its events carry variants.
    private func suspectVariant(_ metric: RateMetric, action: String, inputs: RolloutInputs) -> VariantRate? {
        let variants = (inputs.candidateVariants[action] ?? [:]).compactMap { variant, counts -> (String, OutcomeCounts)? in
            variant.map { ($0, counts) }
        }
        let trials = variants.reduce(0) { $0 + metric.badEvents($1.1).trials }
        func badRate(_ counts: OutcomeCounts) -> Double? {
            let bad = metric.badEvents(counts)
            return bad.trials == 0 ? nil : Double(bad.count) / Double(bad.trials)
        }
        let candidates = variants.filter { metric.badEvents($0.1).trials >= max(20, trials / 10) }
        guard let worst = candidates.max(by: { (badRate($0.1) ?? 0, $1.0) < (badRate($1.1) ?? 0, $0.0) }) else { return nil }
        let others = variants.filter { $0.0 != worst.0 }.reduce(OutcomeCounts()) { $0 + $1.1 }
        let (bad, otherBad) = (metric.badEvents(worst.1), metric.badEvents(others))
        let p = ProportionTest.fisherUpperTail(count: bad.count, trials: bad.trials, otherCount: otherBad.count, otherTrials: otherBad.trials)
        return VariantRate(
            variant: worst.0, metric: metric, actionType: action, rate: metric.rate(worst.1) ?? 0, trials: bad.trials,
            othersRate: metric.rate(others), othersTrials: otherBad.trials, isSignificantlyWorse: otherBad.trials > 0 && p < 0.01)
    }

    /// What one look concluded.
    struct Look {
        var verdict: RolloutReport.Verdict
        var reasons: [RolloutReport.Reason]
        var comparisons: [RolloutComparison]
        var progress: RolloutReport.Progress?

        /// The candidate is gone: no verdict to act on, but what the data showed while it was live (its
        /// regressions) is still said, after the last hourly check of its last hour present.
        mutating func gone(_ release: PhasedRelease, checks: [RolloutCheck]) {
            let lastSeen = release.lastPresentSeconds + .secondsPerHour
            let lastLive = checks.last { $0.timeSeconds <= lastSeen && $0.verdict != .gone }
            verdict = .gone
            reasons =
                [.candidateGone(lastSeenSeconds: lastSeen, lastVerdict: lastLive)]
                + reasons.filter { if case .regression = $0 { true } else { false } }
        }
    }

    /// The evaluation of one range, hour by hour: each comparison's evidence grows as hours are added.
    struct Run {
        let evaluator: RolloutEvaluator
        let inputs: RolloutInputs
        var states: [ComparisonState]
        /// The highest confidence with which each action's drop was ruled out at a look so far.
        var ruledOutConfidence: [String: Double] = [:]
        /// Each state's hours with counts, by time, and how many of them the hours added so far passed.
        private let stateHours: [[RolloutInputs.HourCounts]]
        private var passed: [Int]

        init(evaluator: RolloutEvaluator, inputs: RolloutInputs) {
            self.evaluator = evaluator
            self.inputs = inputs
            // In report order from the start: each look then only moves its regressions first.
            states = Self.uniqueSlices(inputs).flatMap { labels in RateMetric.allCases.map { ComparisonState(metric: $0, labels: labels) } }
                .sorted { Self.reportOrder($0.labels, $0.metric, $1.labels, $1.metric) }
            stateHours = states.map { inputs.hourly[$0.labels] ?? [] }
            passed = Array(repeating: 0, count: states.count)
        }

        /// The slices in label order, without a slice whose counts equal one of another dimension of the
        /// same action (a plan sold as one product would otherwise be tested twice); two plans, or two
        /// products, with equal counts are both kept.
        private static func uniqueSlices(_ inputs: RolloutInputs) -> [SeriesLabels] {
            var seen: [String: [[OutcomeCounts]: EventDimension]] = [:]
            return inputs.counts.sorted { $0.key < $1.key }.filter { labels, pair in
                guard let dimension = labels.slice?.dimension else { return true }
                let counts = [pair.candidate, pair.baseline]
                if let other = seen[labels.actionType]?[counts], other != dimension { return false }
                seen[labels.actionType, default: [:]][counts] = dimension
                return true
            }.map(\.key)
        }

        /// Adds the hour starting at `start` to every comparison.
        mutating func add(hourStarting start: Int64) {
            for index in states.indices {
                let hours = stateHours[index]
                while passed[index] < hours.count, hours[passed[index]].startSeconds < start { passed[index] += 1 }
                guard passed[index] < hours.count, hours[passed[index]].startSeconds == start else { continue }
                states[index].add(hours[passed[index]])
                passed[index] += 1
            }
        }

        /// The verdict at `time`, after the hours before it were added. `detailed` adds what only a
        /// report shows: each comparison's interval and the largest drop still possible.
        mutating func look(at time: Int64, detailed: Bool) -> Look {
            let rule = evaluator.policy.rollout
            let minimum = Int64(rule.minimumSamples)
            var comparisons = states.compactMap { $0.comparison(minimumSamples: minimum) }
            // Holm over every comparison of the range, an untested one at p = 1: a family that grew as
            // slices reached minimumSamples would test early looks against a laxer threshold.
            let adjustedPValues = ProportionTest.holmAdjusted(comparisons.map { $0.pValue ?? 1 })
            for index in comparisons.indices where comparisons[index].isTested {
                let adjusted = adjustedPValues[index]
                comparisons[index].adjustedPValue = adjusted
                let worsening = (comparisons[index].effect ?? 0) * (comparisons[index].metric.showsGoodShare ? -1 : 1)
                comparisons[index].isRegression = adjusted < rule.significance && worsening >= rule.minimumEffect
            }
            if detailed {
                // Bounds of what a person reads: each action, and the slices that regressed or moved by the
                // minimum effect.
                for (index, state) in zip(comparisons.indices, states.filter { $0.hasTrials })
                where comparisons[index].isTested
                    && (state.labels.slice == nil || comparisons[index].isRegression || abs(comparisons[index].effect ?? 0) >= rule.minimumEffect)
                {
                    comparisons[index].effectInterval = state.effectInterval()
                }
            }
            for index in comparisons.indices where comparisons[index].isRegression && comparisons[index].metric == .successRate {
                comparisons[index].lostAmounts = Self.lostAmounts(of: comparisons[index], among: comparisons, prices: inputs.prices)
            }
            // Regressions first, each part in the states' report order (``reportOrder(_:_:_:_:)``).
            let regressions = comparisons.filter(\.isRegression)
            let progress = self.progress(at: time)
            if !regressions.isEmpty {
                comparisons = regressions + comparisons.filter { !$0.isRegression }
                let verdict: RolloutReport.Verdict = regressions.contains { $0.metric.losesMoney } ? .rollback : .hold
                let reasons = (regressions.filter(\.metric.losesMoney) + regressions.filter { !$0.metric.losesMoney }).map {
                    RolloutReport.Reason.regression($0)
                }
                return Look(verdict: verdict, reasons: reasons, comparisons: comparisons, progress: progress)
            }
            let (verdict, reasons) = coverage(comparisons, at: time, confidence: progress?.confidence ?? rule.defaultConfidence, detailed: detailed)
            return Look(verdict: verdict, reasons: reasons, comparisons: comparisons, progress: progress)
        }

        /// What the excess failures of `comparison` cost, per currency: of a plan or product at its
        /// latest price; of a whole action, the sum over its products' (or plans') success-rate comparisons.
        static func lostAmounts(
            of comparison: RolloutComparison, among comparisons: [RolloutComparison], prices: [ProductPrice]
        ) -> [String: Double] {
            func latest(_ matching: (ProductPrice) -> Bool) -> ProductPrice? {
                prices.filter(matching).max { $0.seenMillis < $1.seenMillis }
            }
            func cost(_ excess: Double?, _ price: ProductPrice?) -> [String: Double] {
                guard let excess, excess > 0, let price else { return [:] }
                return [price.currency: excess * price.price]
            }
            guard let slice = comparison.slice.slice else {
                // The action's products, or its plans where a plan and its product were one comparison.
                let parts = comparisons.filter { $0.metric == .successRate && $0.slice.actionType == comparison.slice.actionType }
                let products = parts.filter { $0.slice.slice?.dimension == .productID }
                return (products.isEmpty ? parts.filter { $0.slice.slice?.dimension == .planID } : products)
                    .reduce(into: [:]) { total, part in total.merge(lostAmounts(of: part, among: [], prices: prices), uniquingKeysWith: +) }
            }
            switch slice.dimension {
            case .planID: return cost(comparison.excessEvents, latest { $0.planID == slice.value })
            case .productID: return cost(comparison.excessEvents, latest { $0.productID == slice.value })
            default: return [:]
            }
        }

        /// The order a report lists comparisons in after its regressions: each action's whole first, then the
        /// slices, by labels; within one, the metrics in ``RateMetric`` order.
        private static func reportOrder(_ left: SeriesLabels, _ leftMetric: RateMetric, _ right: SeriesLabels, _ rightMetric: RateMetric) -> Bool {
            if left != right {
                return left.slice == nil && right.slice != nil || (left.slice == nil) == (right.slice == nil) && left < right
            }
            return RateMetric.allCases.firstIndex(of: leftMetric)! < RateMetric.allCases.firstIndex(of: rightMetric)!
        }

        private func progress(at time: Int64) -> RolloutReport.Progress? {
            guard let release = inputs.release else { return nil }
            let step = release.step(at: time)
            let next = step.flatMap(PhasedRelease.nextStep(after:))
            var progress = RolloutReport.Progress(
                step: step, nextStep: next, share: release.share(at: time), day: release.day(at: time),
                // An earlier release is left out only when the comparison starts after it.
                startSeconds: inputs.fromSeconds, earlierRelease: inputs.fromSeconds >= release.startSeconds ? release.earlierRelease : nil,
                confidence: evaluator.policy.rollout.confidence(beforeStep: next))
            progress.releaseStartSeconds = release.startSeconds
            progress.followsAppleSchedule = !inputs.platforms.isEmpty && Store.releasing(platforms: Array(inputs.platforms)) == [.apple]
            return progress
        }

        /// Without regressions: whether each action with an objective and baseline traffic has ruled out
        /// a material drop of its success rate with `confidence`; `proceed` needs the rule's actions to.
        private mutating func coverage(
            _ comparisons: [RolloutComparison], at time: Int64, confidence: Double, detailed: Bool
        ) -> (RolloutReport.Verdict, [RolloutReport.Reason]) {
            let rule = evaluator.policy.rollout
            let minimum = Int64(rule.minimumSamples)
            let actions = evaluator.policy.objectives.map(\.actionType).filter { action in
                (inputs.counts[SeriesLabels(actionType: action)]?.baseline.valid ?? 0) >= minimum
            }
            let blocking = Set(rule.actions).intersection(actions)
            guard !blocking.isEmpty else { return (.insufficientData, [.noTraffic]) }
            var verdict = RolloutReport.Verdict.proceed
            // The purchase flow's actions first, then the others, each in the policy's order.
            let ordered = actions.filter(blocking.contains) + actions.filter { !blocking.contains($0) }
            // An hourly check needs only the purchase flow's actions; a report says all.
            let reasons = ordered.filter { detailed || blocking.contains($0) }.compactMap { action -> RolloutReport.Reason? in
                let labels = SeriesLabels(actionType: action)
                guard let comparison = comparisons.first(where: { $0.metric == .successRate && $0.slice == labels }),
                    let index = states.firstIndex(where: { $0.metric == .successRate && $0.labels == labels })
                else { return nil }
                let alpha = 1 - confidence
                if comparison.candidate.trials >= minimum, comparison.baseline.trials >= minimum, (ruledOutConfidence[action] ?? 0) < confidence,
                    states[index].dropRuledOutPValue(points: rule.maximumRegression) < alpha
                {
                    ruledOutConfidence[action] = confidence
                }
                let state = states[index]
                let nullRatio = state.ratio(forDrop: rule.maximumRegression)
                if (ruledOutConfidence[action] ?? 0) >= confidence {
                    // Ruled out at an earlier look, the bound of today's baseline rate may say more than
                    // allowed: then it is not given.
                    let largest =
                        detailed
                        ? SequentialRateTest.bound(state.hours, direction: .better, alpha: alpha)
                            .map { max(0, ($0 - 1) * state.baselineRate) }.flatMap { $0 <= rule.maximumRegression ? $0 : nil }
                        : nil
                    return .ruledOut(comparison, largestDrop: largest, allowed: rule.maximumRegression, confidence: confidence)
                }
                if blocking.contains(action) { verdict = .insufficientData }
                guard detailed else {
                    return .notYetConclusive(comparison, allowed: rule.maximumRegression, moreTrials: nil, expectedBySeconds: nil, blocking: true)
                }
                let settling = SequentialRateTest.trialsToSettle(
                    state.hours, nullRatio: nullRatio, baselineRate: state.baselineRate, share: state.candidateShare(before: time), alpha: alpha)
                // Untested yet: at least the trials that make it tested.
                let more =
                    comparison.candidate.trials < minimum
                    ? max(minimum - comparison.candidate.trials, settling ?? 0) : settling
                let perSecond = state.candidateTrialsPerSecond(before: time)
                // To the next whole minute: a time to look again, not a measurement.
                let expectedBy = more.flatMap { more -> Int64? in
                    let wait = (Double(more) / perSecond).rounded(.up)
                    guard perSecond > 0, wait.isFinite, wait < 1e11 else { return nil }  // past 3,000 years: unknown
                    let seconds = time + Int64(wait)
                    return seconds + (.secondsPerMinute - seconds.floorDividedBy(.secondsPerMinute).remainder) % .secondsPerMinute
                }
                return .notYetConclusive(
                    comparison, allowed: rule.maximumRegression, moreTrials: more, expectedBySeconds: expectedBy,
                    blocking: blocking.contains(action))
            }
            return (verdict, reasons)
        }
    }
}

/// One metric of one slice as hours are added: totals, the regression evidence, and what the effect's
/// pooled estimate needs.
struct ComparisonState {
    let metric: RateMetric
    let labels: SeriesLabels
    /// The metric's bad events and trials in each hour with trials on either side.
    private(set) var hours: [SequentialRateTest.Hour] = []
    private var hourStarts: [Int64] = []
    private var regression = SequentialRateTest.Evidence(nullRatio: 1, direction: .worse)
    /// Evidence that a drop is ruled out, against the ratio a drop meant when it was started.
    private var ruleOut: SequentialRateTest.Evidence?
    private var total = SequentialRateTest.Hour(candidateBad: 0, candidateTrials: 0, baselineBad: 0, baselineTrials: 0)
    /// Mantel–Haenszel sums of the rate ratio: Σ candidate bad × baseline share, Σ baseline bad × candidate share.
    private var pooledNumerator = 0.0, pooledDenominator = 0.0
    /// Over the hours with trials on both sides: the candidate's bad events, and its trials × the
    /// baseline's bad rate of the same hour.
    private var pairedCandidateBad = 0.0, expectedCandidateBad = 0.0

    init(metric: RateMetric, labels: SeriesLabels) {
        self.metric = metric
        self.labels = labels
    }

    mutating func add(_ counts: RolloutInputs.HourCounts) {
        let candidate = metric.badEvents(counts.candidate)
        let baseline = metric.badEvents(counts.baseline)
        guard candidate.trials > 0 || baseline.trials > 0 else { return }
        let hour = SequentialRateTest.Hour(
            candidateBad: candidate.count, candidateTrials: candidate.trials, baselineBad: baseline.count, baselineTrials: baseline.trials)
        hours.append(hour)
        hourStarts.append(counts.startSeconds)
        regression.add(hour)
        ruleOut?.add(hour)
        total.candidateBad += candidate.count
        total.candidateTrials += candidate.trials
        total.baselineBad += baseline.count
        total.baselineTrials += baseline.trials
        if candidate.trials > 0, baseline.trials > 0 {
            let trials = Double(candidate.trials + baseline.trials)
            pooledNumerator += Double(candidate.count) * Double(baseline.trials) / trials
            pooledDenominator += Double(baseline.count) * Double(candidate.trials) / trials
            pairedCandidateBad += Double(candidate.count)
            expectedCandidateBad += Double(candidate.trials) * Double(baseline.count) / Double(baseline.trials)
        }
    }

    /// The baseline's bad rate over the hours so far, at least half an event among its trials (a
    /// baseline without bad events still bounds how rare they are).
    var baselineRate: Double {
        total.baselineTrials == 0 ? 0 : Double(max(total.baselineBad * 2, 1)) / Double(2 * total.baselineTrials)
    }

    /// The always-valid p-value of "the candidate's good share is at least `points` (a fraction) lower".
    /// The ratio that drop means moves with the baseline's rate; the evidence is gathered hour by hour
    /// and gathered again from the start only when that ratio has moved by more than 2 %.
    mutating func dropRuledOutPValue(points: Double) -> Double {
        let nullRatio = ratio(forDrop: points)
        if let evidence = ruleOut, abs(evidence.nullRatio - nullRatio) <= 0.02 * nullRatio { return evidence.pValue }
        let evidence = SequentialRateTest.evidence(hours, nullRatio: nullRatio, direction: .better)
        ruleOut = evidence
        return evidence.pValue
    }

    /// The rate ratio that a drop of `points` (a fraction) of the good share means at the baseline's rate.
    func ratio(forDrop points: Double) -> Double {
        1 + points / max(baselineRate, 1e-9)
    }

    /// The candidate's share of the trials over the last day of its hours before `time` (0 without any).
    func candidateShare(before time: Int64) -> Double {
        let day = lastDay(before: time)
        let trials = day.reduce(0) { $0 + $1.candidateTrials + $1.baselineTrials }
        return trials == 0 ? 0 : Double(day.reduce(0) { $0 + $1.candidateTrials }) / Double(trials)
    }

    /// The candidate's trials per second over the last day of its hours before `time`.
    func candidateTrialsPerSecond(before time: Int64) -> Double {
        let trials = lastDay(before: time).reduce(0) { $0 + $1.candidateTrials }
        let span = max(.secondsPerHour, min(.secondsPerDay, time - (hourStarts.first ?? time)))
        return Double(trials) / Double(span)
    }

    /// The hours of the day before `time`.
    private func lastDay(before time: Int64) -> [SequentialRateTest.Hour] {
        zip(hourStarts, hours).filter { $0.0 >= time - .secondsPerDay && $0.0 < time }.map(\.1)
    }

    /// Whether either side has trials: whether ``comparison(minimumSamples:)`` gives a comparison.
    var hasTrials: Bool { total.candidateTrials > 0 || total.baselineTrials > 0 }

    /// The comparison so far: nil when neither side has trials; tested when both have `minimumSamples`.
    func comparison(minimumSamples minimum: Int64) -> RolloutComparison? {
        guard hasTrials else { return nil }
        func side(_ bad: Int64, _ trials: Int64) -> RolloutComparison.Side {
            .init(count: metric.showsGoodShare ? trials - bad : bad, trials: trials)
        }
        var result = RolloutComparison(
            metric: metric, slice: labels, candidate: side(total.candidateBad, total.candidateTrials),
            baseline: side(total.baselineBad, total.baselineTrials))
        guard total.candidateTrials > 0, total.baselineTrials > 0 else { return result }
        let sign = metric.showsGoodShare ? -1.0 : 1.0
        let rawExcess = Double(total.candidateBad) / Double(total.candidateTrials) - Double(total.baselineBad) / Double(total.baselineTrials)
        let pooledExcess = pooledDenominator > 0 ? (pooledNumerator / pooledDenominator - 1) * baselineRate : rawExcess
        result.effect = sign * pooledExcess
        result.excessEvents = pairedCandidateBad - expectedCandidateBad
        if total.candidateTrials >= minimum, total.baselineTrials >= minimum { result.pValue = regression.pValue }
        return result
    }

    /// The effect's bounds at 95 % confidence valid at every look (2.5 % each side), in the metric's
    /// direction; nil when the baseline has no bad events, against which no ratio is bounded, or when the
    /// two bounds cross.
    func effectInterval() -> ClosedRange<Double>? {
        guard total.baselineBad > 0 else { return nil }
        let lower = SequentialRateTest.bound(hours, direction: .worse, alpha: 0.025).map { ($0 - 1) * baselineRate } ?? -baselineRate
        let upper = min(1 - baselineRate, SequentialRateTest.bound(hours, direction: .better, alpha: 0.025).map { ($0 - 1) * baselineRate } ?? 1)
        // Two one-sided bounds cross when the hours contradict each other (a ratio that changed during
        // the release): then no single interval describes it.
        guard lower <= upper else { return nil }
        return metric.showsGoodShare ? -upper ... -lower : lower...upper
    }
}
