import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardContext {
    /// The markers of `[from, to)`: each app version reaching 1 % of its platform's events in an hour
    /// after a day below (``ReleaseMarkers``), and each store release paused by a rollout verdict (not a
    /// dry run).
    func releaseMarkers(from: Int64, to: Int64) async throws -> [TimeSeriesChart.Marker] {
        (try await versionMarkers(from: from, to: to) + pauseMarkers(from: from, to: to)).sorted { $0.timeSeconds < $1.timeSeconds }
    }

    /// Each app version reaching 1 % of its platform's events in `[from, to)` after a day below.
    private func versionMarkers(from: Int64, to: Int64) async throws -> [TimeSeriesChart.Marker] {
        let start = (from - Int64(ReleaseMarkers.quietHours) * .secondsPerHour).floorDividedBy(.secondsPerHour).quotient * .secondsPerHour
        let answer = try await store.series([
            CountQuery(fromSeconds: start, toSeconds: to, step: TimeStep(seconds: .secondsPerHour), groupBy: [.platform, .appVersion])
        ])[0]
        var hours: [Int64: [ReleaseMarkers.PlatformVersion: Int64]] = [:]
        for (key, counts) in zip(answer.keys, answer.counts) {
            guard let version = key[1] else { continue }
            let pair = ReleaseMarkers.PlatformVersion(platform: key[0] ?? "", version: version)
            for (index, step) in counts.enumerated() where step.total > 0 {
                hours[answer.startSeconds + Int64(index) * .secondsPerHour, default: [:]][pair] = step.total
            }
        }
        return ReleaseMarkers.reaches(hours: hours, from: from, to: to).map { reach in
            let platform = reach.platform.isEmpty ? "" : " \(reach.platform)"
            return TimeSeriesChart.Marker(
                timeSeconds: reach.timeSeconds, caption: "\(reach.version)\(platform) 1 %",
                label:
                    "\(reach.version) reached \(NumberText.percent(reach.share)) of\(platform.isEmpty ? " all" : platform) events in the hour from "
                    + zone.timestamp(reach.timeSeconds))
        }
    }

    /// Each store release paused by a rollout verdict in `[from, to)` (not a dry run).
    func pauseMarkers(from: Int64, to: Int64) -> [TimeSeriesChart.Marker] {
        rolloutActions(from: from).filter { !$0.isDryRun && $0.outcome == .paused && $0.timeSeconds < to }.map { action in
            TimeSeriesChart.Marker(
                timeSeconds: action.timeSeconds, caption: "\(action.candidate) paused",
                label: "\(action.store.displayName) release of \(action.candidate) paused by the \(action.verdict) verdict at "
                    + zone.timestamp(action.timeSeconds))
        }
    }

    /// A marker at each hour the candidate's events reach the share of a step higher than any before
    /// ("4.12.0 events ≈ 5 %"): an hour's own share may read higher and fall back, a step reached stays. The
    /// events' share, not the store's schedule: users who update by hand add to it.
    func stepMarkers(_ release: PhasedRelease, candidate: String) -> [TimeSeriesChart.Marker] {
        var highest = 0
        var markers: [TimeSeriesChart.Marker] = []
        for hour in release.hours {
            if let step = release.step(at: hour.startSeconds + .secondsPerHour), step > highest {
                highest = step
                markers.append(
                    TimeSeriesChart.Marker(
                        timeSeconds: hour.startSeconds, caption: "\(candidate) events ≈ \(step) %",
                        label: "\(candidate)'s events reach about \(step) % of its platform's from \(zone.timestamp(hour.startSeconds)) "
                            + "(users who update by hand come on top of the store's step)")
                )
            }
        }
        return markers
    }
}
