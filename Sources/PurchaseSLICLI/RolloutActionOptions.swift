import ArgumentParser
import Foundation
import PurchaseSLICore
import PurchaseSLIOutbound
import PurchaseSLIServer
import PurchaseSLIStores

/// `serve`'s options for acting on rollout verdicts: pausing the App Store phased release and halting the
/// Play staged rollout of a candidate the verdict says to roll back. ``ServeSettings`` reads them with the
/// rest of the table; keys are read from files and never logged.
struct RolloutActionOptions: ParsableArguments {
    @Option(help: ServeSetting.named("rolloutActions").help) var rolloutActions: String?
    @Option(help: ServeSetting.named("rolloutConfirm").help) var rolloutConfirm: String?
    @Option(help: ServeSetting.named("ascKeyFile").help) var ascKeyFile: String?
    @Option(help: ServeSetting.named("ascKeyID").help) var ascKeyID: String?
    @Option(help: ServeSetting.named("ascIssuerID").help) var ascIssuerID: String?
    @Option(help: ServeSetting.named("ascAppID").help) var ascAppID: String?
    @Option(help: ServeSetting.named("ascPlatform").help) var ascPlatform: String?
    @Option(help: ServeSetting.named("ascURL").help) var ascURL: String?
    @Option(help: ServeSetting.named("playServiceAccount").help) var playServiceAccount: String?
    @Option(help: ServeSetting.named("playPackage").help) var playPackage: String?
    @Option(help: ServeSetting.named("playTrack").help) var playTrack: String?
    @Option(help: ServeSetting.named("playURL").help) var playURL: String?
    @Option(help: ServeSetting.named("playTokenURL").help) var playTokenURL: String?

    /// The options given, by their setting's key.
    var givenOptions: [String: SettingValue] {
        let texts: [String: String?] = [
            "rolloutActions": rolloutActions, "rolloutConfirm": rolloutConfirm, "ascKeyFile": ascKeyFile, "ascKeyID": ascKeyID,
            "ascIssuerID": ascIssuerID, "ascAppID": ascAppID, "ascPlatform": ascPlatform, "ascURL": ascURL,
            "playServiceAccount": playServiceAccount, "playPackage": playPackage, "playTrack": playTrack, "playURL": playURL,
            "playTokenURL": playTokenURL,
        ]
        return texts.compactMapValues { $0.map(SettingValue.text) }
    }

    /// The stores' release settings of `settings`: each store with all of its required settings, none
    /// without any; an error naming those missing when some are, or a key file that cannot be read.
    static func releases(of settings: ServeSettings) throws -> RolloutActionSettings {
        var actions = settings.server.rolloutActions
        let access = settings.releaseAccess
        /// The values of one store's required settings: nil when none is given.
        func required(_ values: [(key: String, value: String?)], for store: String) throws -> [String]? {
            let missing = values.filter { $0.value == nil }
            guard missing.count < values.count else { return nil }
            guard missing.isEmpty else {
                let options = missing.map { settings.origin(of: $0.key) }
                throw CommandFailure(message: "acting on \(store) releases needs \(options.joined(separator: ", ")) as well")
            }
            return values.compactMap(\.value)
        }
        func contents(_ path: String, of key: String) throws -> Data {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandFailure(message: "\(settings.origin(of: key)): cannot read \(path)")
            }
            return data
        }
        let apple = [
            ("ascKeyFile", access.ascKeyFile), ("ascKeyID", access.ascKeyID), ("ascIssuerID", access.ascIssuerID), ("ascAppID", access.ascAppID),
        ]
        if let values = try required(apple, for: "App Store") {
            let pem = String(decoding: try contents(values[0], of: "ascKeyFile"), as: UTF8.self)
            var appStore = RolloutActionSettings.AppStoreConnect(keyPEM: pem, keyID: values[1], issuerID: values[2], appID: values[3])
            if let platform = access.ascPlatform { appStore.platform = platform }
            if let base = access.ascURL { appStore.baseURL = base }
            actions.appStore = appStore
        }
        if let values = try required([("playServiceAccount", access.playServiceAccount), ("playPackage", access.playPackage)], for: "Google Play") {
            var play = RolloutActionSettings.GooglePlay(
                serviceAccountJSON: try contents(values[0], of: "playServiceAccount"), packageName: values[1])
            if let track = access.playTrack { play.track = track }
            if let base = access.playURL { play.baseURL = base }
            play.tokenURL = access.playTokenURL
            actions.googlePlay = play
        }
        return actions
    }

    /// Checks that each configured key can sign (a bad key is an error at start, not at 3 a.m.) and
    /// returns the controls, calling over `transport`.
    static func controls(_ settings: RolloutActionSettings, transport: any OutboundTransport) async throws -> [any StoreReleaseControl] {
        do {
            return try await settings.controls(transport: transport)
        } catch let error as StoreReleaseControlError {
            throw CommandFailure(message: "--asc-key-file / --play-service-account: \(error.description)")
        }
    }
}
