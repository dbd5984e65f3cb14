public import PurchaseSLICore

extension AlertFinding.Kind {
    /// The success rate burns the error budget faster than a rule allows.
    public static let successRateBurn = AlertFinding.Kind(rawValue: "PurchaseSuccessRateBurn")
}

/// PurchaseSuccessRateBurn: each action with an objective, and each of its slices, against the
/// multi-window burn-rate rules (``BurnRateTest``). Per series only the most urgent rule counts. A slice
/// alerts only when it fails at least `sliceMinimumRatio` times as often as the rest of its action, beyond
/// chance, and its action does not already alert at the same or a higher severity, so a regression in one
/// plan is not hidden in the average and an outage is not paged once per product. A page stops as soon as
/// its series has recovered. An objective weighted by revenue is judged on its action's weighted series
/// (``AlertInputs/judgedSeries(of:)``), without slices.
public struct SuccessRateBurnRule: AlertRule {
    /// The policy it applies.
    public let policy: SLOPolicy
    private let test: BurnRateTest

    /// The rule of `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
        test = BurnRateTest(policy: policy)
    }

    public var kind: AlertFinding.Kind { .successRateBurn }
    public var shortName: String { "burn" }
    public var holdSeconds: Int64 { policy.keepFiringForSeconds }
    public var reachSeconds: Int64 { policy.rules.map(\.longWindowSeconds).max() ?? 0 }
    /// Budget spent while paged is taken out of a ticket's long window: the page rules are evaluated at
    /// each of its minutes.
    public var pastFindingsSeconds: Int64 { policy.rules.filter { $0.severity == .ticket }.map(\.longWindowSeconds).max() ?? 0 }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        let inputs = context.inputs
        let paged = context.run.shared("\(kind.rawValue) paged minutes") {
            PagedMinutes(test: test, inputs: context.allInputs, reach: context.reachSeconds)
        }
        var outcome = AlertRuleOutcome()
        for action in inputs.actions.keys.sorted() {
            guard let overall = inputs.judgedSeries(of: action), let dataSince = overall.firstEventSeconds,
                let objective = policy.objectives.first(where: { $0.actionType == action })
            else { continue }
            // An objective weighted by revenue is judged on the action's revenue alone: a product's weight in
            // it is its share of the money, so a cheap product failing costs little and alerts on its own no
            // more than its money says.
            let slices = objective.weight == .revenue ? [] : inputs.slices[action] ?? []
            for series in [overall] + slices where test.hasRecovered(series, objective: objective, at: time) {
                outcome.recovered.insert(series.labels)
            }
            let ticketWindows = { (series: MinuteSeries, from: Int64) in
                paged.excludedCounts(of: series, action: overall, objective: objective, from: from, to: time)
            }
            if let burn = test.burn(overall, objective: objective, at: time, dataSince: dataSince, paged: ticketWindows) {
                outcome.findings.append(finding(burn, labels: overall.labels, at: time))
            }
            outcome.findings += sliceFindings(slices, of: overall, objective: objective, at: time, dataSince: dataSince, paged: ticketWindows)
        }
        return outcome
    }

    /// A slice's burn is covered by its whole action's at the same or a higher severity.
    public func isCovered(_ finding: AlertFinding, by firing: [AlertFinding]) -> Bool {
        guard finding.labels.slice != nil else { return false }
        return firing.contains {
            $0.kind == kind && $0.labels == SeriesLabels(actionType: finding.labels.actionType) && $0.severity >= finding.severity
        }
    }

    /// An action's burn is an outage of its flow (purchases and restores failing together are one); a
    /// slice's is about the slice, and part of its action's flow.
    public func causes(of finding: AlertFinding) -> Set<IncidentCause> {
        guard let slice = finding.labels.slice else { return [.outage(of: finding.labels.actionType), .anyOutage] }
        return [.slice(slice), .outage(of: finding.labels.actionType)]
    }

    private func finding(_ burn: BurnEvidence, labels: SeriesLabels, at time: Int64) -> AlertFinding {
        AlertFinding(kind: kind, severity: burn.rule.severity, labels: labels, time: time, evidence: burn)
    }

    /// The slices of an action that burn on their own: failing at least `sliceMinimumRatio` times as
    /// often as the rest of the action, beyond chance, each with its share of the action's failures.
    /// Slices of different dimensions with (nearly) the same failures, a plan and the group it makes up
    /// nearly alone, are one alert: the narrowest, naming the others in ``BurnEvidence/sameFailuresIn``.
    private func sliceFindings(
        _ slices: [MinuteSeries], of overall: MinuteSeries, objective: SLOPolicy.Objective, at time: Int64, dataSince: Int64,
        paged: @escaping (MinuteSeries, Int64) -> OutcomeCounts
    ) -> [AlertFinding] {
        var burning: [(burn: BurnEvidence, series: MinuteSeries)] = []
        for slice in slices {
            guard var burn = test.burn(slice, action: overall, objective: objective, at: time, dataSince: dataSince, paged: paged)
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
        return kept.map { finding($0.burn, labels: $0.series.labels, at: time) }
    }
}

extension IncidentCause {
    /// Any action's flow failing as a whole: purchases and restores failing together are one outage.
    public static let anyOutage = IncidentCause("outage")
}

