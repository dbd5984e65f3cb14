/// The device side of one attempt: app version, platform, OS and feature-flag cohort.
struct Client: Sendable {
    static let newVersion = "4.12.0"

    let appVersion: String
    let platform: String
    let osVersion: String
    let variant: String
    /// Runs app 4.12.0.
    let isNewVersion: Bool
    /// In the `storekit2` cohort.
    let isStoreKit2: Bool

    private static let platforms = ["iOS", "iPadOS", "macOS"]
    private static let platformMix = WeightedTable([0.90, 0.08, 0.02])
    private static let mobileVersions = ["17.5", "18.1", "18.2", "18.5", "26.0", "26.1"]
    private static let mobileVersionMix = WeightedTable([0.08, 0.12, 0.20, 0.22, 0.32, 0.06])
    private static let macVersions = ["15.2", "26.0"]
    private static let macVersionMix = WeightedTable([0.4, 0.6])

    /// Draws a client; `newVersionShare` is the share of traffic on 4.12.0.
    static func draw(newVersionShare: Double, _ random: inout SimulationRandom) -> Client {
        let isNew = newVersionShare > 0 && random.chance(newVersionShare)
        let appVersion: String
        let isStoreKit2: Bool
        if isNew {
            appVersion = newVersion
            isStoreKit2 = random.chance(0.95)
        } else if random.chance(0.08) {
            appVersion = "4.10.2"
            isStoreKit2 = false
        } else {
            appVersion = "4.11.0"
            isStoreKit2 = random.chance(0.25)
        }
        let platformIndex = platformMix.pick(&random)
        let osVersion =
            platformIndex == 2
            ? macVersions[macVersionMix.pick(&random)]
            : mobileVersions[mobileVersionMix.pick(&random)]
        return Client(
            appVersion: appVersion, platform: platforms[platformIndex], osVersion: osVersion,
            variant: isStoreKit2 ? "storekit2" : "storekit1", isNewVersion: isNew, isStoreKit2: isStoreKit2)
    }
}
