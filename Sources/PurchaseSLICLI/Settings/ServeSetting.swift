import ArgumentParser
import Foundation
import PurchaseSLICore
import PurchaseSLIOutbound
import PurchaseSLIServer

/// One setting of `serve`, written once: its config key, option and environment variable, what it
/// expects, its default, and how a value of it becomes part of ``ServeSettings``. The options' help, the
/// config file's keys, the environment, the errors and docs/configuration.md's table all come from the
/// table of these (``all``).
struct ServeSetting: Sendable {
    /// What a value is written as, which decides how the environment's text and the config file's JSON are read.
    enum Kind: Sendable {
        /// One text (a JSON string in the config file).
        case text
        /// A number (a JSON number, or text that is one).
        case number
        /// true or false (an option without a value).
        case flag
        /// Several texts: a repeated option, a comma-separated variable, a JSON array of strings.
        case list
        /// Keys: a file of them from the option or variable, the keys themselves in the config file.
        case keys
    }

    /// A value that is not what the setting expects; `index` names the item of a list at fault.
    struct Unexpected: Error {
        var index: Int?
    }

    /// Where a value was given; errors name it.
    enum Origin: CustomStringConvertible, Sendable {
        case option(String)
        case variable(String)
        case configFile(path: String, key: String)

        var description: String {
            switch self {
            case .option(let option): "--\(option)"
            case .variable(let variable): variable
            case .configFile(let path, let key): "\(path): \(key)"
            }
        }
    }

    /// The config file's key, which also names the setting in errors and docs.
    let key: String
    /// The option, without its dashes (`notify-fallback`); nil when only the file and the environment have it.
    let option: String?
    /// What the value is written as.
    let kind: Kind
    /// What the value may be, as errors and docs say it (for a list, what each item may be).
    let expects: String
    /// The default, as the help and the docs say it.
    let defaultText: String
    /// What the setting does, one sentence without its final period.
    let summary: String
    /// The option's placeholder in the help.
    let valueName: String
    /// Puts a value given at `origin` into the settings; throws ``Unexpected`` when it is not what the
    /// setting expects, or an error of its own that names `origin`.
    let read: @Sendable (_ value: SettingValue, _ origin: Origin, _ settings: inout ServeSettings) throws -> Void

    /// The environment variable: `PURCHASE_SLI_` and the key in capitals, a `_` between words
    /// (`baseURL` is `PURCHASE_SLI_BASE_URL`).
    var variable: String {
        var name = "PURCHASE_SLI_"
        var previous: Character?
        for character in key {
            if character.isUppercase, let previous, previous.isLowercase { name.append("_") }
            name += character.uppercased()
            previous = character
        }
        return name
    }

    /// The help of an option of the same name in a command that reads no environment (`ingest`'s caps):
    /// what it does and what it expects, and its default when the option has no value of its own to show.
    func optionHelp(sayingDefault: Bool = false) -> ArgumentHelp {
        ArgumentHelp("\(summary) (\(expects)\(sayingDefault ? "; default \(defaultText)" : "")).", valueName: valueName)
    }

    /// The option's help: what it does, its variable and its default.
    var help: ArgumentHelp {
        ArgumentHelp("\(summary) (env \(variable)\(kind == .list ? ", comma-separated" : ""); default \(defaultText)).", valueName: valueName)
    }

    /// The setting of `key` in the table; a programming error when there is none.
    static func named(_ key: String) -> ServeSetting {
        guard let setting = all.first(where: { $0.key == key }) else { preconditionFailure("no serve setting \(key)") }
        return setting
    }

    /// The value an environment variable's text stands for.
    func value(ofVariable text: String) -> SettingValue {
        kind == .list ? .commaSeparated(text) : .text(text)
    }

    /// Reads `value` given at `origin` into `settings`; an error names the origin, what was expected and
    /// what was given.
    func read(_ value: SettingValue, at origin: Origin, into settings: inout ServeSettings) throws {
        do {
            try read(value, origin, &settings)
        } catch let unexpected as Unexpected {
            if let index = unexpected.index, let items = value.list {
                throw CommandFailure(message: "\(origin)[\(index)]: expected \(expects), got \"\(items[index])\"")
            }
            let wanted =
                switch (kind, origin) {
                case (.list, _), (.keys, .configFile): "an array of strings"
                default: expects
                }
            throw CommandFailure(message: "\(origin): expected \(wanted), got \(value)")
        }
    }
}

