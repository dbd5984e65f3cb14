import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

extension SurfaceAgreementTests {
    /// `serve` keeps the minute series it read from one round to the next (``KeptMinuteSeries``) and reads
    /// only the minutes its windows gained. At every minute from 2 before to 2 after each start and end of
    /// an alert episode of the sample logs (where the slices worth reading change most) and every 6 hours
    /// of them, the kept series carried from each of these minutes to the next: the inputs an evaluation
    /// reads (each action's and slice's minutes) are those read afresh, and at each edge what it sends (the
    /// Alertmanager JSON, and the text) is what an evaluation reading everything afresh sends. (Every
    /// minute of the sample logs takes an hour in a debug build; the store's tests hold a kept read to one
    /// afresh at every minute of a live stream with late events and pruning.)
    @Test func keptEvaluationReadsAndSendsWhatEvaluationFromScratchDoes() async throws {
        let logs = try SampleLogs.get()
        let fresh = logs.context
        var kept = logs.context
        kept.keptSeries = KeptMinuteSeries()
        let (first, last) = (seconds("2026-10-24T00:00:00Z"), seconds("2026-11-20T00:00:00Z"))
        let history = fresh.evaluator.firingHistorySeconds
        let (compared, firing) = try await onDedicatedThread { [kept] in
            let edges = try await fresh.episodeReports(from: first, to: last, stepSeconds: 60).flatMap { [$0.startsAt, $0.endsAt].compactMap { $0 } }
            let times = Set(edges.flatMap { edge in (-2...2).map { edge + Int64($0) * 60 } } + stride(from: first, to: last, by: 6 * 3600)).sorted()
            var firing = 0
            for time in times {
                let (keptInputs, freshInputs) = (
                    try await kept.inputs(from: time - history, to: time, grantsEvaluatedFrom: time),
                    try await fresh.inputs(from: time - history, to: time, grantsEvaluatedFrom: time)
                )
                guard minutes(of: keptInputs) == minutes(of: freshInputs) else {
                    Issue.record("at \(RFC3339.format(seconds: time)): the kept inputs differ from those read afresh")
                    return (times.count, firing)
                }
                guard edges.contains(time) else { continue }
                let (keptReports, freshReports) = (try await kept.firingReports(at: time), try await fresh.firingReports(at: time))
                let sent = { (reports: [AlertReport]) in AlertOutput.alertmanagerJSON(reports, now: time) + AlertOutput.text(reports, now: time) }
                guard sent(keptReports) == sent(freshReports) else {
                    Issue.record("at \(RFC3339.format(seconds: time)):\n\(sent(keptReports))\nafresh:\n\(sent(freshReports))")
                    return (times.count, firing)
                }
                firing += keptReports.count
            }
            return (times.count, firing)
        }
        #expect(compared > 150 && firing > 10, "\(compared) minutes compared, \(firing) alerts firing at the edges")
    }
}

/// One series' span and its minutes with events.
private struct SeriesMinutes: Equatable {
    let span: Range<Int64>
    var minutes: [Int64: OutcomeCounts] = [:]
}

/// The span and the minutes with events of every action and slice series of `inputs`, by labels.
private func minutes(of inputs: AlertInputs) -> [SeriesLabels: SeriesMinutes] {
    var minutes: [SeriesLabels: SeriesMinutes] = [:]
    for series in Array(inputs.actions.values) + inputs.slices.values.flatMap({ $0 }) {
        var kept = SeriesMinutes(span: series.startSeconds..<series.endSeconds)
        series.forEachMinute(from: series.startSeconds, to: series.endSeconds) { minute, counts in kept.minutes[minute] = counts }
        minutes[series.labels] = kept
    }
    return minutes
}
