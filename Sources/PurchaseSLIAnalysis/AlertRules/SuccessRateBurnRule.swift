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
    public var reachSeconds: Int64 { test.reachSeconds }
    /// A slice with `minimumFailures` failures (at least one): a burn needs as many in each window.
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool {
        totals.failure >= Int64(max(1, policy.minimumFailures))
    }
    /// Budget spent while paged is taken out of a ticket's long window: the page rules are evaluated at
    /// each of its minutes.
    public var pastFindingsSeconds: Int64 { test.ticketReachSeconds }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        // Maintenance windows' minutes are left out of what a burn reads (``AlertInputs/budgeted``).
        let inputs = context.inputs.budgeted
        let paged = context.run.shared("\(kind.rawValue) paged minutes") {
            PagedMinutes(test: test, inputs: context.allInputs.budgeted, reach: context.reachSeconds)
        }
        var outcome = AlertRuleOutcome()
        for action in inputs.actions.keys.sorted() {
            guard let overall = inputs.judgedSeries(of: action), let dataSince = overall.firstEventSeconds,
                let objective = policy.objectives.first(where: { $0.actionType == action })
            else { continue }
            // An objective weighted by revenue is judged on the action's revenue alone: a product's weight in
            // it is its share of the money, so a cheap product failing costs little and alerts on its own no
            // more than its money says.
            let bySlice = objective.weight != .revenue
            if test.hasRecovered(overall, objective: objective, at: time) { outcome.recovered.append(overall.labels) }
            // A series recovers only with the minimum valid events in its recovery window, and burns on no rule
            // without the minimum failures in the widest short window: the slices that cannot are not read.
            let recovering =
                bySlice
                ? context.slices(
                    of: action, budgeted: true, holding: Int64(policy.minimumValidEvents), .valid, last: policy.recoveryWindowSeconds) : []
            for series in recovering where test.hasRecovered(series, objective: objective, at: time) { outcome.recovered.append(series.labels) }
            let failing =
                bySlice
                ? context.slices(of: action, budgeted: true, holding: Int64(policy.minimumFailures), .failure, last: test.widestShortWindowSeconds)
                : []
            let ticketWindows = { (series: MinuteSeries, from: Int64) in
                paged.excludedCounts(of: series, action: overall, objective: objective, from: from, to: time)
            }
            if let burn = test.burn(overall, objective: objective, at: time, dataSince: dataSince, paged: ticketWindows) {
                outcome.findings.append(finding(burn, labels: overall.labels, at: time))
            }
            outcome.findings += sliceFindings(failing, of: overall, objective: objective, at: time, dataSince: dataSince, paged: ticketWindows)
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

    /// The slices of an action that burn on their own (``BurnRateTest/sliceBurns(_:of:objective:at:dataSince:paged:)``).
    private func sliceFindings(
        _ slices: [MinuteSeries], of overall: MinuteSeries, objective: SLOPolicy.Objective, at time: Int64, dataSince: Int64,
        paged: @escaping (MinuteSeries, Int64) -> OutcomeCounts
    ) -> [AlertFinding] {
        test.sliceBurns(slices, of: overall, objective: objective, at: time, dataSince: dataSince, paged: paged).map {
            finding($0.burn, labels: $0.series.labels, at: time)
        }
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
    /// For the time-to-grant objective: how soon a grant counts as on time, in seconds. Its events are the
    /// store's charges, on time or not (``GrantTimes``), not the app's attempts.
    public var grantedWithinSeconds: Int64?

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

    /// The span its counts cover: the rule's long window, or the short one where thin traffic widened it past
    /// that (a hard outage's exact test counts the short window only).
    public var windowSeconds: Int64 { max(rule.longWindowSeconds, shortWindowSeconds) }
    public var explainedBy: ResultType? { grantedWithinSeconds == nil ? .failure : nil }
    public var chartMetric: AlertChartMetric? { grantedWithinSeconds == nil ? .rate(.successRate) : nil }
    public var namesConcentration: Bool { shareOfFailures == nil }
    /// The short window's first minute with a failure.
    public func firstBadSeconds(of alert: AlertFinding) -> Int64? { firstFailureSeconds ?? alert.time - shortWindowSeconds }

    /// Whether its objective weighs events by revenue: its rates are shares of revenue, its counts
    /// effective events (``RevenueWeights``).
    private var byRevenue: Bool { objective?.weight == .revenue }

    /// "valid events", "valid events (weighted by price, effective)", or "charges".
    private var validNoun: String {
        grantedWithinSeconds != nil ? "charges" : byRevenue ? "valid events (weighted by price, effective)" : "valid events"
    }

    /// What the rate is: "success rate", "revenue success rate", or "charges granted within 1 min".
    private var rateNoun: AlertText {
        if let within = grantedWithinSeconds { return "charges granted within \(seconds: within)" }
        return byRevenue ? "revenue success rate" : "success rate"
    }

    /// What the failures are: "failed", or "were not granted within 1 min".
    private var failedVerb: AlertText {
        if let within = grantedWithinSeconds { return "were not granted within \(seconds: within)" }
        return "failed"
    }

    public func summary(of alert: AlertFinding) -> AlertText {
        var text: AlertText =
            "\(scope: alert.labels): " + rateNoun + " \(percent: shortWindow.successRate) over the last "
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
            ? ["\(step: shortWindowSeconds): \(count: shortWindow.failure) of \(count: shortWindow.valid) \(words: validNoun) " + failedVerb]
            : [
                "\(step: rule.longWindowSeconds): \(count: longWindow.failure) of \(count: longWindow.valid) \(words: validNoun) " + failedVerb
                    + "; \(step: shortWindowSeconds): \(count: shortWindow.failure) of \(count: shortWindow.valid)"
            ]
        if !sameFailuresIn.isEmpty {
            lines.append("the same failures show in: " + AlertText.joined(sameFailuresIn.map { "\(slice: $0)" }, separator: ", "))
        }
        return lines
    }

    /// Recovering once the last minutes meet the objective; still failing while they burn past the threshold.
    public func current(_ counts: OutcomeCounts, over seconds: Int64, of alert: AlertFinding) -> AlertText? {
        guard counts.valid > 0, let objective else {
            return "last \(duration: seconds): no \(words: grantedWithinSeconds == nil ? "valid events" : "charges")"
        }
        let state: String =
            switch objective.burnRate(counts) ?? 0 {
            case ...1: "recovering (meets the objective)"
            case ..<threshold: "better, still short of the objective"
            default: "still failing"
            }
        return
            "last \(duration: seconds): " + rateNoun + " \(percent: counts.successRate) of "
            + "\(count: counts.valid) \(words: validNoun): \(words: state)"
    }

    /// The failures of its span by product and error; for the time to grant, the charges its window counted
    /// late, judged at its time (a charge whose notification came after its time to grant had passed counts
    /// when it came, and is listed only when it was charged in the range).
    public func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand {
        if let within = grantedWithinSeconds, let store = alert.labels.store {
            // A charge counts at the minute its outcome is known, `within` after it was charged (or when its
            // notification arrived, if later): the charges of the window are those charged `within` before it.
            var arguments = [
                "--from", RFC3339.format(seconds: alert.time - windowSeconds - within), "--to", RFC3339.format(seconds: alert.time), "--at",
                RFC3339.format(seconds: alert.time), "--store", store, "--slow",
            ]
            if let slice = alert.labels.slice, slice.dimension == .productID, let product = slice.value { arguments.append("--product=\(product)") }
            return LookNextCommand("charges", arguments)
        }
        return .query(of: alert.labels, from: from, to: to, ["--where", "resultType=failure", "--by", "productID,errorDescription"])
    }
}
