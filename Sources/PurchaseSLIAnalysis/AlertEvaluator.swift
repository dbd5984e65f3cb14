import PurchaseSLICore

/// Turns minute series and an explicit evaluation time into the alerts that fire. Pure: it never reads
/// the clock, and an evaluation at time T uses only minutes that end by T.
public struct AlertEvaluator: Sendable {
    /// The policy it applies.
    public let policy: SLOPolicy

    /// Creates an evaluator for `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    /// The alerts firing at `time` (minute-aligned seconds), most urgent first.
    ///
    /// Per series only the most urgent firing rule counts (a page suppresses the ticket of the same
    /// incident). A slice alerts only when its action does not already alert at the same or a higher
    /// severity, so a regression in one plan is not hidden in the average and is not paged twice.
    /// O(series × rules).
    public func findings(at time: Int64, inputs: AlertInputs) -> [AlertFinding] {
        inputs.actions.keys.sorted().flatMap { findings(forAction: $0, at: time, inputs: inputs) }.sorted {
            $0.identity < $1.identity
        }
    }

    /// The alerts of one action (overall and its slices) at `time`.
    func findings(forAction action: String, at time: Int64, inputs: AlertInputs) -> [AlertFinding] {
        guard let overall = inputs.actions[action] else { return [] }
        var result: [AlertFinding] = []
        if let silence = lossOfSignal(overall, at: time) { result.append(silence) }
        guard let objective = policy.objectives.first(where: { $0.actionType == action }) else { return result }
        let overallBurn = burnFinding(overall, objective: objective, at: time)
        if let overallBurn { result.append(overallBurn) }
        var sliceWindows = Set<[OutcomeCounts]>()
        for slice in inputs.slices[action] ?? [] {
            guard var finding = burnFinding(slice, objective: objective, at: time),
                  overallBurn.map({ $0.severity < finding.severity }) ?? true,
                  // Slices with the very same traffic (a plan sold as one product) are one alert.
                  sliceWindows.insert([finding.longWindow, finding.shortWindow]).inserted
            else { continue }
            let actionWindow = overall.counts(last: finding.rule!.longWindowSeconds, before: time)
            let rest = actionWindow - finding.longWindow
            let sliceErrorRate = 1 - (finding.longWindow.successRate ?? 1)
            let restErrorRate = 1 - (rest.successRate ?? 1)
            guard sliceErrorRate >= policy.sliceMinimumRatio * restErrorRate else { continue }
            finding.shareOfFailures = actionWindow.failure > 0
                ? Double(finding.longWindow.failure) / Double(actionWindow.failure) : nil
            result.append(finding)
        }
        return result
    }

    /// The most urgent rule firing for `series`, or nil. A window with fewer than the minimum valid
    /// events has no burn rate, so low traffic never fires (and zero traffic gives no NaN).
    func burnFinding(_ series: MinuteSeries, objective: SLOPolicy.Objective, at time: Int64) -> AlertFinding? {
        var best: AlertFinding?
        for rule in policy.rules where best.map({ $0.severity < rule.severity }) ?? true {
            let long = series.counts(last: rule.longWindowSeconds, before: time)
            let short = series.counts(last: rule.shortWindowSeconds, before: time)
            guard long.valid >= policy.minimumValidEvents, short.valid >= policy.minimumValidEvents,
                  long.failure >= policy.minimumFailures, short.failure >= policy.minimumFailures
            else { continue }
            var finding = AlertFinding(
                kind: .successRateBurn, severity: rule.severity, labels: series.labels, time: time,
                objective: objective, rule: rule, longWindow: long, shortWindow: short)
            guard let longBurn = finding.burnRateLong, let shortBurn = finding.burnRateShort,
                  longBurn > rule.burnRate, shortBurn > rule.burnRate
            else { continue }
            finding.time = time
            best = finding
        }
        return best
    }

    /// A page when an action had no event at all over the loss-of-signal window while the same window
    /// a day earlier had at least the policy's minimum.
    func lossOfSignal(_ series: MinuteSeries, at time: Int64) -> AlertFinding? {
        let window = policy.lossOfSignalWindowSeconds
        guard time - 86_400 - window >= series.startSeconds else { return nil }
        let now = series.counts(last: window, before: time)
        let dayEarlier = series.counts(last: window, before: time - 86_400)
        guard now.total == 0, dayEarlier.total >= policy.lossOfSignalMinimumExpected else { return nil }
        return AlertFinding(
            kind: .noEvents, severity: .page, labels: series.labels, time: time, longWindow: now,
            expectedEvents: dayEarlier.total, silentSeconds: window)
    }

    /// When the alert `identity`, firing at `time`, started: walks back one minute at a time while it
    /// fires, as far as the inputs reach. O(minutes walked × slices of the action).
    public func startOfFiring(_ identity: AlertFinding.Identity, at time: Int64, inputs: AlertInputs) -> Int64 {
        var start = time
        while start - 60 >= inputs.startSeconds + policy.lookbackSeconds {
            let earlier = findings(forAction: identity.labels.actionType, at: start - 60, inputs: inputs)
            guard earlier.contains(where: { $0.identity == identity }) else { break }
            start -= 60
        }
        return start
    }

    /// Evaluates every `step` in `[from, to)` and returns each alert episode once, in order of start.
    /// Equal to repeated single evaluations at those times. O(steps × series × rules).
    public func episodes(from: Int64, to: Int64, stepSeconds: Int64, inputs: AlertInputs) -> [AlertEpisode] {
        var open: [AlertFinding.Identity: AlertEpisode] = [:]
        var closed: [AlertEpisode] = []
        var time = from
        while time < to {
            let firing = Dictionary(uniqueKeysWithValues: findings(at: time, inputs: inputs).map { ($0.identity, $0) })
            for (identity, episode) in open where firing[identity] == nil {
                var ended = episode
                ended.endsAt = time
                closed.append(ended)
                open[identity] = nil
            }
            for (identity, finding) in firing {
                if open[identity] != nil {
                    open[identity]!.last = finding
                } else {
                    open[identity] = AlertEpisode(first: finding, last: finding, startsAt: time, endsAt: nil)
                }
            }
            time += stepSeconds
        }
        return (closed + open.values).sorted {
            ($0.startsAt, $0.first.identity) < ($1.startsAt, $1.first.identity)
        }
    }
}
