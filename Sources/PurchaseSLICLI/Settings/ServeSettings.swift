import PurchaseSLIServer

/// What the settings of `serve` come to: the server's configuration, and what `serve` reads further once
/// it knows which of them it needs (the store, the policy, the dashboards, the time zone).
struct ServeSettings {
    /// The configuration the settings describe.
    var server = ServerConfiguration()
    /// The store's SQLite path or PostgreSQL URL, and where it was given.
    var database = (text: "purchase-sli.sqlite", source: "--db")
    /// The policy file, when one was given.
    var policyPath: String?
    /// The dashboard definitions' directory, which also holds the default policy.
    var dashboardsDirectory = "dashboards"
    /// The time zone's name and where it was given, when one was.
    var timeZone: (name: String, source: String)?
    /// Where each setting given came from, by key.
    private(set) var origins: [String: ServeSetting.Origin] = [:]

    /// Reads every setting of ``ServeSetting/all`` from the options, else the environment, else the config
    /// file, over the defaults. Errors name where the value at fault was given.
    /// - Parameter options: the options given, by their setting's key.
    init(options: [String: SettingValue], environment: [String: String], file: ServerConfigFile?) throws {
        for setting in ServeSetting.all {
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
}
