/// A release a store has in progress, as the store's own API tells it: an App Store phased release or a
/// Google Play staged rollout. Unlike an app version seen in events, which any holder of the public ingest
/// key can name, no client can make one.
public struct StoreRelease: Sendable, Hashable {
    /// The store releasing it.
    public var store: Store
    /// Its name at the store: the App Store version's `versionString` ("4.12.0"), or the Play release's
    /// `name` ("4.12.0 (412)", "412 (4.12.0)" or any name the team gave it).
    public var name: String
    /// Whether it is paused (App Store `PAUSED`) or halted (Play `halted`) rather than advancing.
    public var isPaused: Bool

    /// Creates a release.
    public init(store: Store, name: String, isPaused: Bool) {
        self.store = store
        self.name = name
        self.isPaused = isPaused
    }

    /// Whether this is the release of the app version `version` (as events carry it): the App Store's
    /// version string is the version itself; a Play release's name is it or holds it as a word.
    public func isRelease(of version: String) -> Bool {
        switch store {
        case .apple: name == version
        case .google: Self.names(name, version)
        }
    }

    /// Whether the release name `name` is `version` or holds it as a word ("4.12.0 (412)", "412 (4.12.0)").
    public static func names(_ name: String, _ version: String) -> Bool {
        name == version || name.split { !($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }.contains { $0 == version }
    }
}

/// Why a store's releases could not be read: the store, what was asked and what it answered.
public struct StoreReleaseReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in a few words ("reading track production of com.example: 503 …").
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
