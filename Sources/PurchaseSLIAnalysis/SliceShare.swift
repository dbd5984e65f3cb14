public import PurchaseSLICore

extension SliceShare {
    /// The slices among `slices` (each with its counts over a window, in label order) whose failure rate is
    /// at least 1.5 times the rest of the action's (`total` over the same window), beyond chance (the exact
    /// rate test, p < 0.01), holding at least 10 % of its failures: where the failures really are. In an
    /// outage of everything no slice is named. Largest share of failures first, at most 4. O(slices).
    public static func concentration(of total: OutcomeCounts, among slices: [(slice: SeriesLabels.Slice, counts: OutcomeCounts)]) -> [SliceShare] {
        guard total.failure > 0, total.valid > 0 else { return [] }
        var shares: [SliceShare] = []
        for (slice, counts) in slices {
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
