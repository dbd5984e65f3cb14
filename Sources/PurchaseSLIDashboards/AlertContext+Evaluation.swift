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
        let findings = evaluator.findings(at: time, inputs: inputs)
        var starts = evaluator.startsOfFiring(Set(findings.map(\.identity)), at: time, inputs: inputs)
        let firingAllAlong = Set(findings.map(\.identity).filter { starts[$0, default: time] <= inputs.startSeconds + policy.lookbackSeconds })
        if !firingAllAlong.isEmpty {
            let longer = try self.inputs(from: time - lookback - 3 * 86_400, to: time)
            starts.merge(evaluator.startsOfFiring(firingAllAlong, at: time, inputs: longer)) { $1 }
        }
        return try findings.map { try report($0, startsAt: starts[$0.identity, default: time], inputs: inputs) }
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
