public import PurchaseSLICore

extension AlertInputs {
    /// Whether a slice of `dimension` whose events over the whole span an evaluation reads add up to
    /// `counts` can bear on any finding under `policy`, so that one that cannot is never read minute by
    /// minute (a catalog of thousands of products sold a few times a week holds mostly such slices):
    /// - every app version: each version's 409s are tested against the other versions' purchases;
    /// - a slice with `minimumFailures` failures (at least one): a burn needs as many in its window;
    /// - a product with `spikes.minimumCount` cancels: a cancel spike needs as many in its window.
    ///
    /// Where an alert's failures concentrate is counted by the store over its window, among every slice.
    public static func sliceCanAlert(_ dimension: EventDimension, counts: OutcomeCounts, policy: SLOPolicy) -> Bool {
        dimension == .appVersion || counts.failure >= Int64(max(1, policy.minimumFailures))
            || (dimension == .productID && counts.cancel >= Int64(policy.spikes.minimumCount))
    }
}
