/// How many products, plans, app builds, OS releases and offers the simulated app's events name: what
/// sets the number of series a store keeps.
public enum Catalog: String, Sendable, CaseIterable {
    /// Five products and plans, three app versions, eight OS versions, three offers: a few thousand series.
    case standard
    /// The same traffic under a large catalog's names: each product and plan sold as 40 store SKUs (price
    /// tiers, regional variants), each older app version in 16 builds, each OS version in 6 patch
    /// releases, each offer in 8 campaigns: tens of thousands of series. What happens is the standard
    /// catalog's, so every scenario behaves as it does there; the new version (4.12.0) keeps its name.
    case wide

    /// The names `attempt`'s events carry: the standard ones, or under the wide catalog a SKU, build, OS
    /// release and campaign chosen by a hash of `seed` and the attempt (not drawn from the random stream,
    /// which stays as the standard catalog has it).
    func labels(of attempt: Attempt, seed: UInt64) -> Labels {
        let standard = Labels(
            productID: attempt.product.productID, planID: attempt.product.planID, offerID: attempt.offerID,
            appVersion: attempt.client.appVersion, osVersion: attempt.client.osVersion)
        guard self == .wide else { return standard }
        var hash = seed ^ UInt64(bitPattern: attempt.startMillis) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(attempt.action.rawValue.utf8.count)
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 31
        let sku = hash % 40
        let build = hash >> 8 % 16
        let release = hash >> 16 % 6
        let campaign = hash >> 24 % 8
        let version = attempt.client.isNewVersion ? attempt.client.appVersion : attempt.client.appVersion.dropLast(2) + ".\(build)"
        return Labels(
            productID: "\(standard.productID)_t\(sku)", planID: "\(standard.planID)-t\(sku)", offerID: standard.offerID.map { "\($0)-c\(campaign)" },
            appVersion: String(version), osVersion: "\(standard.osVersion).\(release)")
    }

    /// The names one attempt's events carry.
    struct Labels {
        let productID: String
        let planID: String
        let offerID: String?
        let appVersion: String
        let osVersion: String
    }
}