extension ServeSetting {
    /// A whole number in `range`, kept at `path`; its default is the configuration's.
    static func whole<Number: BinaryInteger & Sendable>(
        _ key: String, option: String? = nil, _ range: ClosedRange<Int>, valueName: String = "n", _ summary: String,
        into path: any WritableKeyPath<ServeSettings, Number> & Sendable
    ) -> ServeSetting {
        ServeSetting(
            key: key, option: option, kind: .number, expects: "a whole number from \(range.lowerBound) to \(range.upperBound)",
            defaultText: "\(ServeSettings()[keyPath: path])", summary: summary, valueName: valueName
        ) { value, _, settings in
            guard let number = value.wholeNumber, range.contains(number) else { throw Unexpected() }
            settings[keyPath: path] = Number(number)
        }
    }

    /// A number from `lowest` to `highest`, kept at `path`; its default is the configuration's.
    static func number(
        _ key: String, from lowest: Double, to highest: Double, _ summary: String,
        into path: any WritableKeyPath<ServeSettings, Double> & Sendable
    ) -> ServeSetting {
        ServeSetting(
            key: key, option: nil, kind: .number, expects: "a number from \(lowest.formatted) to \(highest.formatted)",
            defaultText: ServeSettings()[keyPath: path].formatted, summary: summary, valueName: "n"
        ) { value, _, settings in
            guard let number = value.number, number >= lowest, number <= highest else { throw Unexpected() }
            settings[keyPath: path] = number
        }
    }

    /// A whole number of minutes (`5m`, `1h`) in `range` seconds, kept in seconds at `path`; its default
    /// is the configuration's.
    static func minutes(
        _ key: String, option: String? = nil, _ range: ClosedRange<Int64>, _ summary: String,
        into path: any WritableKeyPath<ServeSettings, Int64> & Sendable
    ) -> ServeSetting {
        minutes(key, option: option, range, default: "\(TimeStep(seconds: ServeSettings()[keyPath: path]))", summary) {
            $0[keyPath: path] = $1
        }
    }

    /// A day's total ceiling of every app together, kept at `path` (nil: ten times the setting `cap`).
    static func total(
        _ key: String, option: String, of cap: String, _ summary: String, into path: any WritableKeyPath<ServeSettings, Int?> & Sendable
    ) -> ServeSetting {
        ServeSetting(
            key: key, option: option, kind: .number, expects: "a whole number from 1 to \(StorageSettings.largestTotalCap), at least \(cap)",
            defaultText: "10 × \(cap)", summary: summary, valueName: "n"
        ) { value, _, settings in
            guard let number = value.wholeNumber, (1...StorageSettings.largestTotalCap).contains(number) else { throw Unexpected() }
            settings[keyPath: path] = number
        }
    }

    /// A duration (`8d`, `12h`, `2w`) of at least `minimum` seconds, kept in seconds at `path`.
    static func duration(
        _ key: String, option: String, atLeast minimum: Int64 = 1, _ summary: String,
        into path: any WritableKeyPath<ServeSettings, Int64> & Sendable
    ) -> ServeSetting {
        let examples = minimum > .secondsPerDay ? "14d or 2w" : "35d, 12h or 2w"
        return ServeSetting(
            key: key, option: option, kind: .text, expects: "a duration of at least \(TimeStep(seconds: minimum)) such as \(examples)",
            defaultText: "\(TimeStep(seconds: ServeSettings()[keyPath: path]))", summary: summary, valueName: "duration"
        ) { value, _, settings in
            guard let step = value.text.flatMap(TimeStep.init(parsing:)), step.seconds >= minimum else { throw Unexpected() }
            settings[keyPath: path] = step.seconds
        }
    }

    /// A whole number of minutes in `range` seconds, kept in seconds at `path`, which is nil by default.
    static func minutes(
        _ key: String, option: String? = nil, _ range: ClosedRange<Int64>, default defaultText: String, _ summary: String,
        into path: any WritableKeyPath<ServeSettings, Int64?> & Sendable
    ) -> ServeSetting {
        minutes(key, option: option, range, default: defaultText, summary) { $0[keyPath: path] = $1 }
    }

    private static func minutes(
        _ key: String, option: String?, _ range: ClosedRange<Int64>, default defaultText: String, _ summary: String,
        set: @escaping @Sendable (inout ServeSettings, Int64) -> Void
    ) -> ServeSetting {
        ServeSetting(
            key: key, option: option, kind: .text,
            expects: "a whole number of minutes from \(TimeStep(seconds: range.lowerBound)) to \(TimeStep(seconds: range.upperBound))",
            defaultText: defaultText, summary: summary, valueName: "duration"
        ) { value, _, settings in
            guard let text = value.text, let seconds = TimeStep.minutes(parsing: text), range.contains(seconds) else { throw Unexpected() }
            set(&settings, seconds)
        }
    }

