public import PurchaseSLICore

/// What alert evaluation reads: the minute series of each action, and of each value of each slice
/// dimension within each action, over one time range.
public struct AlertInputs: Sendable {
    /// The first minute covered (seconds since the epoch, minute-aligned).
    public let startSeconds: Int64
    /// The minute after the last one covered.
    public let endSeconds: Int64
    /// Per action, its whole series.
    public let actions: [String: MinuteSeries]
    /// Per action, the series of its slice values.
    public let slices: [String: [MinuteSeries]]

    /// Builds the series from count rows with a 1-minute step: `overall` grouped by `actionType`, and
    /// `sliceRows[dimension]` grouped by `actionType` and that dimension. O(rows + minutes × series).
    public init(startSeconds: Int64, endSeconds: Int64, overall: [CountRow], sliceRows: [EventDimension: [CountRow]]) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        let minuteCount = Int(max(0, (endSeconds - startSeconds) / 60))
        func series(_ rows: [CountRow], labels: (CountRow) -> SeriesLabels) -> [SeriesLabels: MinuteSeries] {
            var minutes: [SeriesLabels: [OutcomeCounts]] = [:]
            for row in rows {
                guard let time = row.timeSeconds, time >= startSeconds, time < endSeconds else { continue }
                let key = labels(row)
                let index = Int((time - startSeconds) / 60)
                minutes[key, default: Array(repeating: OutcomeCounts(), count: minuteCount)][index] += row.counts
            }
            return minutes.reduce(into: [:]) { result, entry in
                result[entry.key] = MinuteSeries(labels: entry.key, startSeconds: startSeconds, minutes: entry.value)
            }
        }
        var actions: [String: MinuteSeries] = [:]
        for (labels, minuteSeries) in series(overall, labels: { SeriesLabels(actionType: $0.key[0] ?? "") }) {
            actions[labels.actionType] = minuteSeries
        }
        var slices: [String: [MinuteSeries]] = [:]
        for (dimension, rows) in sliceRows.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            // Events without a value for the dimension (no offer, say) are not a slice of their own.
            let bySlice = series(rows.filter { $0.key[1] != nil }) {
                SeriesLabels(actionType: $0.key[0] ?? "", slice: .init(dimension: dimension, value: $0.key[1]))
            }
            for (labels, minuteSeries) in bySlice { slices[labels.actionType, default: []].append(minuteSeries) }
        }
        self.actions = actions
        self.slices = slices.mapValues { $0.sorted { $0.labels < $1.labels } }
    }
}
