import PurchaseSLIAnalysis
public import PurchaseSLIRendering

/// The alerts a page shows: those firing at its time, and every episode over its range (for the
/// incident bands of its charts).
public struct AlertSnapshot: Sendable {
    /// The alerts firing at the page's time, most urgent first.
    public var firing: [AlertReport]
    /// Every alert episode over the range, with `endsAt` nil for those still firing.
    public var episodes: [AlertReport]

    /// Creates a snapshot.
    public init(firing: [AlertReport], episodes: [AlertReport]) {
        self.firing = firing
        self.episodes = episodes
    }

    /// The episodes as chart bands, only those of `actionType` when given; overlapping episodes are one
    /// band (a page when any of them is) whose tooltip names each.
    func bands(for actionType: String?, until end: Int64) -> [TimeSeriesChart.Band] {
        let spans = episodes.filter { actionType == nil || $0.finding.labels.actionType == actionType }.map { episode in
            let labels = episode.finding.labels.pairs.map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
            return TimeSeriesChart.Band(
                startSeconds: episode.startsAt, endSeconds: episode.endsAt ?? end,
                label: "\(episode.finding.severity.rawValue) \(episode.finding.kind.rawValue) \(labels)",
                isPage: episode.finding.severity == .page)
        }.sorted { $0.startSeconds < $1.startSeconds }
        var merged: [TimeSeriesChart.Band] = []
        for span in spans {
            guard var last = merged.last, span.startSeconds <= last.endSeconds else {
                merged.append(span)
                continue
            }
            last.endSeconds = max(last.endSeconds, span.endSeconds)
            last.isPage = last.isPage || span.isPage
            if !last.label.contains(span.label) { last.label += "\n" + span.label }
            merged[merged.count - 1] = last
        }
        return merged
    }
}
