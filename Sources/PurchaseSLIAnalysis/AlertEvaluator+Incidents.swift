extension AlertEvaluator {
    /// The incidents with an alert firing in `[from, to)` (evaluated every minute), each whole: alerts of
    /// an incident that started before `from` are found by reading further back (6 hours, then twice as far
    /// while an incident still reaches the start of what was read), so that an incident, its id and its
    /// alerts' starts are the same whichever range a backtest or a live evaluation reads. `complete` is
    /// false when the inputs ended before an incident's start could be found: read further back and ask
    /// again. O(minutes read × (actions + slices that can fire) × rules + minutes with events).
    public func incidents(
        from: Int64, to: Int64, inputs: AlertInputs, grouping: IncidentGrouping
    ) -> (incidents: [Incident], complete: Bool) {
        let earliest = inputs.evaluableFromSeconds + longestHoldSeconds
        // Inputs that hold less than the first walk reads cannot say.
        guard earliest <= Self.walkStart(from: from, to: to) || inputs.evaluableFromSeconds == inputs.startSeconds else { return ([], false) }
        let run = AlertRun()
        var instants: [Int64: InstantEvaluation] = [:]
        var start = max(earliest, Self.walkStart(from: from, to: to))
        while true {
            // An alert whose evidence knows since when it fires (a loss of signal, from its last event) starts then.
            let episodes = episodes(from: start, to: to, stepSeconds: .secondsPerMinute, inputs: inputs, run: run, instants: &instants).map {
                episode in
                guard let since = episode.first.evidence.firingSince, since < episode.startsAt else { return episode }
                var known = episode
                known.startsAt = since
                known.severityChanges[0].atSeconds = since
                return known
            }
            let incidents = grouping.incidents(of: episodes).filter { incident in
                incident.episodes.contains { ($0.endsAt ?? .max) > from }
            }
            // An incident that reaches back to the start of what was read may have begun before it.
            let reachesStart = incidents.contains { incident in
                incident.episodes.contains { $0.startsAt <= start + grouping.reopenSeconds && $0.first.evidence.firingSince == nil }
            }
            guard reachesStart, start > earliest else { return (incidents, !reachesStart) }
            start = max(earliest, start - max(Self.walkSeconds, to - start))
        }
    }

    /// How far before the end of a range the incidents' walk reads at first: 6 hours.
    static let walkSeconds: Int64 = 6 * .secondsPerHour

    /// The first minute the incidents' walk over `[from, to)` evaluates, before it reads further back
    /// (``incidents(from:to:inputs:grouping:)``): the range, and at least its last 6 hours.
    public static func walkStart(from: Int64, to: Int64) -> Int64 { min(from, to - walkSeconds) }
}
