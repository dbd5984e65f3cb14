import PurchaseSLICore

/// A setting of ``ServerConfiguration`` that cannot work with the others, named as in the config file.
public struct InvalidSetting: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting's config-file key, e.g. `notifyHeartbeat`.
    public let key: String
    /// What the setting accepts.
    public let expected: String
    /// The value given.
    public let got: String

    public var description: String { "\(key): expected \(expected), got \(got)" }
}

extension ServerConfiguration {
    /// Refuses settings that each make sense alone but not together, so that `serve` fails at start naming
    /// the key. Each setting's own range is checked where it is read (`serve`'s settings table).
    public func validate() throws(InvalidSetting) {
        if notifyHeartbeat, notifyFormat != .alertmanager {
            throw InvalidSetting(
                key: "notifyHeartbeat", expected: "false unless notifyFormat is alertmanager (a chat would get a message every minute)",
                got: "true")
        }
    }
}
