public import Foundation
public import PurchaseSLICore
public import PurchaseSLIOutbound
import PurchaseSLIStores

/// How `serve` acts on rollout verdicts: off unless a store is set up; then a dry run unless `live`.
public struct RolloutActionSettings: Sendable, Hashable {
    /// The App Store Connect API key and the app whose phased release is paused.
    public struct AppStoreConnect: Sendable, Hashable {
        /// The `.p8` key's PEM text, its key id and the team's issuer id.
        public var keyPEM: String
        public var keyID: String
        public var issuerID: String
        /// The app's Apple ID, and the platform of its versions (`IOS` by default).
        public var appID: String
        public var platform = "IOS"
        /// The API's base URL.
        public var baseURL = AppStoreConnectClient.productionURL

        /// Creates the settings.
        public init(keyPEM: String, keyID: String, issuerID: String, appID: String) {
            (self.keyPEM, self.keyID, self.issuerID, self.appID) = (keyPEM, keyID, issuerID, appID)
        }
    }

    /// The Google Play service account and the app whose staged rollout is halted.
    public struct GooglePlay: Sendable, Hashable {
        /// The service account's JSON key file's content.
        public var serviceAccountJSON: Data
        /// The app's package name and the track (`production` by default).
        public var packageName: String
        public var track = "production"
        /// The API's base URL, and the token endpoint when not the key file's `token_uri`.
        public var baseURL = GooglePlayPublisherClient.productionURL
        public var tokenURL: URL?

        /// Creates the settings.
        public init(serviceAccountJSON: Data, packageName: String) {
            (self.serviceAccountJSON, self.packageName) = (serviceAccountJSON, packageName)
        }
    }

    /// Whether it acts (pauses, halts); false: a dry run that reads the state and says what it would do.
    public var live = false
    /// Whether a live action waits for a person's confirmation (`rollout confirm ID`): the default, since a
    /// verdict rests on events that any holder of the public ingest key can send. Off (`rolloutConfirm
    /// none`) only where no one but the team can send events.
    public var requiresConfirmation = true
    /// The App Store's settings, nil: the App Store is left alone.
    public var appStore: AppStoreConnect?
    /// Google Play's settings, nil: Play is left alone.
    public var googlePlay: GooglePlay?

    /// Whether any store is set up.
    public var isConfigured: Bool { appStore != nil || googlePlay != nil }

    /// The defaults: off.
    public init() {}

    /// The stores' release controls, calling over `transport`; `retryDelaySeconds` is the wait before a
    /// call that failed is tried again.
    /// - Throws: ``StoreReleaseControlError`` when a key cannot sign.
    public func controls(transport: any OutboundTransport, retryDelaySeconds: Double = 1) async throws -> [any StoreReleaseControl] {
        var controls: [any StoreReleaseControl] = []
        if let apple = appStore {
            controls.append(
                try await AppStoreConnectClient(
                    keyPEM: apple.keyPEM, keyID: apple.keyID, issuerID: apple.issuerID, appID: apple.appID, platform: apple.platform,
                    baseURL: apple.baseURL, transport: transport, retryDelaySeconds: retryDelaySeconds))
        }
        if let play = googlePlay {
            controls.append(
                try await GooglePlayPublisherClient(
                    serviceAccountJSON: play.serviceAccountJSON, packageName: play.packageName, track: play.track, baseURL: play.baseURL,
                    tokenURL: play.tokenURL, transport: transport, retryDelaySeconds: retryDelaySeconds))
        }
        return controls
    }

    /// A few words for the startup log (no secret): "dry run: App Store app 123 (IOS), Play com.example on
    /// production", "live, each action confirmed by a person: …".
    public var summary: String {
        guard isConfigured else { return "off" }
        let stores =
            [
                appStore.map { "App Store app \($0.appID) (\($0.platform))" },
                googlePlay.map { "Play \($0.packageName) on \($0.track)" },
            ].compactMap { $0 }
        let mode = live ? (requiresConfirmation ? "live, each action confirmed by a person" : "live, without confirmation") : "dry run"
        return "\(mode): " + stores.joined(separator: ", ")
    }
}