/// What a burn found: the objective, the rule that fired, the counts of its windows, and the last minutes.
public struct BurnEvidence: AlertEvidence {
    /// The objective in force.
    public var objective: SLOPolicy.Objective?
    /// The rule that fired (the most urgent one).
    public var rule: SLOPolicy.BurnRateRule
    /// The rule's burn-rate threshold at the time.
    public var threshold: Double
    /// Counts over the rule's long window.
    public var longWindow: OutcomeCounts
    /// Counts over the rule's short window.
    public var shortWindow: OutcomeCounts
    /// The span the short window covered, in seconds: the rule's, widened on an action's thin traffic until it holds
    /// the minimum valid events (to at most twice its length), or cut at the minute the series had last recovered.
    public var shortWindowSeconds: Int64
    /// The first minute of the short window with a failure (its start when it is not known).
    public var firstFailureSeconds: Int64?
    /// For a slice: its share of the action's failures over the long window.
    public var shareOfFailures: Double?
    /// For a slice: the slices of other dimensions with (nearly) the same failures, folded into it (a plan
    /// and the group it makes up nearly alone).
    public var sameFailuresIn: [SeriesLabels.Slice] = []

    /// Creates evidence of `rule` firing on these windows (the short one spanning `shortWindowSeconds`).
    public init(
        objective: SLOPolicy.Objective?, rule: SLOPolicy.BurnRateRule, threshold: Double, longWindow: OutcomeCounts, shortWindow: OutcomeCounts,
        shortWindowSeconds: Int64, firstFailureSeconds: Int64? = nil, shareOfFailures: Double? = nil, sameFailuresIn: [SeriesLabels.Slice] = []
    ) {
        self.objective = objective
        self.rule = rule
        self.threshold = threshold
        self.longWindow = longWindow
        self.shortWindow = shortWindow
        self.shortWindowSeconds = shortWindowSeconds
        self.firstFailureSeconds = firstFailureSeconds
        self.shareOfFailures = shareOfFailures
        self.sameFailuresIn = sameFailuresIn
    }

    /// Burn rate over the long window (error rate / error budget), or nil without traffic.
    public var burnRateLong: Double? { objective?.burnRate(longWindow) }
    /// Burn rate over the short window.
    public var burnRateShort: Double? { objective?.burnRate(shortWindow) }

    public var windowSeconds: Int64 { rule.longWindowSeconds }
    public var explainedBy: ResultType? { .failure }
    public var chartMetric: AlertChartMetric? { .rate(.successRate) }
    public var namesConcentration: Bool { shareOfFailures == nil }
    /// The short window's first minute with a failure.
    public func firstBadSeconds(of alert: AlertFinding) -> Int64? { firstFailureSeconds ?? alert.time - shortWindowSeconds }

    /// Whether its objective weighs events by revenue: its rates are shares of revenue, its counts
    /// effective events (``RevenueWeights``).
    private var byRevenue: Bool { objective?.weight == .revenue }

    /// "valid events", or "valid events (weighted by price, effective)".
    private var validNoun: String { byRevenue ? "valid events (weighted by price, effective)" : "valid events" }

    public func summary(of alert: AlertFinding) -> AlertText {
        var text: AlertText =
            "\(scope: alert.labels): \(words: byRevenue ? "revenue success rate" : "success rate") \(percent: shortWindow.successRate) over the last "
            + "\(step: shortWindowSeconds) against the \(percent: objective?.target) objective"
        if rule.isExactTest {
            text =
                text + ", burning the error budget \(decimal: burnRateShort)×, beyond chance above the \(decimal: threshold)× "
                + "threshold (a hard outage)"
        } else {
            text =
                text + " (\(percent: longWindow.successRate) over \(step: rule.longWindowSeconds)), burning the error budget "
                + "\(decimal: burnRateShort)× over \(step: shortWindowSeconds) and \(decimal: burnRateLong)× over "
                + "\(step: rule.longWindowSeconds) (threshold \(decimal: threshold)×)"
        }
        if let share = shareOfFailures {
            text = text + " (\(percent: share) of all \(words: alert.labels.actionType) failures)"
        }
        return text
    }

    public func details(of alert: AlertFinding) -> [AlertText] {
        var lines: [AlertText] =
            rule.isExactTest
            ? ["\(step: shortWindowSeconds): \(count: shortWindow.failure) of \(count: shortWindow.valid) \(words: validNoun) failed"]
            : [
                "\(step: rule.longWindowSeconds): \(count: longWindow.failure) of \(count: longWindow.valid) \(words: validNoun) failed; "
                    + "\(step: shortWindowSeconds): \(count: shortWindow.failure) of \(count: shortWindow.valid)"
            ]
        if !sameFailuresIn.isEmpty {
            lines.append("the same failures show in: " + AlertText.joined(sameFailuresIn.map { "\(slice: $0)" }, separator: ", "))
        }
        return lines
    }

    /// Recovering once the last minutes meet the objective; still failing while they burn past the threshold.
    public func current(_ counts: OutcomeCounts, over seconds: Int64, of alert: AlertFinding) -> AlertText? {
        guard counts.valid > 0, let objective else { return "last \(duration: seconds): no valid events" }
        let state: String =
            switch objective.burnRate(counts) ?? 0 {
            case ...1: "recovering (meets the objective)"
            case ..<threshold: "better, still short of the objective"
            default: "still failing"
            }
        return
            "last \(duration: seconds): \(words: byRevenue ? "revenue success rate" : "success rate") \(percent: counts.successRate) of "
            + "\(count: counts.valid) \(words: validNoun): \(words: state)"
    }

    public func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand {
        .query(of: alert.labels, from: from - rule.longWindowSeconds, to: to, ["--by", "productID,errorDescription"])
    }
}
