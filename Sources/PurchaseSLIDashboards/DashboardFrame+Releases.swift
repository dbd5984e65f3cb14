import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// The markers of `[from, to)`: each app version's reach of `releases` (``ReleaseMarkers``), and each
    /// store release paused by a rollout verdict (not a dry run).
    func releaseMarkers(_ releases: [ReleaseMarkers.Reach], from: Int64, to: Int64) -> [TimeSeriesChart.Marker] {
        (versionMarkers(releases) + pauseMarkers(from: from, to: to)).sorted { $0.timeSeconds < $1.timeSeconds }
    }

    /// A marker at each app version reaching 1 % of its platform's events after a day below.
    private func versionMarkers(_ releases: [ReleaseMarkers.Reach]) -> [TimeSeriesChart.Marker] {
        releases.map { reach in
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
