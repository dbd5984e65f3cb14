import PurchaseSLICore

extension AlertEvaluator {
    /// The alerts whose rules fire at exactly `time`, before keep-firing and suppression, and the series
    /// that have recovered. The rules read only the minutes of `[time − ruleReach, time)`; taking budget
    /// spent while paged out of tickets reads the page rules at the minutes of a ticket's long window, so
    /// nothing before `time − historySeconds` counts, which makes a backtest and a live evaluation agree.
    func instant(at time: Int64, inputs allInputs: AlertInputs, paged: PagedMinutes) -> InstantEvaluation {
        let inputs = allInputs.restricted(from: time - policy.ruleReachSeconds, to: time)
        // Bonferroni: the significance is shared by every spike test made at this time.
        let versions = Set(inputs.slices.values.joined().filter { $0.labels.slice?.dimension == .appVersion }.map(\.labels.slice))
        let spikeTests = versions.count + inputs.actions.keys.reduce(0) { total, action in
            total + 3 + (inputs.slices[action] ?? []).filter { $0.labels.slice?.dimension == .productID }.count
        }
        let spikeSignificance = policy.spikes.significance / Double(max(1, spikeTests))
        var recovered = Set<SeriesLabels>()
        // Loss of signal reads each action's whole series: it lasts until events flow again.
        var findings = versionSpikes(at: time, significance: spikeSignificance, inputs: inputs)
            + allInputs.actions.values.compactMap { lossOfSignal($0, at: time) }
            + chargedNotGranted(at: time, ledger: allInputs.charges)
            + refundSpikes(at: time, activity: allInputs.storeActivity)
        for action in inputs.actions.keys.sorted() {
            guard let overall = inputs.actions[action], let dataSince = overall.firstEventSeconds else { continue }
            findings += spikes(of: action, at: time, dataSince: dataSince, significance: spikeSignificance, inputs: inputs)
            guard let objective = policy.objectives.first(where: { $0.actionType == action }) else { continue }
            let slices = inputs.slices[action] ?? []
            for series in [overall] + slices where hasRecovered(series, objective: objective, at: time) {
                recovered.insert(series.labels)
            }
            let ticketWindows = { (series: MinuteSeries, from: Int64) in
                paged.excludedCounts(of: series, action: overall, objective: objective, from: from, to: time)
            }
            if let burn = burnFinding(overall, objective: objective, at: time, dataSince: dataSince, paged: ticketWindows) {
                findings.append(burn)
            }
            findings += sliceFindings(slices, of: overall, objective: objective, at: time, dataSince: dataSince, paged: ticketWindows)
        }
        return InstantEvaluation(findings: findings, recovered: recovered)
    }

