import PurchaseSLICore

/// The multi-window burn-rate test of a series against its objective: which rule fires at a minute, and
/// whether the series has recovered. Shared by ``SuccessRateBurnRule`` and the paged minutes it takes out
/// of tickets.
struct BurnRateTest: Sendable {
    /// The policy in force.
    let policy: SLOPolicy
    /// Its rules, most urgent first (``SLOPolicy/rulesByUrgency``).
    let rules: [SLOPolicy.BurnRateRule]
    /// The widest short window of the rules: a slice without the minimum of failures in it burns on none.
    let widestShortWindowSeconds: Int64

    init(policy: SLOPolicy) {
        self.policy = policy
        rules = policy.rulesByUrgency
        widestShortWindowSeconds = rules.map(\.shortWindowSeconds).max() ?? 0
    }

    /// How far back a burn reads: the longest rule window.
    var reachSeconds: Int64 { policy.rules.map(\.longWindowSeconds).max() ?? 0 }
    /// How far back the paged minutes a ticket leaves out reach: the longest ticket window.
    var ticketReachSeconds: Int64 { policy.rules.filter { $0.severity == .ticket }.map(\.longWindowSeconds).max() ?? 0 }

    /// The most urgent rule firing for `series`, as evidence, or nil. A window with fewer than the minimum valid
    /// events has no burn rate, so low traffic never fires (and zero traffic gives no NaN); the long
    /// window's failures must exceed the error budget beyond chance (`burnSignificance`); a rule whose
    /// long window reaches back before the action's first event (`dataSince`) waits until it does not,
    /// so that a "3 day" window is never a few minutes of data. On thin traffic an action's short window
    /// reaches back until it holds `minimumValidEvents`, to at most twice its length, so that an incident
    /// at a few attempts a minute is still seen to go on. When the series (or,
    /// for a slice, its `action`) has recovered (``hasRecovered(_:objective:at:)``) within a page rule's
    /// short window, what came since must fire the rule on its own, so an incident that is over does not
    /// page again from the failures its windows still hold. A ticket rule that fires is tried again
    /// without the minutes its series or action was paged for (`paged` gives their counts from a time to
    /// `time`): budget an incident spent while paged opens no ticket afterwards. With `pagesOnly`, only
    /// the page rules are tried.
    func burn(
        _ series: MinuteSeries, action: MinuteSeries? = nil, objective: SLOPolicy.Objective, at time: Int64, dataSince: Int64,
        pagesOnly: Bool = false, paged: ((MinuteSeries, Int64) -> OutcomeCounts)? = nil
    ) -> BurnEvidence? {
        // The evidence is made once, of the rule that fires most urgently: this runs for every slice at every
        // minute, and most find nothing, so nothing as large as the evidence is copied on the way.
        var best: (rule: SLOPolicy.BurnRateRule, long: OutcomeCounts, short: OutcomeCounts, shortStart: Int64)?
        for rule in rules
        where (best.map { $0.rule.severity < rule.severity } ?? true)
            && (!pagesOnly || rule.severity == .page) && time - rule.longWindowSeconds >= dataSince
        {
            // Decided on the windows' valid events and failures alone (``MinuteSeries/validCounts(from:to:)``);
            // the evidence of a rule that fires holds their whole counts.
            let long = series.validCounts(last: rule.longWindowSeconds, before: time)
            var shortStart = time - rule.shortWindowSeconds
            var short = series.validCounts(from: shortStart, to: time)
            if !rule.isExactTest, series.labels.slice == nil, short.valid < policy.minimumValidEvents {
                // An action's thin traffic: the short window reaches back until it holds the minimum, at most to
                // twice its length. (A slice's does not: a few events of one plan would page on their own.)
                let widest = time - min(2 * rule.shortWindowSeconds, rule.longWindowSeconds)
                shortStart = series.start(holdingValid: Int64(policy.minimumValidEvents), before: time, notBefore: widest) ?? widest
                short = series.validCounts(from: shortStart, to: time)
            }
            guard fires(rule, objective: objective, long: long, short: short, at: time) else { continue }
            if rule.severity == .page,
                let recovery = ([series] + (action.map { [$0] } ?? [])).compactMap({
                    lastRecovery($0, objective: objective, after: shortStart, through: time)
                }).max()
            {
                // What the short window held before the series (or its action) recovered may be the last
                // incident's: what came since must fire on its own.
                let since = series.validCounts(from: recovery, to: time)
                guard fires(rule, objective: objective, long: rule.isExactTest ? since : long, short: since, at: time) else { continue }
            }
            var (reportedLong, reportedShort) = (series.counts(last: rule.longWindowSeconds, before: time), series.counts(from: shortStart, to: time))
            if rule.severity == .ticket, let paged {
                reportedLong = reportedLong - paged(series, time - rule.longWindowSeconds)
                reportedShort = reportedShort - paged(series, shortStart)
                guard fires(rule, objective: objective, long: reportedLong, short: reportedShort, at: time) else { continue }
            }
            best = (rule, reportedLong, reportedShort, shortStart)
        }
        guard let best else { return nil }
        return BurnEvidence(
            objective: objective, rule: best.rule, threshold: best.rule.burnRate(for: objective, at: time), longWindow: best.long,
            shortWindow: best.short, shortWindowSeconds: time - best.shortStart,
            firstFailureSeconds: series.firstMinute(from: best.shortStart, to: time, counting: \.failure))
    }

