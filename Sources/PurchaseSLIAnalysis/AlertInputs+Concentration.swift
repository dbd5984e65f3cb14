import PurchaseSLICore

extension AlertInputs {
    /// The slices of `action` whose failure rate over the `window` seconds before `time` is at least 1.5 times
    /// the rest of the action's, beyond chance (the exact rate test, p < 0.01), holding at least 10 % of
    /// its failures: where the failures really are. In an outage of everything no slice is named. Largest
    /// share of failures first, at most 4. O(slices).
    public func failureConcentration(in action: String, last window: Int64, before time: Int64) -> [SliceShare] {
        guard let overall = actions[action] else { return [] }
        let total = overall.counts(last: window, before: time)
        guard total.failure > 0, total.valid > 0 else { return [] }
        var shares: [SliceShare] = []
        for series in slices[action] ?? [] {
            guard let slice = series.labels.slice else { continue }
            let counts = series.counts(last: window, before: time)
            let rest = total - counts
            let failureShare = Double(counts.failure) / Double(total.failure)
            guard failureShare >= 0.1, counts.valid > 0, rest.valid > 0 else { continue }
            guard let sliceRate = counts.failureRate, let restRate = rest.failureRate, sliceRate >= 1.5 * restRate,
                RateTest.poissonRateExcess(
                    observed: counts.failure, exposure: counts.valid, baselineObserved: rest.failure, baselineExposure: rest.valid) < 0.01
            else { continue }
            shares.append(SliceShare(slice: slice, share: failureShare, trafficShare: Double(counts.valid) / Double(total.valid)))
        }
        return Array(shares.sorted { $0.share > $1.share }.prefix(4))
    }
}

/// A slice's share of an action's failures and of its traffic.
public struct SliceShare: Sendable, Hashable {
    /// The slice.
    public var slice: SeriesLabels.Slice
    /// Its share of the failures.
    public var share: Double
    /// Its share of the valid events.
    public var trafficShare: Double

    /// Creates a share.
    public init(slice: SeriesLabels.Slice, share: Double, trafficShare: Double) {
        self.slice = slice
        self.share = share
        self.trafficShare = trafficShare
    }
}