    /// One of a format's cases, kept at `path`; its default is the settings'.
    static func choice<Choice: RawRepresentable<String> & CaseIterable & Sendable>(
        _ key: String, option: String, _ summary: String, into path: any WritableKeyPath<ServeSettings, Choice> & Sendable
    ) -> ServeSetting {
        let defaultName = ServeSettings()[keyPath: path].rawValue
        let names = [defaultName] + Choice.allCases.map(\.rawValue).filter { $0 != defaultName }
        return oneOf(key, option: option, names, default: defaultName, summary) { settings, name in
            settings[keyPath: path] = Choice(rawValue: name)!
        }
    }

    /// One of `names`, which `set` keeps.
    static func oneOf(
        _ key: String, option: String, _ names: [String], default defaultText: String, _ summary: String,
        set: @escaping @Sendable (inout ServeSettings, String) -> Void
    ) -> ServeSetting {
        ServeSetting(
            key: key, option: option, kind: .text, expects: names.dropLast().joined(separator: ", ") + " or " + names.last!,
            defaultText: defaultText, summary: summary, valueName: names.joined(separator: "|")
        ) { value, _, settings in
            guard let name = value.text, names.contains(name) else { throw Unexpected() }
            set(&settings, name)
        }
    }

    /// An http or https URL, kept at `path`.
    static func url(
        _ key: String, option: String, default defaultText: String, _ summary: String,
        into path: any WritableKeyPath<ServeSettings, URL?> & Sendable
    ) -> ServeSetting {
        ServeSetting(
            key: key, option: option, kind: .text, expects: "an http or https URL", defaultText: defaultText, summary: summary,
            valueName: "url"
        ) { value, _, settings in
            guard let url = value.text.flatMap(OutboundHTTP.absoluteURL) else { throw Unexpected() }
            settings[keyPath: path] = url
        }
    }

    /// A non-empty name, kept at `path`.
    static func name(_ key: String, _ summary: String, into path: any WritableKeyPath<ServeSettings, String> & Sendable) -> ServeSetting {
        ServeSetting(
            key: key, option: nil, kind: .text, expects: "a name that is not empty", defaultText: ServeSettings()[keyPath: path],
            summary: summary, valueName: "name"
        ) { value, _, settings in
            guard let text = value.text, !text.isEmpty else { throw Unexpected() }
            settings[keyPath: path] = text
        }
    }

    /// A text, kept at `path` (nil by default); an empty text is refused.
    static func text(
        _ key: String, option: String, expects: String, default defaultText: String, _ summary: String, valueName: String,
        into path: any WritableKeyPath<ServeSettings, String?> & Sendable
    ) -> ServeSetting {
        ServeSetting(
            key: key, option: option, kind: .text, expects: expects, defaultText: defaultText, summary: summary, valueName: valueName
        ) { value, _, settings in
            guard let text = value.text, !text.isEmpty else { throw Unexpected() }
            settings[keyPath: path] = text
        }
    }

    /// Names (bundle ids, package names) from a repeated option or a list, kept as a set at `path`.
    static func names(
        _ key: String, option: String, expects: String, default defaultText: String, _ summary: String, valueName: String,
        into path: any WritableKeyPath<ServeSettings, Set<String>> & Sendable
    ) -> ServeSetting {
        ServeSetting(
            key: key, option: option, kind: .list, expects: expects, defaultText: defaultText, summary: summary, valueName: valueName
        ) { value, _, settings in
            guard let names = value.list else { throw Unexpected() }
            settings[keyPath: path] = Set(names)
        }
    }

    /// Keys that `kind` holders present, kept at `path`: read from a file named by the option or the
    /// variable (one per line, `#` comments), or listed in the config file.
    static func keys(
        _ key: String, option: String, kind keyKind: String, default defaultText: String, _ summary: String,
        into path: any WritableKeyPath<ServeSettings, AccessKeys> & Sendable
    ) -> ServeSetting {
        ServeSetting(
            key: key, option: option, kind: .keys, expects: "a file of \(keyKind) keys",
            defaultText: defaultText, summary: summary, valueName: "file"
        ) { value, origin, settings in
            switch (value, origin) {
            case (.list(let keys), .configFile):
                settings[keyPath: path] = AccessKeys(keys)
            case (.text(let file), .option), (.text(let file), .variable):
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw CommandFailure(message: "\(origin): cannot read the \(keyKind) keys file \(file)")
                }
                let keys = AccessKeys(fileContents: text)
                guard keys.isEnabled else { throw CommandFailure(message: "\(origin): the \(keyKind) keys file \(file) holds no key") }
                settings[keyPath: path] = keys
            default:
                throw Unexpected()
            }
        }
    }
}

extension Double {
    /// The number as docs and errors write it: `10`, `0.001`, `1000000`.
    fileprivate var formatted: String {
        rounded() == self && abs(self) < 1e15 ? "\(Int64(self))" : "\(self)"
    }
}
