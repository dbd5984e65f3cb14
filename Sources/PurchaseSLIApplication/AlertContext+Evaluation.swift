import PurchaseSLIAnalysis

extension AlertContext {
    /// The alerts firing at `time` (minute-aligned seconds; only events before it count), most urgent
    /// first, each with since when it fires, its incident and its context: what `alerts --at` prints and
    /// what `serve --notify` sends.
    ///
    /// Reads what the rules and their holds need (``AlertEvaluator/firingHistorySeconds``), the same minutes
    /// a backtest through `time` gives them (the grants only of the minutes evaluated, the longest hold
    /// before `time`: a grant alert at a minute reads the grants of its lookback); when an alert fires, all
    /// of them, then the hours before `time` that the incidents of the alerts firing reach back to
    /// (``AlertEvaluator/incidents(from:to:inputs:grouping:)``); 3 more days only for an incident already
    /// going at the start of what was read.
    public func firingReports(at time: Int64) async throws -> [AlertReport] {
        let evaluator = evaluator
        let from = time - evaluator.firingHistorySeconds
        let inputs = try await inputs(from: from, to: time, grantsEvaluatedFrom: time)
        guard !evaluator.findings(at: time, inputs: inputs).isEmpty else { return [] }
        return try await incidents(from: time, to: time + .secondsPerMinute, inputs: inputs).firing
    }

    /// What a page shows: the alerts firing at `time` (as ``firingReports(at:)``) and every alert episode
    /// over `[from, time]` (as ``episodeReports(from:to:stepSeconds:)`` at a minute's step), from one
    /// backtest, each with its incident.
    public func snapshotReports(from: Int64, at time: Int64) async throws -> (firing: [AlertReport], episodes: [AlertReport]) {
        let reports = try await snapshotAndIncidents(from: from, at: time, withReports: false)
        return (reports.firing, reports.episodes)
    }

    /// ``snapshotReports(from:at:)`` and the report of each incident it shows, by id, read at `time` from
    /// the same minutes where they cover it (``incidentReport(of:at:)``).
    public func snapshotAndIncidentReports(
        from: Int64, at time: Int64
    ) async throws -> (firing: [AlertReport], episodes: [AlertReport], incidents: [String: IncidentReport]) {
        try await snapshotAndIncidents(from: from, at: time, withReports: true)
    }

    private func snapshotAndIncidents(
        from: Int64, at time: Int64, withReports: Bool
    ) async throws -> (firing: [AlertReport], episodes: [AlertReport], incidents: [String: IncidentReport]) {
        let inputs = try await inputs(
            from: from - evaluator.firingHistorySeconds, to: time,
            grantsEvaluatedFrom: AlertEvaluator.walkStart(from: from, to: time + .secondsPerMinute))
        let found = try await incidents(from: from, to: time + .secondsPerMinute, inputs: inputs)
        var reports: [String: IncidentReport] = [:]
        if withReports {
            for incident in found.episodes.compactMap(\.incident) where reports[incident.id] == nil {
                let covered = found.read.evaluableFromSeconds <= min(incident.firstBadSeconds, incident.startsAt) - evaluator.firingHistorySeconds
                reports[incident.id] =
                    try await covered ? incidentReport(of: incident, at: time, inputs: found.read) : incidentReport(of: incident, at: time)
            }
        }
        return (found.firing, found.episodes, reports)
    }

    /// A backtest: each alert episode over `[from, to)` evaluated every `stepSeconds`, in order of start,
    /// with `endsAt` for those that stopped firing before `to`, each with its incident; reported with its
    /// finding at its highest severity once over (its latest while it fires), and its severity changes. At a
    /// minute's step, alerts of incidents that began before `from` are found with their true start, so a
    /// backtest says the same of a minute whatever its start. O(steps × (actions + slices that can fire) × rules).
    public func episodeReports(from: Int64, to: Int64, stepSeconds: Int64) async throws -> [AlertReport] {
        let evaluator = evaluator
        let inputs = try await inputs(
            from: from - evaluator.firingHistorySeconds, to: to,
            grantsEvaluatedFrom: stepSeconds == .secondsPerMinute ? AlertEvaluator.walkStart(from: from, to: to) : from)
        if stepSeconds == .secondsPerMinute { return try await incidents(from: from, to: to, inputs: inputs).episodes }
        let episodes = evaluator.episodes(from: from, to: to, stepSeconds: stepSeconds, inputs: inputs)
        let incidents = IncidentGrouping(rules: rules).incidents(of: episodes)
        return try await reports(of: incidents, at: to - stepSeconds, inputs: inputs).episodes
    }

    /// The reports of the incidents with an alert firing in `[from, to)`: the alerts firing at the last
    /// minute, and every episode overlapping the range, and the inputs they were read from. When an
    /// incident reaches back to the first minute `inputs` can be evaluated at, reads the grants of every
    /// minute of them (when they held fewer), then 3 more days.
    private func incidents(
        from: Int64, to: Int64, inputs: AlertInputs
    ) async throws -> (firing: [AlertReport], episodes: [AlertReport], read: AlertInputs) {
        let evaluator = evaluator
        let grouping = IncidentGrouping(rules: rules)
        var (incidents, complete) = evaluator.incidents(from: from, to: to, inputs: inputs, grouping: grouping)
        var read = inputs
        if !complete, read.evaluableFromSeconds > read.startSeconds {
            read = try await self.inputs(from: read.startSeconds, to: read.endSeconds)
            (incidents, complete) = evaluator.incidents(from: from, to: to, inputs: read, grouping: grouping)
        }
        if !complete {
            read = try await self.inputs(from: read.startSeconds - 3 * .secondsPerDay, to: read.endSeconds)
            incidents = evaluator.incidents(from: from, to: to, inputs: read, grouping: grouping).incidents
        }
        let reports = try await reports(of: incidents, at: to - .secondsPerMinute, inputs: read)
        return (reports.firing, reports.episodes.filter { ($0.endsAt ?? .max) > from }, read)
    }

    /// Each episode of `incidents` as a report read at `time`, with its incident and the incident's record
    /// taken at `time` (``record(of:at:)``, once per incident), and those firing at `time` most urgent first.
    func reports(of incidents: [Incident], at time: Int64, inputs: AlertInputs) async throws -> (firing: [AlertReport], episodes: [AlertReport]) {
        var episodes: [AlertReport] = []
        for incident in incidents {
            let record = try await record(of: incident, at: time)
            for episode in incident.episodes {
                var report = try await report(
                    episode.endsAt == nil ? episode.latest : episode.peak, startsAt: episode.startsAt, endsAt: episode.endsAt,
                    firstBadSeconds: episode.first.evidence.firstBadSeconds(of: episode.first), severityChanges: episode.severityChanges,
                    at: time, inputs: inputs)
                report.incident = incident
                report.incidentRecord = record
                report.incidentURL = pagesURL.map { "\($0)/" + IncidentReport.fileName(ofID: incident.id, app: app) }
                episodes.append(report)
            }
        }
        episodes.sort { ($0.startsAt, $0.finding.identity) < ($1.startsAt, $1.finding.identity) }
        let firing = episodes.filter { $0.endsAt == nil }.sorted { AlertFinding.byUrgency($0.finding, $1.finding) }
        return (firing, episodes)
    }
}
