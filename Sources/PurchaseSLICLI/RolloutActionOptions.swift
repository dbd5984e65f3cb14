import ArgumentParser
import Foundation
import PurchaseSLICore
import PurchaseSLIOutbound
import PurchaseSLIServer
import PurchaseSLIStores

/// `serve`'s options for acting on rollout verdicts: pausing the App Store phased release and halting the
/// Play staged rollout of a candidate the verdict says to roll back. Each comes from the option, else the
/// environment, else the config file; keys are read from files and never logged.
struct RolloutActionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "dry-run (default) reads each store's release and says what it would do; live pauses the App Store phased release and halts the Play staged rollout when the verdict is one the policy's rollout.pauseOn names (env PURCHASE_SLI_ROLLOUT_ACTIONS).",
            valueName: "mode"))
    var rolloutActions: String?

    @Option(
        help: ArgumentHelp(
            "required (default): a live action waits until a person runs `purchase-sli rollout confirm ID` (the verdict rests on events any holder of the public ingest key can send); none: act on the verdict alone, only where apps do not hold the ingest keys (env PURCHASE_SLI_ROLLOUT_CONFIRM).",
            valueName: "required|none"))
    var rolloutConfirm: String?

    @Option(help: ArgumentHelp("App Store Connect API key (.p8) file (env PURCHASE_SLI_ASC_KEY_FILE).", valueName: "file"))
    var ascKeyFile: String?

    @Option(help: ArgumentHelp("The key's id (env PURCHASE_SLI_ASC_KEY_ID).", valueName: "id"))
    var ascKeyID: String?

    @Option(help: ArgumentHelp("The team's issuer id (env PURCHASE_SLI_ASC_ISSUER_ID).", valueName: "id"))
    var ascIssuerID: String?

    @Option(help: ArgumentHelp("The app's Apple ID, the number in its App Store Connect URL (env PURCHASE_SLI_ASC_APP_ID).", valueName: "id"))
    var ascAppID: String?

    @Option(
        help: ArgumentHelp(
            "The platform of the versions paused: IOS, MAC_OS, TV_OS or VISION_OS (env PURCHASE_SLI_ASC_PLATFORM; default IOS).",
            valueName: "platform"))
    var ascPlatform: String?

    @Option(
        help: ArgumentHelp(
            "The App Store Connect API's base URL (env PURCHASE_SLI_ASC_URL; default https://api.appstoreconnect.apple.com).", valueName: "url"))
    var ascURL: String?

    @Option(help: ArgumentHelp("Google Play service account JSON key file (env PURCHASE_SLI_PLAY_SERVICE_ACCOUNT).", valueName: "file"))
    var playServiceAccount: String?

    @Option(help: ArgumentHelp("The app's package name on Google Play (env PURCHASE_SLI_PLAY_PACKAGE).", valueName: "name"))
    var playPackage: String?

    @Option(help: ArgumentHelp("The track whose staged rollout is halted (env PURCHASE_SLI_PLAY_TRACK; default production).", valueName: "track"))
    var playTrack: String?

    @Option(
        help: ArgumentHelp(
            "The Android Publisher API's base URL (env PURCHASE_SLI_PLAY_URL; default https://androidpublisher.googleapis.com).", valueName: "url"))
    var playURL: String?

    @Option(help: ArgumentHelp("The token endpoint (env PURCHASE_SLI_PLAY_TOKEN_URL; default the key file's token_uri).", valueName: "url"))
    var playTokenURL: String?

    /// Each setting: its option's value, flag, environment variable and config key.
    private var settings: [(value: String?, flag: String, variable: String, key: String)] {
        [
            (rolloutActions, "--rollout-actions", "PURCHASE_SLI_ROLLOUT_ACTIONS", "rolloutActions"),
            (rolloutConfirm, "--rollout-confirm", "PURCHASE_SLI_ROLLOUT_CONFIRM", "rolloutConfirm"),
            (ascKeyFile, "--asc-key-file", "PURCHASE_SLI_ASC_KEY_FILE", "ascKeyFile"),
            (ascKeyID, "--asc-key-id", "PURCHASE_SLI_ASC_KEY_ID", "ascKeyID"),
            (ascIssuerID, "--asc-issuer-id", "PURCHASE_SLI_ASC_ISSUER_ID", "ascIssuerID"),
            (ascAppID, "--asc-app-id", "PURCHASE_SLI_ASC_APP_ID", "ascAppID"),
            (ascPlatform, "--asc-platform", "PURCHASE_SLI_ASC_PLATFORM", "ascPlatform"),
            (ascURL, "--asc-url", "PURCHASE_SLI_ASC_URL", "ascURL"),
            (playServiceAccount, "--play-service-account", "PURCHASE_SLI_PLAY_SERVICE_ACCOUNT", "playServiceAccount"),
            (playPackage, "--play-package", "PURCHASE_SLI_PLAY_PACKAGE", "playPackage"),
            (playTrack, "--play-track", "PURCHASE_SLI_PLAY_TRACK", "playTrack"),
            (playURL, "--play-url", "PURCHASE_SLI_PLAY_URL", "playURL"),
            (playTokenURL, "--play-token-url", "PURCHASE_SLI_PLAY_TOKEN_URL", "playTokenURL"),
        ]
    }

    /// The config file's keys for these settings, with what each expects.
    static let configKeys = [
        "rolloutActions": "\"dry-run\" or \"live\"", "rolloutConfirm": "\"required\" or \"none\"", "ascKeyFile": "the path of a .p8 file",
        "ascKeyID": "a string",
        "ascIssuerID": "a string", "ascAppID": "a string", "ascPlatform": "IOS, MAC_OS, TV_OS or VISION_OS",
        "ascURL": "an http or https URL", "playServiceAccount": "the path of a JSON key file", "playPackage": "a string",
        "playTrack": "a string", "playURL": "an http or https URL", "playTokenURL": "an http or https URL",
    ]

    /// Puts the settings into `server`; errors name the option, variable or key at fault and what is missing.
    func apply(to server: inout ServerConfiguration, environment: [String: String], file: ServerConfigFile?) throws {
        var found: [String: (text: String, name: String)] = [:]
        for setting in settings {
            if let value = setting.value {
                found[setting.key] = (value, setting.flag)
            } else if let value = environment[setting.variable] {
                found[setting.key] = (value, setting.variable)
            } else if let value = try file?.text(setting.key, expects: Self.configKeys[setting.key] ?? "a string") {
                found[setting.key] = (value, "config \(setting.key)")
            }
        }
        var actions = RolloutActionSettings()
        if let (mode, name) = found["rolloutActions"] {
            guard ["dry-run", "live"].contains(mode) else { throw CommandFailure(message: "\(name): expected dry-run or live, got \"\(mode)\"") }
            actions.live = mode == "live"
        }
        if let (confirm, name) = found["rolloutConfirm"] {
            guard ["required", "none"].contains(confirm) else {
                throw CommandFailure(message: "\(name): expected required or none, got \"\(confirm)\"")
            }
            actions.requiresConfirmation = confirm == "required"
        }
        func url(_ key: String) throws -> URL? {
            guard let (text, name) = found[key] else { return nil }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw CommandFailure(message: "\(name): expected an http or https URL, got \"\(text)\"")
            }
            return url
        }
        /// The settings of one store: nil when none is given, an error naming those missing when some are.
        func required(_ keys: [String], for store: String) throws -> [String]? {
            let missing = keys.filter { found[$0] == nil }
            guard missing.count < keys.count else { return nil }
            guard missing.isEmpty else {
                let flags = settings.filter { missing.contains($0.key) }.map(\.flag)
                throw CommandFailure(message: "acting on \(store) releases needs \(flags.joined(separator: ", ")) as well")
            }
            return keys.map { found[$0]!.text }
        }
        func contents(_ key: String) throws -> Data {
            let (path, name) = found[key]!
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure(message: "\(name): cannot read \(path)") }
            return data
        }
        if let values = try required(["ascKeyFile", "ascKeyID", "ascIssuerID", "ascAppID"], for: "App Store") {
            let pem = String(decoding: try contents("ascKeyFile"), as: UTF8.self)
            var apple = RolloutActionSettings.AppStoreConnect(keyPEM: pem, keyID: values[1], issuerID: values[2], appID: values[3])
            if let (platform, name) = found["ascPlatform"] {
                guard Set(AppStoreConnectClient.platforms.values).contains(platform) else {
                    throw CommandFailure(message: "\(name): expected IOS, MAC_OS, TV_OS or VISION_OS, got \"\(platform)\"")
                }
                apple.platform = platform
            }
            if let base = try url("ascURL") { apple.baseURL = base }
            actions.appStore = apple
        }
        if let values = try required(["playServiceAccount", "playPackage"], for: "Google Play") {
            var play = RolloutActionSettings.GooglePlay(serviceAccountJSON: try contents("playServiceAccount"), packageName: values[1])
            if let (track, _) = found["playTrack"] { play.track = track }
            if let base = try url("playURL") { play.baseURL = base }
            play.tokenURL = try url("playTokenURL")
            actions.googlePlay = play
        }
        server.rolloutActions = actions
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
