import PurchaseSLICore

/// Turns minute series and an explicit evaluation time into the alerts that fire, through a list of
/// rules (``AlertRules/standard(for:)``). Pure: it never reads the clock, and an evaluation at time T uses
/// only minutes that end by T.
public struct AlertEvaluator: Sendable {
    /// The policy it applies.
    public let policy: SLOPolicy
    /// The rules it evaluates, one per kind.
    public let rules: [any AlertRule]

    /// The longest hold of a rule: how far before T the findings that decide what fires at T lie.
    public let longestHoldSeconds: Int64
    /// The span of minutes before a time T that the rules themselves read at T, plus a day, so that the
    /// first event within it (where rules reaching back further wait) precedes what they need whenever
    /// traffic has been flowing.
    public let ruleReachSeconds: Int64

    /// Creates an evaluator of `rules` (by default the standard ones) under `policy`.
    public init(policy: SLOPolicy, rules: [any AlertRule]? = nil) {
        self.policy = policy
        let rules = rules ?? AlertRules.standard(for: policy)
        self.rules = rules
        longestHoldSeconds = rules.map(\.holdSeconds).max() ?? 0
        ruleReachSeconds = (rules.map(\.reachSeconds).max() ?? 0) + .secondsPerDay
    }

    /// The span of minutes before T that evaluating the rules at T reads, and nothing before it: the rules'
    /// reach, and before that what a rule reads of its own earlier findings (the page rules at each minute
    /// of a ticket's long window). Because the rules at T see only `[T − history, T)`, `alerts --at T` and a
    /// backtest through T agree whatever else either reads.
    public var historySeconds: Int64 { ruleReachSeconds + (rules.map(\.pastFindingsSeconds).max() ?? 0) }

    /// The span of minutes before T that deciding what fires at T reads: the rules' history of every
    /// minute of the longest hold before T.
    public var firingHistorySeconds: Int64 { historySeconds + longestHoldSeconds }

    /// What the rules say at exactly `time`, before holds and covering: each rule reads the minutes of
    /// `[time − ruleReach, time)` (and what it reads of the whole inputs is its own), with the spike
    /// significance shared by every spike test made at this time (Bonferroni).
    func instant(at time: Int64, inputs allInputs: AlertInputs, run: AlertRun) -> InstantEvaluation {
        var context = AlertRuleContext(
            policy: policy, inputs: allInputs.restricted(from: time - ruleReachSeconds, to: time), allInputs: allInputs,
            spikeSignificance: policy.spikes.significance, reachSeconds: ruleReachSeconds, run: run)
        let spikeTests = rules.reduce(0) { $0 + $1.spikeTestCount(in: context) }
        context.spikeSignificance = policy.spikes.significance / Double(max(1, spikeTests))
        var evaluation = InstantEvaluation(findings: [], recovered: [])
        for rule in rules {
            let outcome = rule.evaluate(at: time, in: context)
            evaluation.findings += outcome.findings
            if !outcome.recovered.isEmpty { evaluation.recovered.append((rule.kind, outcome.recovered)) }
        }
        return evaluation
    }

    /// The alerts firing at `time` (minute-aligned seconds), most urgent first.
    ///
    /// Per series and kind only the most urgent alert counts (a page and a ticket of one incident are one
    /// alert, at the page's severity). A slice alerts only when its action does not already alert at the
    /// same or a higher severity and it fails at least `sliceMinimumRatio` times as often as the rest of its
    /// action, beyond chance (the exact rate test at `burnSignificance`), so a regression in one plan is not
    /// hidden in the average and an outage is not paged once per product. An alert keeps firing for its
    /// hold (``AlertRule/holdSeconds``) after its rules go quiet, a page only until its series has
    /// recovered. Equal to the firing set of ``episodes(from:to:stepSeconds:inputs:)`` at that minute.
    /// O(longest hold in minutes × (actions + slices that can fire) × rules), plus each slice's minutes with
    /// events around those minutes: a slice is tested only at the minutes it holds what a test needs.
    public func findings(at time: Int64, inputs: AlertInputs) -> [AlertFinding] {
        let run = AlertRun()
        var timeline = FiringTimeline(rules: rules)
        for moment in stride(from: time - longestHoldSeconds, through: time, by: .secondsPerMinute) {
            timeline.observe(instant(at: moment, inputs: inputs, run: run), at: moment)
        }
        return timeline.firing(at: time)
    }

    /// Evaluates every `step` in `[from, to)` and returns each alert episode once, in order of start, with
    /// its severity changes. Equal to repeated ``findings(at:inputs:)`` at those times when the step is
    /// one minute. O(steps × (actions + slices that can fire) × rules + minutes with events).
    public func episodes(from: Int64, to: Int64, stepSeconds: Int64, inputs: AlertInputs) -> [AlertEpisode] {
        var instants: [Int64: InstantEvaluation] = [:]
        return episodes(
            from: from, to: to, stepSeconds: stepSeconds, inputs: inputs, run: AlertRun(), instants: &instants)
    }

    /// ``episodes(from:to:stepSeconds:inputs:)`` with the instants already evaluated in `instants` (by
    /// minute), to which it adds those it evaluates.
    func episodes(
        from: Int64, to: Int64, stepSeconds: Int64, inputs: AlertInputs, run: AlertRun,
        instants: inout [Int64: InstantEvaluation]
    ) -> [AlertEpisode] {
        func instant(at moment: Int64) -> InstantEvaluation {
            if let known = instants[moment] { return known }
            let evaluation = self.instant(at: moment, inputs: inputs, run: run)
            instants[moment] = evaluation
            return evaluation
        }
        var timeline = FiringTimeline(rules: rules)
        for moment in stride(from: from - longestHoldSeconds, to: from, by: Int(stepSeconds)) {
            timeline.observe(instant(at: moment), at: moment)
        }
        var open: [AlertFinding.Identity: AlertEpisode] = [:]
        var closed: [AlertEpisode] = []
        for time in stride(from: from, to: to, by: Int(stepSeconds)) {
            timeline.observe(instant(at: time), at: time)
            let firing = Dictionary(timeline.firing(at: time).map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
            for (identity, episode) in open where firing[identity] == nil {
                var ended = episode
                ended.endsAt = time
                closed.append(ended)
                open[identity] = nil
            }
            for (identity, finding) in firing {
                if open[identity] == nil {
                    open[identity] = AlertEpisode(first: finding, startsAt: time)
                } else {
                    open[identity]!.observe(finding, at: time)
                }
            }
        }
        return (closed + open.values).sorted {
            ($0.startsAt, $0.first.identity) < ($1.startsAt, $1.first.identity)
        }
    }
}