    /// Whether `rule` fires on these windows: enough failures in each, and either (the exact test) the
    /// window's failures beyond the threshold's error rate by chance, which is its own guard against thin
    /// traffic (5 failures of 6 at 2 attempts a minute page a hard outage in 3 minutes), or enough valid
    /// events in each, both burn rates over the threshold, and the long window's failures beyond the
    /// budget by chance.
    private func fires(
        _ rule: SLOPolicy.BurnRateRule, objective: SLOPolicy.Objective, long: OutcomeCounts, short: OutcomeCounts, at time: Int64
    ) -> Bool {
        guard long.failure >= policy.minimumFailures, short.failure >= policy.minimumFailures, let longBurn = objective.burnRate(long)
        else { return false }
        let threshold = rule.burnRate(for: objective, at: time)
        if rule.isExactTest {
            let errorRate = threshold * objective.errorBudget
            return errorRate < 1 && longBurn > threshold
                && RateTest.binomialUpperTail(atLeast: long.failure, trials: long.valid, probability: errorRate) < policy.burnSignificance
        }
        guard long.valid >= policy.minimumValidEvents, short.valid >= policy.minimumValidEvents, let shortBurn = objective.burnRate(short)
        else { return false }
        return longBurn > threshold && shortBurn > threshold
            && RateTest.binomialUpperTail(atLeast: long.failure, trials: long.valid, probability: objective.errorBudget)
                < policy.burnSignificance
    }

    /// The latest minute in `(after, through]` at which `series` had recovered, or nil.
    private func lastRecovery(_ series: MinuteSeries, objective: SLOPolicy.Objective, after: Int64, through: Int64) -> Int64? {
        stride(from: through, to: after, by: -.secondsPerMinute).first { hasRecovered(series, objective: objective, at: $0) }
    }

    /// Whether `series` meets its objective again: its recovery window holds at least the minimum valid
    /// events, burns the budget no faster than the objective allows, and its failures are below the error
    /// rate of the fastest page rule's threshold beyond chance (exact one-sided test, p < 0.05): no longer
    /// failing the way a page is about. At the default 99 % that takes 21 valid events without a failure,
    /// which 2 attempts a minute give within the 15 minutes, so a page ends within minutes of an outage's
    /// end whatever the traffic; a slower burn that goes on fires its rule again from what came since.
    func hasRecovered(_ series: MinuteSeries, objective: SLOPolicy.Objective, at time: Int64) -> Bool {
        let window = series.validCounts(last: policy.recoveryWindowSeconds, before: time)
        guard window.valid >= policy.minimumValidEvents, let burn = objective.burnRate(window), burn <= 1 else { return false }
        var highest = -Double.infinity
        for rule in rules where rule.severity == .page { highest = max(highest, rule.burnRate(for: objective, at: time)) }
        guard highest.isFinite else { return false }
        let pageErrorRate = min(1, highest * objective.errorBudget)
        return RateTest.binomialLowerTail(atMost: window.failure, trials: window.valid, probability: pageErrorRate) < 0.05
    }

