import PurchaseSLICore

/// The store's caps and retention as given: `ingest` and `demo` take them as options
/// (``RetentionOptions``), `serve` as settings (options, environment, config file). One check of them
/// for both, whose errors name where each value was given.
struct StorageSettings: Sendable, Equatable {
    /// A cap or a retention that is not what the store takes; `message` names where it was given.
    struct Invalid: Error {
        var message: String
    }

    /// Distinct values per dimension, UTC day and app.
    var cardinalityCap = StoreConfiguration.default.cardinalityCap
    /// Distinct values per dimension and UTC day across every app; nil: ten times ``cardinalityCap``.
    var totalCardinalityCap: Int?
    /// Distinct series per UTC day and app.
    var seriesCap = StoreConfiguration.default.seriesCap
    /// Distinct series per UTC day across every app; nil: ten times ``seriesCap``.
    var totalSeriesCap: Int?
    /// How long an eventID is remembered for dedup.
    var dedupHorizonSeconds = StoreConfiguration.default.dedupHorizonSeconds
    /// How long minute buckets are kept.
    var minuteRetentionSeconds = StoreConfiguration.default.minuteRetentionSeconds
    /// How long hour buckets are kept.
    var hourRetentionSeconds = StoreConfiguration.default.hourRetentionSeconds
    /// How long day buckets are kept; nil: forever.
    var dayRetentionSeconds: Int64?
    /// How long the stores' notifications and the app's reports per transaction are kept.
    var storeRetentionSeconds = StoreConfiguration.default.storeRecordRetentionSeconds

    /// The largest cap of one app: a billion values or series a day is past what a store can hold.
    static let largestCap = 1_000_000_000
    /// The largest total of every app together.
    static let largestTotalCap = 10_000_000_000
    /// The shortest dedup horizon: the App Store retries a notification for up to 157 hours.
    static let minimumDedupHorizonSeconds = 8 * Int64.secondsPerDay
    /// The shortest store retention: a week's charges are reviewed as a whole.
    static let minimumStoreRetentionSeconds = 7 * Int64.secondsPerDay

    /// The store configuration these settings describe; `name(key)` says where the setting of `key`
    /// (`seriesCap`, `dedupHorizon`, …) was given, for the errors.
    func configuration(naming name: (String) -> String) throws(Invalid) -> StoreConfiguration {
        guard (1...Self.largestCap).contains(cardinalityCap) else {
            throw Invalid(message: "\(name("cardinalityCap")) must be from 1 to \(Self.largestCap), got \(cardinalityCap).")
        }
        let totalCardinalityCap = try total(totalCardinalityCap, "totalCardinalityCap", of: cardinalityCap, "cardinalityCap", naming: name)
        guard (1...Self.largestCap).contains(seriesCap) else {
            throw Invalid(message: "\(name("seriesCap")) must be from 1 to \(Self.largestCap), got \(seriesCap).")
        }
        let totalSeriesCap = try total(totalSeriesCap, "totalSeriesCap", of: seriesCap, "seriesCap", naming: name)
        guard dedupHorizonSeconds >= Self.minimumDedupHorizonSeconds else {
            throw Invalid(message: "\(name("dedupHorizon")) must be at least 8d: the App Store retries notifications for up to 157 hours.")
        }
        guard storeRetentionSeconds >= Self.minimumStoreRetentionSeconds else {
            throw Invalid(message: "\(name("storeRetention")) must be at least 7d: a week's charges are reviewed as a whole.")
        }
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = cardinalityCap
        configuration.totalCardinalityCap = totalCardinalityCap
        configuration.seriesCap = seriesCap
        configuration.totalSeriesCap = totalSeriesCap
        configuration.dedupHorizonSeconds = dedupHorizonSeconds
        configuration.minuteRetentionSeconds = minuteRetentionSeconds
        configuration.hourRetentionSeconds = hourRetentionSeconds
        configuration.dayRetentionSeconds = dayRetentionSeconds
        configuration.storeRecordRetentionSeconds = storeRetentionSeconds
        return configuration
    }

    /// The total of `totalKey` as given, checked against its app's `cap`, or by default ten apps' worth of it.
    private func total(_ given: Int?, _ totalKey: String, of cap: Int, _ capKey: String, naming name: (String) -> String) throws(Invalid) -> Int {
        guard let given else { return cap * 10 }
        guard given >= cap else { throw Invalid(message: "\(name(totalKey)) must be at least \(name(capKey)) (\(cap)), got \(given).") }
        guard given <= Self.largestTotalCap else {
            throw Invalid(message: "\(name(totalKey)) must be at most \(Self.largestTotalCap), got \(given).")
        }
        return given
    }
}
