import Foundation

/// The `serve --config` file: a JSON object whose keys are server settings (``ServeSetting/all``); an
/// unknown key is an error naming it, and a value of the wrong kind is one when the setting is read.
struct ServerConfigFile {
    /// The file, as errors name it.
    let path: String
    /// The values by key.
    let settings: [String: SettingValue]

    /// The keys a config file may hold.
    static var keys: [String] {
        ServeSetting.all.map(\.key).sorted()
    }

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "cannot read the config file \(path)")
        }
        try self.init(data: data, path: path)
    }

    /// The settings of a file's content; `path` names the file in errors.
    init(data: Data, path: String) throws {
        self.path = path
        guard let settings = try? JSONDecoder().decode([String: SettingValue].self, from: data) else {
            throw CommandFailure(message: "\(path): expected a JSON object of settings")
        }
        let known = Set(Self.keys)
        for key in settings.keys.sorted() where !known.contains(key) {
            throw CommandFailure(message: "\(path): unknown setting \"\(key)\"; known: \(Self.keys.joined(separator: ", "))")
        }
        self.settings = settings
    }
}
