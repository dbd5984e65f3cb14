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
    /// The App Store phased release's day (`currentDayNumber`, 1 to 7: 1, 2, 5, 10, 20, 50, 100 % of
    /// automatic-update users), nil for Play or when not given.
    public var dayNumber: Int?
    /// The days the App Store phased release has been paused in all (`totalPauseDuration`; Apple allows
    /// ``applePauseLimitDays``), nil for Play or when not given.
    public var pausedDays: Int?
    /// The share of users a Play staged rollout reaches (`userFraction`, 0 to 1), nil for the App Store or
    /// when not given.
    public var userFraction: Double?

    /// The days an App Store phased release may be paused in all.
    public static let applePauseLimitDays = 30

    /// Creates a release.
    public init(
        store: Store, name: String, isPaused: Bool, dayNumber: Int? = nil, pausedDays: Int? = nil, userFraction: Double? = nil
    ) {
        self.store = store
        self.name = name
        self.isPaused = isPaused
        self.dayNumber = dayNumber
        self.pausedDays = pausedDays
        self.userFraction = userFraction
    }

    /// The share of users it reaches, in percent, as the store says: the App Store's step for its day,
    /// Play's user fraction; nil when the store did not say.
    public var percent: Double? {
        switch store {
        case .apple: dayNumber.map { Double(Self.appleStep(onDay: $0)) }
        case .google: userFraction.map { $0 * 100 }
        }
    }

    /// Apple's phased release steps, in percent of automatic-update users, one a day.
    public static let appleSteps = [1, 2, 5, 10, 20, 50, 100]

    /// The step Apple's schedule puts a phased release at on its `day` (1 %, 2 %, 5 %, 10 %, 20 %, 50 %,
    /// then 100 % from day 7), if it was never paused.
    public static func appleStep(onDay day: Int) -> Int {
        appleSteps[min(max(day, 1), appleSteps.count) - 1]
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

extension Store {
    /// The platform names (lower case) of apps the App Store releases.
    public static let applePlatforms: Set<String> = ["ios", "ipados", "macos", "tvos", "visionos", "watchos"]

    /// The stores that release an app on `platforms` (events' platform names; none known: every store).
    public static func releasing(platforms: [String]) -> Set<Store> {
        guard !platforms.isEmpty else { return Set(Store.allCases) }
        var stores: Set<Store> = []
        for platform in platforms {
            if applePlatforms.contains(platform.lowercased()) { stores.insert(.apple) }
            if platform.lowercased() == "android" { stores.insert(.google) }
        }
        return stores
    }
}