    /// The slices of an action that burn on their own: failing at least `sliceMinimumRatio` times as
    /// often as the rest of the action, beyond chance, each with its share of the action's failures.
    /// Slices of different dimensions with (nearly) the same failures, a plan and the group it makes up
    /// nearly alone, are one alert: the narrowest, naming the others in ``AlertFinding/sameFailuresIn``.
    private func sliceFindings(
        _ slices: [MinuteSeries], of overall: MinuteSeries, objective: SLOPolicy.Objective, at time: Int64, dataSince: Int64,
        paged: @escaping (MinuteSeries, Int64) -> OutcomeCounts
    ) -> [AlertFinding] {
        var burning: [(finding: AlertFinding, series: MinuteSeries)] = []
        for slice in slices {
            guard var finding = burnFinding(slice, action: overall, objective: objective, at: time, dataSince: dataSince, paged: paged)
            else { continue }
            let actionWindow = overall.counts(last: finding.rule!.longWindowSeconds, before: time)
            let rest = actionWindow - slice.counts(last: finding.rule!.longWindowSeconds, before: time)
            let sliceErrorRate = 1 - (finding.longWindow.successRate ?? 1)
            let restErrorRate = 1 - (rest.successRate ?? 1)
            // Twice the rest's error rate, and not by chance: a slice with most of the traffic (the app
            // version nearly everyone runs) against a rest with a handful of events is the action itself.
            guard sliceErrorRate >= policy.sliceMinimumRatio * restErrorRate,
                  RateTest.poissonRateExcess(
                    observed: finding.longWindow.failure, exposure: finding.longWindow.valid,
                    baselineObserved: rest.failure, baselineExposure: rest.valid) < policy.burnSignificance
            else { continue }
            finding.shareOfFailures = actionWindow.failure > 0 ? Double(finding.longWindow.failure) / Double(actionWindow.failure) : nil
            burning.append((finding, slice))
        }
        // Most urgent first, then the narrowest (fewest valid events): each folds in the later ones whose
        // failures over its long window are within 10 % of its own.
        burning.sort { lhs, rhs in
            lhs.finding.severity != rhs.finding.severity ? lhs.finding.severity > rhs.finding.severity
                : (lhs.finding.longWindow.valid, lhs.finding.labels) < (rhs.finding.longWindow.valid, rhs.finding.labels)
        }
        var kept: [(finding: AlertFinding, series: MinuteSeries)] = []
        for candidate in burning {
            let window = { (entry: (finding: AlertFinding, series: MinuteSeries)) in entry.finding.rule!.longWindowSeconds }
            if let index = kept.firstIndex(where: { keeper in
                let own = keeper.series.counts(last: window(keeper), before: time).failure
                let other = candidate.series.counts(last: window(keeper), before: time).failure
                return Double(min(own, other)) >= 0.9 * Double(max(own, other))
            }) {
                kept[index].finding.sameFailuresIn.append(candidate.series.labels.slice!)
            } else {
                kept.append(candidate)
            }
        }
        return kept.map(\.finding)
    }

    /// The most urgent rule firing for `series`, or nil. A window with fewer than the minimum valid
    /// events has no burn rate, so low traffic never fires (and zero traffic gives no NaN); the long
    /// window's failures must exceed the error budget beyond chance (`burnSignificance`); a rule whose
    /// long window reaches back before the action's first event (`dataSince`) waits until it does not,
    /// so that a "3 day" window is never a few minutes of data. On thin traffic an action's short window
    /// reaches back until it holds `minimumValidEvents`, to at most twice its length, so that an incident
    /// at a few attempts a minute is still seen to go on. When the series (or, for a slice, its
    /// `action`) has recovered (``hasRecovered(_:objective:at:)``) within a page rule's short window, what
    /// came since must fire the rule on its own, so an incident that is over does not page again from the
    /// failures its windows still hold. A ticket rule that fires is tried again
    /// without the minutes its series or action was paged for (`paged` gives their counts from a time to
    /// `time`): budget an incident spent while paged opens no ticket afterwards. With `pagesOnly`, only
    /// the page rules are tried.
    func burnFinding(
        _ series: MinuteSeries, action: MinuteSeries? = nil, objective: SLOPolicy.Objective, at time: Int64, dataSince: Int64,
        pagesOnly: Bool = false, paged: ((MinuteSeries, Int64) -> OutcomeCounts)? = nil
    ) -> AlertFinding? {
        var best: AlertFinding?
        for rule in rules where (best.map { $0.severity < rule.severity } ?? true)
            && (!pagesOnly || rule.severity == .page) && time - rule.longWindowSeconds >= dataSince {
            let long = series.counts(last: rule.longWindowSeconds, before: time)
            var shortStart = time - rule.shortWindowSeconds
            var short = series.counts(from: shortStart, to: time)
            if !rule.isExactTest, series.labels.slice == nil, short.valid < policy.minimumValidEvents {
                // An action's thin traffic: the short window reaches back until it holds the minimum, at most to
                // twice its length. (A slice's does not: a few events of one plan would page on their own.)
                let widest = time - min(2 * rule.shortWindowSeconds, rule.longWindowSeconds)
                shortStart = series.start(holdingValid: Int64(policy.minimumValidEvents), before: time, notBefore: widest) ?? widest
                short = series.counts(from: shortStart, to: time)
            }
            guard fires(rule, objective: objective, long: long, short: short, at: time) else { continue }
            if rule.severity == .page, let recovery = ([series] + (action.map { [$0] } ?? [])).compactMap({
                lastRecovery($0, objective: objective, after: shortStart, through: time)
            }).max() {
                // What the short window held before the series (or its action) recovered may be the last
                // incident's: what came since must fire on its own.
                let since = series.counts(from: recovery, to: time)
                guard fires(rule, objective: objective, long: rule.isExactTest ? since : long, short: since, at: time) else { continue }
            }
            var (reportedLong, reportedShort) = (long, short)
            if rule.severity == .ticket, let paged {
                reportedLong = long - paged(series, time - rule.longWindowSeconds)
                reportedShort = short - paged(series, shortStart)
                guard fires(rule, objective: objective, long: reportedLong, short: reportedShort, at: time) else { continue }
            }
            var finding = AlertFinding(
                kind: .successRateBurn, severity: rule.severity, labels: series.labels, time: time,
                objective: objective, rule: rule, longWindow: reportedLong, shortWindow: reportedShort)
            finding.shortWindowSeconds = time - shortStart
            best = finding
        }
        return best
    }

