import Foundation
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// The settings table of `serve`: every setting is read from its option, its variable and its config key
/// with the same meaning, in that order of precedence, and docs/configuration.md lists it as the table says.
@Suite struct ServeSettingTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// A valid value of each setting, as an option or variable writes it (a file's path for keys).
    private func example(_ setting: ServeSetting) throws -> String {
        let examples = [
            "db": "served.sqlite", "host": "0.0.0.0", "port": "8081", "logLevel": "debug", "readRequestsPerSecond": "2.5", "readBurst": "7",
            "maximumQueryRows": "500", "pruneEvery": "2h", "maximumBodyBytes": "2048", "maximumDecompressedBytes": "4096",
            "maximumCompressionRatio": "20", "maximumEventsPerRequest": "10", "maximumLineBytes": "512", "latenessLimit": "2d",
            "newRelicEventType": "Purchases", "otlpEventName": "purchase", "requestsPerSecondPerKey": "5", "requestBurstPerKey": "9",
            "idleTimeoutSeconds": "40", "bodyTimeoutSeconds": "50", "maximumEventsPerCommit": "99", "notify": "http://alerts.example/x",
            "notifyFormat": "slack", "notifyFallbacks": "https://a.example/x", "notifyFallbackFormat": "alertmanager",
            "notifyHeartbeat": "true", "alertsEvery": "5m", "alertApps": "com.example.coins", "policy": "p.yaml",
            "timeZone": "Europe/Berlin", "out": "pages", "renderEvery": "10m", "dashboards": "boards", "renderRange": "2d",
            "baseURL": "https://sli.example.com", "rolloutEvery": "1h", "rolloutCandidate": "5.0.0", "rolloutBaseline": "4.9.0",
            "rolloutNotify": "https://hooks.example/r", "rolloutNotifyFormat": "json", "appleBundleIDs": "com.example.app",
            "appleRootCA": packageRoot + "/certificates/AppleRootCA-G3.cer", "googlePackages": "com.example.app",
            "rolloutActions": "live", "rolloutConfirm": "none", "ascKeyFile": "AuthKey.p8", "ascKeyID": "KEY1", "ascIssuerID": "ISSUER",
            "ascAppID": "123", "ascPlatform": "MAC_OS", "ascURL": "https://asc.example", "playServiceAccount": "play.json",
            "playPackage": "com.example.app", "playTrack": "beta", "playURL": "https://play.example", "playTokenURL": "https://token.example",
            "cardinalityCap": "300", "totalCardinalityCap": "5000", "seriesCap": "400", "totalSeriesCap": "9000", "dedupHorizon": "9d",
            "minuteRetention": "20d", "hourRetention": "100d", "dayRetention": "800d", "storeRetention": "30d",
        ]
        if setting.kind == .keys { return try directory.write("\(setting.key).txt", "key-of-\(setting.key)\n") }
        return try #require(examples[setting.key], "ServeSettingTests has no example of \(setting.key)")
    }

    /// The example as the config file writes it.
    private func json(_ setting: ServeSetting, _ text: String) -> String {
        switch setting.kind {
        case .number: text
        case .flag: text
        case .list: "[\"\(text)\"]"
        case .keys: "[\"key-of-\(setting.key)\"]"
        case .text: "\"\(text)\""
        }
    }

    @Test func everySettingIsReadFromItsOptionItsVariableAndItsConfigKey() throws {
        let defaults = ServeSettings()
        for setting in ServeSetting.all {
            let text = try example(setting)
            let file = try ServerConfigFile(data: Data("{\"\(setting.key)\": \(json(setting, text))}".utf8), path: "serve.json")
            let fromFile = try ServeSettings(options: [:], environment: [:], file: file)
            let fromVariable = try ServeSettings(options: [:], environment: [setting.variable: text], file: file)
            #expect(fromFile.origins[setting.key].map { "\($0)" } == "serve.json: \(setting.key)")
            #expect(fromVariable.origins[setting.key].map { "\($0)" } == setting.variable)
            #expect(!fromFile.holdsTheSameValues(as: defaults), "\(setting.key) changed nothing")
            #expect(fromVariable.holdsTheSameValues(as: fromFile), "\(setting.key) means the same in the variable and the file")
            if let option = setting.option {
                let arguments = setting.kind == .flag ? ["--\(option)"] : ["--\(option)", text]
                let given = try ServeCommand.parse(arguments).givenOptions
                let fromOption = try ServeSettings(options: given, environment: [setting.variable: text], file: file)
                #expect(fromOption.origins[setting.key].map { "\($0)" } == "--\(option)")
                #expect(fromOption.holdsTheSameValues(as: fromFile), "\(setting.key) means the same as an option and in the file")
            }
        }
    }

    @Test func everyOptionOfServeThatIsASettingIsInTheTable() throws {
        let help = ServeCommand.helpMessage(columns: 10_000)
        let options = Set(ServeSetting.all.compactMap(\.option))
        for setting in ServeSetting.all {
            if let option = setting.option { #expect(help.contains("--\(option) "), "--\(option)") }
        }
        // Every option of the help that is not in the table is the config file's.
        let others: Set<String> = ["config", "help", "version"]
        // The options' own lines, not the options their help mentions.
        let listed = help.split(separator: "\n").compactMap { line in line.firstMatch(of: /^\s+--([a-z][a-z-]*)/).map { String($0.output.1) } }
        for option in listed { #expect(options.contains(option) || others.contains(option), "--\(option) is in no table") }
    }

    @Test func theConfigurationPageListsTheTable() throws {
        let page = try String(contentsOfFile: packageRoot + "/docs/configuration.md", encoding: .utf8)
        #expect(page.contains(ServeSetting.documentationTable), "docs/configuration.md should hold:\n\(ServeSetting.documentationTable)")
    }
}

extension ServeSettings {
    /// Whether both hold the same values, wherever each was given.
    fileprivate func holdsTheSameValues(as other: ServeSettings) -> Bool {
        server == other.server && database == other.database && policyPath == other.policyPath
            && dashboardsDirectory == other.dashboardsDirectory && timeZone == other.timeZone && releaseAccess == other.releaseAccess
            && logLevel == other.logLevel && storage == other.storage
    }
}
