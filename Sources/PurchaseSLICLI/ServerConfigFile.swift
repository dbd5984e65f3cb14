import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIOutbound
import PurchaseSLIServer

/// The `serve --config` file: a JSON object whose keys are server settings; an unknown key or a value of
/// the wrong kind is an error naming the key.
struct ServerConfigFile {
    private let path: String
    private let settings: [String: Any]

    /// The settings a config file may hold, with what each expects (for errors and docs/configuration.md).
    static let keys: [String: String] = [
        "db": "a SQLite path or a postgres:// URL", "host": "a string", "port": "a whole number 0–65535", "ingestKeys": "an array of strings",
        "readKeys": "an array of strings", "adminKeys": "an array of strings",
        "readRequestsPerSecond": "a number", "readBurst": "a number", "maximumQueryRows": "a whole number",
        "pruneEvery": "a whole number of minutes such as \"1h\"",
        "maximumBodyBytes": "a whole number", "maximumDecompressedBytes": "a whole number",
        "maximumCompressionRatio": "a whole number", "maximumEventsPerRequest": "a whole number",
        "maximumLineBytes": "a whole number", "latenessLimit": "a duration such as \"8d\"",
        "newRelicEventType": "a string", "otlpEventName": "a string",
        "requestsPerSecondPerKey": "a number", "requestBurstPerKey": "a number", "idleTimeoutSeconds": "a whole number",
        "bodyTimeoutSeconds": "a whole number",
        "maximumEventsPerCommit": "a whole number", "notify": "an http or https URL",
        "notifyFormat": "\"alertmanager\" or \"slack\"", "notifyFallbacks": "an array of http or https URLs",
        "notifyFallbackFormat": "\"slack\" or \"alertmanager\"", "notifyHeartbeat": "true or false",
        "alertsEvery": "a whole number of minutes such as \"1m\"",
        "alertApps": "an array of app ids (bundle ids or package names)",
        "policy": "the path of a policy file (YAML)", "out": "the path of a directory",
        "renderEvery": "a whole number of minutes such as \"5m\"", "dashboards": "the path of a directory",
        "renderRange": "a whole number of minutes such as \"7d\"", "baseURL": "an http or https URL",
        "rolloutEvery": "a whole number of minutes such as \"1h\"", "rolloutCandidate": "an app version, or \"auto\"",
        "rolloutBaseline": "an app version", "rolloutNotify": "an http or https URL", "rolloutNotifyFormat": "\"slack\" or \"json\"",
        "appleBundleIDs": "an array of bundle ids", "appleRootCA": "an array of paths of root certificates (PEM or DER)",
        "googlePackages": "an array of package names", "googlePushTokens": "an array of strings",
    ].merging(RolloutActionOptions.configKeys) { first, _ in first }

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "cannot read the config file \(path)")
        }
        try self.init(data: data, path: path)
    }

    /// The settings of a file's content; `path` names the file in errors.
    init(data: Data, path: String) throws {
        self.path = path
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CommandFailure(message: "\(path): expected a JSON object of settings")
        }
        settings = object
    }

    func apply(to configuration: inout ServerConfiguration) throws {
        for key in settings.keys.sorted() where Self.keys[key] == nil {
            throw CommandFailure(message: "\(path): unknown setting \"\(key)\"; known: \(Self.keys.keys.sorted().joined(separator: ", "))")
        }
        if let host = try value("host", as: String.self) { configuration.host = host }
        if let port = try whole("port") {
            guard (0...65_535).contains(port) else { throw invalid("port") }
            configuration.port = port
        }
        if let keys = try value("ingestKeys", as: [String].self) { configuration.ingestKeys = AccessKeys(keys) }
        if let keys = try value("readKeys", as: [String].self) { configuration.readKeys = AccessKeys(keys) }
        if let keys = try value("adminKeys", as: [String].self) { configuration.adminKeys = AccessKeys(keys) }
        if let rate = try value("readRequestsPerSecond", as: Double.self) { configuration.readRequestsPerSecond = rate }
        if let burst = try value("readBurst", as: Double.self) { configuration.readBurst = burst }
        if let rows = try whole("maximumQueryRows") { configuration.maximumQueryRows = rows }
        if let text = try value("pruneEvery", as: String.self) {
            guard let seconds = TimeStep.minutes(parsing: text) else { throw invalid("pruneEvery") }
            configuration.pruneEverySeconds = seconds
        }
        if let bytes = try whole("maximumBodyBytes") { configuration.maximumBodyBytes = bytes }
        if let bytes = try whole("maximumDecompressedBytes") { configuration.maximumDecompressedBytes = bytes }
        if let ratio = try whole("maximumCompressionRatio") { configuration.maximumCompressionRatio = ratio }
        if let events = try whole("maximumEventsPerRequest") { configuration.maximumEventsPerRequest = events }
        if let bytes = try whole("maximumLineBytes") { configuration.maximumLineBytes = bytes }
        if let type = try value("newRelicEventType", as: String.self) {
            guard !type.isEmpty else { throw invalid("newRelicEventType") }
            configuration.newRelicEventType = type
        }
        if let name = try value("otlpEventName", as: String.self) {
            guard !name.isEmpty else { throw invalid("otlpEventName") }
            configuration.otlpEventName = name
        }
        if let text = try value("latenessLimit", as: String.self) {
            guard let step = TimeStep(parsing: text) else { throw invalid("latenessLimit") }
            configuration.latenessLimitMillis = step.seconds * 1000
        }
        if let rate = try value("requestsPerSecondPerKey", as: Double.self) { configuration.requestsPerSecondPerKey = rate }
        if let burst = try value("requestBurstPerKey", as: Double.self) { configuration.requestBurstPerKey = burst }
        if let seconds = try whole("idleTimeoutSeconds") { configuration.idleTimeoutSeconds = Int64(seconds) }
        if let seconds = try whole("bodyTimeoutSeconds") { configuration.bodyTimeoutSeconds = Int64(seconds) }
        if let events = try whole("maximumEventsPerCommit") { configuration.maximumEventsPerCommit = events }
        if let text = try value("notify", as: String.self) {
            guard let url = OutboundHTTP.absoluteURL(text) else { throw invalid("notify") }
            configuration.notifyURL = url
        }
        if let text = try value("notifyFormat", as: String.self) {
            guard let format = AlertNotificationFormat(rawValue: text) else { throw invalid("notifyFormat") }
            configuration.notifyFormat = format
        }
        if let texts = try value("notifyFallbacks", as: [String].self) {
            configuration.notifyFallbackURLs = try texts.enumerated().map { index, text in
                guard let url = OutboundHTTP.absoluteURL(text) else {
                    throw CommandFailure(message: "\(path): notifyFallbacks[\(index)] expects an http or https URL, got \"\(text)\"")
                }
                return url
            }
        }
        if let text = try value("notifyFallbackFormat", as: String.self) {
            guard let format = AlertNotificationFormat(rawValue: text) else { throw invalid("notifyFallbackFormat") }
            configuration.notifyFallbackFormat = format
        }
        if let on = try value("notifyHeartbeat", as: Bool.self) { configuration.notifyHeartbeat = on }
        if let directory = try value("out", as: String.self) { configuration.pagesDirectory = directory }
        if let text = try value("baseURL", as: String.self) {
            guard let url = LinkOptions.normalized(text) else { throw invalid("baseURL") }
            configuration.baseURL = url
        }
        if let text = try value("renderEvery", as: String.self) {
            guard let seconds = TimeStep.minutes(parsing: text), seconds > 0 else { throw invalid("renderEvery") }
            configuration.renderEverySeconds = seconds
        }
        if let text = try value("renderRange", as: String.self) {
            guard let seconds = TimeStep.minutes(parsing: text), seconds > 0 else { throw invalid("renderRange") }
            configuration.renderRangeSeconds = seconds
        }
        if let text = try value("rolloutEvery", as: String.self) {
            guard let seconds = TimeStep.minutes(parsing: text), seconds > 0 else { throw invalid("rolloutEvery") }
            configuration.rolloutEverySeconds = seconds
        }
        if let text = try value("rolloutCandidate", as: String.self) { configuration.rolloutCandidate = text == "auto" ? nil : text }
        if let text = try value("rolloutBaseline", as: String.self) { configuration.rolloutBaseline = text }
        if let text = try value("rolloutNotify", as: String.self) {
            guard let url = OutboundHTTP.absoluteURL(text) else { throw invalid("rolloutNotify") }
            configuration.rolloutNotifyURL = url
        }
        if let text = try value("rolloutNotifyFormat", as: String.self) {
            guard let format = RolloutNotificationFormat(rawValue: text) else { throw invalid("rolloutNotifyFormat") }
            configuration.rolloutNotifyFormat = format
        }
        if let text = try value("alertsEvery", as: String.self) {
            guard let seconds = TimeStep.minutes(parsing: text) else { throw invalid("alertsEvery") }
            configuration.alertsEverySeconds = seconds
        }
        if let apps = try value("alertApps", as: [String].self) { configuration.alertApps = apps }
        try applyStoreSettings(to: &configuration)
    }

    /// The settings of the stores' notification endpoints.
    private func applyStoreSettings(to configuration: inout ServerConfiguration) throws {
        if let ids = try value("appleBundleIDs", as: [String].self) { configuration.appleBundleIDs = Set(ids) }
        if let paths = try value("appleRootCA", as: [String].self) {
            guard !paths.isEmpty else { throw invalid("appleRootCA") }
            configuration.appleRootCertificates = try StoreNotificationOptions.certificates(at: paths, setting: "\(path): appleRootCA")
        }
        if let names = try value("googlePackages", as: [String].self) { configuration.googlePackageNames = Set(names) }
        if let tokens = try value("googlePushTokens", as: [String].self) {
            let keys = AccessKeys(tokens)
            guard keys.isEnabled else { throw invalid("googlePushTokens") }
            configuration.googlePushTokens = keys
        }
    }

    /// The string of `key`, if the file has it; an error naming the key when it is not a string.
    func text(_ key: String) throws -> String? {
        try value(key, as: String.self)
    }

    /// The `policy` file the config names, if any; `serve` reads it only when it notifies or renders.
    func policyPath() throws -> String? {
        try value("policy", as: String.self)
    }

    /// The store the config names (`db`), if any: a SQLite path or a PostgreSQL URL.
    func database() throws -> String? {
        try value("db", as: String.self)
    }

    /// The `dashboards` directory the config names, if any; `serve` reads it only when it renders.
    func dashboardsPath() throws -> String? {
        try value("dashboards", as: String.self)
    }

    private func value<Value>(_ key: String, as type: Value.Type) throws -> Value? {
        guard let raw = settings[key] else { return nil }
        guard let value = raw as? Value else { throw invalid(key) }
        return value
    }

    /// A positive whole number (0 allowed for the port).
    private func whole(_ key: String) throws -> Int? {
        guard let number = try value(key, as: NSNumber.self) else { return nil }
        let value = number.doubleValue
        guard value.rounded() == value, value >= (key == "port" ? 0 : 1), value < 1e12 else { throw invalid(key) }
        return Int(value)
    }

    private func invalid(_ key: String) -> CommandFailure {
        CommandFailure(message: "\(path): \(key) expects \(Self.keys[key] ?? "another value"), got \(settings[key].map { "\($0)" } ?? "nothing")")
    }
}