    /// Whether `rule` fires on these windows: enough valid events and failures in each, and either both
    /// burn rates over the threshold with the long window's failures beyond the budget by chance, or (the
    /// exact test) the window's failures beyond the threshold's error rate by chance.
    private func fires(
        _ rule: SLOPolicy.BurnRateRule, objective: SLOPolicy.Objective, long: OutcomeCounts, short: OutcomeCounts, at time: Int64
    ) -> Bool {
        guard long.valid >= policy.minimumValidEvents, short.valid >= policy.minimumValidEvents,
              long.failure >= policy.minimumFailures, short.failure >= policy.minimumFailures,
              let longBurn = objective.burnRate(long), let shortBurn = objective.burnRate(short)
        else { return false }
        let threshold = rule.burnRate(for: objective, at: time)
        if rule.isExactTest {
            let errorRate = threshold * objective.errorBudget
            return errorRate < 1 && longBurn > threshold
                && RateTest.binomialUpperTail(atLeast: long.failure, trials: long.valid, probability: errorRate) < policy.burnSignificance
        }
        return longBurn > threshold && shortBurn > threshold
            && RateTest.binomialUpperTail(atLeast: long.failure, trials: long.valid, probability: objective.errorBudget)
                < policy.burnSignificance
    }

    /// The latest minute in `(after, through]` at which `series` had recovered, or nil.
    private func lastRecovery(_ series: MinuteSeries, objective: SLOPolicy.Objective, after: Int64, through: Int64) -> Int64? {
        stride(from: through, to: after, by: -60).first { hasRecovered(series, objective: objective, at: $0) }
    }

    /// Whether `series` meets its objective again: its recovery window holds at least the minimum valid
    /// events, burns the budget no faster than the objective allows, and its failures are below the error
    /// rate of the lowest page threshold beyond chance (exact one-sided test, p < 0.05), which at 20
    /// attempts a minute 15 minutes show and at 3 a minute they cannot (so a thin, steady 6 % does not
    /// "recover" whenever a quarter of an hour happens to have no failure).
    func hasRecovered(_ series: MinuteSeries, objective: SLOPolicy.Objective, at time: Int64) -> Bool {
        let window = series.counts(last: policy.recoveryWindowSeconds, before: time)
        guard window.valid >= policy.minimumValidEvents, let burn = objective.burnRate(window), burn <= 1 else { return false }
        var lowest = Double.infinity
        for rule in rules where rule.severity == .page { lowest = min(lowest, rule.burnRate(for: objective, at: time)) }
        guard lowest.isFinite else { return false }
        let pageErrorRate = min(1, lowest * objective.errorBudget)
        return 1 - RateTest.binomialUpperTail(atLeast: window.failure + 1, trials: window.valid, probability: pageErrorRate) < 0.05
    }
}
