import PurchaseSLIAnalysis
public import PurchaseSLIRendering

extension AlertContext {
    /// The alerts firing at `time` (minute-aligned seconds; only events before it count), most urgent
    /// first, each with since when it fires and its context: what `alerts --at` prints and what
    /// `serve --notify` sends.
    ///
    /// Reads what the rules and keepFiringFor need; reads 3 more days only for an alert that was already
    /// firing at the start of that, to say since when.
    public func firingReports(at time: Int64) throws -> [AlertReport] {
        let evaluator = AlertEvaluator(policy: policy)
        let lookback = policy.lookbackSeconds + policy.keepFiringForSeconds
        let inputs = try inputs(from: time - lookback, to: time)
        var history: AlertInputs?
        return try evaluator.findings(at: time, inputs: inputs).map { finding in
            var start = evaluator.startOfFiring(finding.identity, at: time, inputs: inputs)
            if start <= inputs.startSeconds + policy.lookbackSeconds {
                let longer = try history ?? self.inputs(from: time - lookback - 3 * 86_400, to: time)
                history = longer
                start = evaluator.startOfFiring(finding.identity, at: time, inputs: longer)
            }
            return try report(finding, startsAt: start, inputs: inputs)
        }
    }

    /// A backtest: each alert episode over `[from, to)` evaluated every `stepSeconds`, in order of start,
    /// with `endsAt` for those that stopped firing before `to`. O(steps × series × rules).
    public func episodeReports(from: Int64, to: Int64, stepSeconds: Int64) throws -> [AlertReport] {
        let inputs = try inputs(from: from - policy.lookbackSeconds, to: to)
        let episodes = AlertEvaluator(policy: policy).episodes(from: from, to: to, stepSeconds: stepSeconds, inputs: inputs)
        return try episodes.map { episode in
            try report(episode.first, startsAt: episode.startsAt, endsAt: episode.endsAt, inputs: inputs)
        }
    }
}