    /// The slices of an action (or store) that burn on their own, each with its series: failing at least `sliceMinimumRatio` times as
    /// often as the rest of the action, beyond chance, each with its share of the action's failures.
    /// Slices of different dimensions with (nearly) the same failures, a plan and the group it makes up
    /// nearly alone, are one alert: the narrowest, naming the others in ``BurnEvidence/sameFailuresIn``.
    func sliceBurns(
        _ slices: [MinuteSeries], of overall: MinuteSeries, objective: SLOPolicy.Objective, at time: Int64, dataSince: Int64,
        paged: @escaping (MinuteSeries, Int64) -> OutcomeCounts
    ) -> [(burn: BurnEvidence, series: MinuteSeries)] {
        var burning: [(burn: BurnEvidence, series: MinuteSeries)] = []
        // Every rule needs the minimum of failures in its short window, which a slice never widens: a slice
        // without them in the widest is passed over (most slices at most minutes) at the cost of one read.
        for slice in slices
        where slice.labels.slice == nil
            || slice.validCounts(last: widestShortWindowSeconds, before: time).failure >= policy.minimumFailures
        {
            guard var burn = self.burn(slice, action: overall, objective: objective, at: time, dataSince: dataSince, paged: paged)
            else { continue }
            let actionWindow = overall.counts(last: burn.rule.longWindowSeconds, before: time)
            let rest = actionWindow - slice.counts(last: burn.rule.longWindowSeconds, before: time)
            let sliceErrorRate = 1 - (burn.longWindow.successRate ?? 1)
            let restErrorRate = 1 - (rest.successRate ?? 1)
            // Twice the rest's error rate, and not by chance: a slice with most of the traffic (the app
            // version nearly everyone runs) against a rest with a handful of events is the action itself.
            guard sliceErrorRate >= policy.sliceMinimumRatio * restErrorRate,
                RateTest.poissonRateExcess(
                    observed: burn.longWindow.failure, exposure: burn.longWindow.valid,
                    baselineObserved: rest.failure, baselineExposure: rest.valid) < policy.burnSignificance
            else { continue }
            burn.shareOfFailures = actionWindow.failure > 0 ? Double(burn.longWindow.failure) / Double(actionWindow.failure) : nil
            burning.append((burn, slice))
        }
        // Most urgent first, then the narrowest (fewest valid events): each folds in the later ones whose
        // failures over its long window are within 10 % of its own.
        burning.sort { lhs, rhs in
            lhs.burn.rule.severity != rhs.burn.rule.severity
                ? lhs.burn.rule.severity > rhs.burn.rule.severity
                : (lhs.burn.longWindow.valid, lhs.series.labels) < (rhs.burn.longWindow.valid, rhs.series.labels)
        }
        var kept: [(burn: BurnEvidence, series: MinuteSeries)] = []
        for candidate in burning {
            if let index = kept.firstIndex(where: { keeper in
                let window = keeper.burn.rule.longWindowSeconds
                let own = keeper.series.counts(last: window, before: time).failure
                let other = candidate.series.counts(last: window, before: time).failure
                return Double(min(own, other)) >= 0.9 * Double(max(own, other))
            }) {
                kept[index].burn.sameFailuresIn.append(candidate.series.labels.slice!)
            } else {
                kept.append(candidate)
            }
        }
        return kept
    }
}
