import PurchaseSLIAnalysis
public import PurchaseSLIRendering

extension AlertContext {
    /// The alerts firing at `time` (minute-aligned seconds; only events before it count), most urgent
    /// first, each with since when it fires and its context: what `alerts --at` prints and what
    /// `serve --notify` sends.
    ///
    /// Reads what the rules and keepFiringFor need (``SLOPolicy/firingHistorySeconds``), the same minutes
    /// a backtest through `time` gives them; reads 3 more days only for an alert that was already firing
    /// at the start of that, to say since when.
    public func firingReports(at time: Int64) throws -> [AlertReport] {
        let evaluator = AlertEvaluator(policy: policy)
        let history = policy.firingHistorySeconds
        let inputs = try inputs(from: time - history, to: time)
        let findings = evaluator.findings(at: time, inputs: inputs)
        // A loss of signal knows when it started; the others are walked back to their start.
        let walked = findings.filter { $0.firingSince == nil }.map(\.identity)
        var histories = evaluator.firingHistories(Set(walked), at: time, inputs: inputs)
        for finding in findings {
            if let since = finding.firingSince {
                histories[finding.identity] = FiringHistory(
                    startsAt: since, severityChanges: [SeverityChange(atSeconds: since, severity: finding.severity)])
            }
        }
        let firingAllAlong = Set(walked.filter { (histories[$0]?.startsAt ?? time) <= inputs.startSeconds + history })
        if !firingAllAlong.isEmpty {
            let longer = try self.inputs(from: time - history - 3 * 86_400, to: time)
            histories.merge(evaluator.firingHistories(firingAllAlong, at: time, inputs: longer)) { $1 }
        }
        return try findings.map { finding in
            let history = histories[finding.identity]
            return try report(
                finding, startsAt: history?.startsAt ?? time, severityChanges: history?.severityChanges ?? [], inputs: inputs)
        }
    }

    /// A backtest: each alert episode over `[from, to)` evaluated every `stepSeconds`, in order of start,
    /// with `endsAt` for those that stopped firing before `to`; each reported with the finding at its
    /// highest severity, and its severity changes. O(steps × series × rules).
    public func episodeReports(from: Int64, to: Int64, stepSeconds: Int64) throws -> [AlertReport] {
        let inputs = try inputs(from: from - policy.firingHistorySeconds, to: to)
        let episodes = AlertEvaluator(policy: policy).episodes(from: from, to: to, stepSeconds: stepSeconds, inputs: inputs)
        return try episodes.map { episode in
            try report(
                episode.peak, startsAt: episode.startsAt, endsAt: episode.endsAt, severityChanges: episode.severityChanges,
                inputs: inputs)
        }
    }
}
