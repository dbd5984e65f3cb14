import PurchaseSLIAnalysis
public import PurchaseSLIRendering

extension AlertContext {
    /// The alerts firing at `time` (minute-aligned seconds; only events before it count), most urgent
    /// first, each with since when it fires and its context: what `alerts --at` prints and what
    /// `serve --notify` sends.
    ///
    /// Reads what the rules and their holds need (``AlertEvaluator/firingHistorySeconds``), the same minutes
    /// a backtest through `time` gives them; reads 3 more days only for an alert that was already firing
    /// at the start of that, to say since when.
    public func firingReports(at time: Int64) throws -> [AlertReport] {
        let evaluator = evaluator
        let inputs = try inputs(from: time - evaluator.firingHistorySeconds, to: time)
        let findings = evaluator.findings(at: time, inputs: inputs)
        let histories = try firingHistories(of: findings, known: [:], at: time, inputs: inputs, evaluator: evaluator)
        return try reports(of: findings, histories: histories, at: time, inputs: inputs)
    }

    /// What a page shows: the alerts firing at `time` (as ``firingReports(at:)``) and every alert episode
    /// over `[from, time]` (as ``episodeReports(from:to:stepSeconds:)`` at a minute's step), from one
    /// backtest: the episodes still open at `time` say since when their alerts fire. An alert firing since
    /// `from` is walked back further, as `alerts --at` does.
    public func snapshotReports(from: Int64, at time: Int64) throws -> (firing: [AlertReport], episodes: [AlertReport]) {
        let evaluator = evaluator
        let inputs = try inputs(from: from - evaluator.firingHistorySeconds, to: time)
        let episodes = evaluator.episodes(from: from, to: time + 60, stepSeconds: 60, inputs: inputs)
        let open = episodes.filter { $0.endsAt == nil }
        let known = Dictionary(
            open.filter { $0.startsAt > from }.map { ($0.latest.identity, FiringHistory(startsAt: $0.startsAt, severityChanges: $0.severityChanges)) },
            uniquingKeysWith: { first, _ in first })
        let findings = open.map(\.latest).sorted(by: AlertFinding.byUrgency)
        let histories = try firingHistories(of: findings, known: known, at: time, inputs: inputs, evaluator: evaluator)
        return (
            firing: try reports(of: findings, histories: histories, at: time, inputs: inputs),
            episodes: try episodes.map { try report($0, at: time, inputs: inputs) })
    }

    /// Since when each of `findings`, firing at `time`, fires: from `known`, from the finding (a loss of
    /// signal knows when it started), or walked back through `inputs`; 3 more days are read only for an
    /// alert already firing at the first minute `inputs` can evaluate.
    private func firingHistories(
        of findings: [AlertFinding], known: [AlertFinding.Identity: FiringHistory], at time: Int64, inputs: AlertInputs,
        evaluator: AlertEvaluator
    ) throws -> [AlertFinding.Identity: FiringHistory] {
        let walked = findings.filter { $0.evidence.firingSince == nil && known[$0.identity] == nil }.map(\.identity)
        var histories = known.merging(evaluator.firingHistories(Set(walked), at: time, inputs: inputs)) { $1 }
        for finding in findings {
            if let since = finding.evidence.firingSince {
                histories[finding.identity] = FiringHistory(
                    startsAt: since, severityChanges: [SeverityChange(atSeconds: since, severity: finding.severity)])
            }
        }
        // Found at the first minute the inputs can evaluate: it may have started before.
        let earliest = inputs.startSeconds + evaluator.longestHoldSeconds
        let firingAllAlong = Set(walked.filter { (histories[$0]?.startsAt ?? time) <= earliest })
        if !firingAllAlong.isEmpty {
            let longer = try self.inputs(from: inputs.startSeconds - 3 * 86_400, to: time)
            histories.merge(evaluator.firingHistories(firingAllAlong, at: time, inputs: longer)) { $1 }
        }
        return histories
    }

    /// A report of each of `findings` with its history.
    private func reports(
        of findings: [AlertFinding], histories: [AlertFinding.Identity: FiringHistory], at time: Int64, inputs: AlertInputs
    ) throws -> [AlertReport] {
        try findings.map { finding in
            let history = histories[finding.identity]
            return try report(
                finding, startsAt: history?.startsAt ?? time, severityChanges: history?.severityChanges ?? [], at: time, inputs: inputs)
        }
    }

    /// A backtest: each alert episode over `[from, to)` evaluated every `stepSeconds`, in order of start,
    /// with `endsAt` for those that stopped firing before `to`; each reported with the finding at its
    /// highest severity, and its severity changes. O(steps × series × rules).
    public func episodeReports(from: Int64, to: Int64, stepSeconds: Int64) throws -> [AlertReport] {
        let evaluator = evaluator
        let inputs = try inputs(from: from - evaluator.firingHistorySeconds, to: to)
        let episodes = evaluator.episodes(from: from, to: to, stepSeconds: stepSeconds, inputs: inputs)
        return try episodes.map { try report($0, at: to - stepSeconds, inputs: inputs) }
    }

    /// An episode's report read at `time`: while it fires, its latest finding (its numbers now); once over, its
    /// finding at its highest severity; with its start, end and severity changes.
    private func report(_ episode: AlertEpisode, at time: Int64, inputs: AlertInputs) throws -> AlertReport {
        try report(
            episode.endsAt == nil ? episode.latest : episode.peak, startsAt: episode.startsAt, endsAt: episode.endsAt,
            severityChanges: episode.severityChanges, at: time, inputs: inputs)
    }
}
