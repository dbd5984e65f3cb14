import Foundation
import Logging
import PurchaseSLIServer

/// What the settings of `serve` come to: the server's configuration, and what `serve` reads further once
/// it knows which of them it needs (the store, the policy, the dashboards, the time zone, the stores'
/// release APIs).
struct ServeSettings {
    /// The stores' release APIs as given, assembled into ``RolloutActionSettings`` once every setting is
    /// read (a store takes all of its own or none).
    struct ReleaseAccess: Equatable {
        var ascKeyFile: String?
        var ascKeyID: String?
        var ascIssuerID: String?
        var ascAppID: String?
        var ascPlatform: String?
        var ascURL: URL?
        var playServiceAccount: String?
        var playPackage: String?
        var playTrack: String?
        var playURL: URL?
        var playTokenURL: URL?
    }

    /// The configuration the settings describe.
    var server = ServerConfiguration()
    /// The store's SQLite path or PostgreSQL URL.
    var database = "purchase-sli.sqlite"
    /// The policy file, when one was given.
    var policyPath: String?
    /// The dashboard definitions' directory, which also holds the default policy.
    var dashboardsDirectory = "dashboards"
    /// The time zone's name, when one was given.
    var timeZone: String?
    /// The stores' release APIs.
    var releaseAccess = ReleaseAccess()
    /// The store's caps and retention.
    var storage = StorageSettings()
    /// The least severe log messages written.
    var logLevel = Logger.Level.info
    /// Where each setting given came from, by key.
    private(set) var origins: [String: ServeSetting.Origin] = [:]

    /// The defaults.
    init() {}

    /// Reads each of `settings` from the options, else the environment, else the config file, over the
    /// defaults. Errors name where the value at fault was given.
    /// - Parameters:
    ///   - options: the options given, by their setting's key.
    ///   - settings: the settings read (every setting of `serve` by default; `rollout` reads the release APIs').
    init(
        options: [String: SettingValue], environment: [String: String], file: ServerConfigFile?,
        reading settings: [ServeSetting] = ServeSetting.all
    ) throws {
        for setting in settings {
            let given: (SettingValue, ServeSetting.Origin)? =
                if let value = options[setting.key], let option = setting.option {
                    (value, .option(option))
                } else if let text = environment[setting.variable] {
                    (setting.value(ofVariable: text), .variable(setting.variable))
                } else if let file, let value = file.settings[setting.key] {
                    (value, .configFile(path: file.path, key: setting.key))
                } else {
                    nil
                }
            guard let (value, origin) = given else { continue }
            try setting.read(value, at: origin, into: &self)
            origins[setting.key] = origin
        }
    }

    /// Where the setting of `key` was given, as errors name it; its option when it was not given.
    func origin(of key: String) -> String {
        origins[key].map { "\($0)" } ?? ServeSetting.named(key).option.map { "--\($0)" } ?? key
    }
}
