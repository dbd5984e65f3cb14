/// The caps of one app that differ from the store's, as the policy names them (`apps:` in slos.yaml).
public struct AppCaps: Sendable, Hashable {
    /// Distinct series of the app admitted per UTC day; nil: the store's ``StoreConfiguration/seriesCap``.
    public var seriesCap: Int?
    /// Distinct values per dimension admitted per UTC day in the app's budget; nil: the store's
    /// ``StoreConfiguration/cardinalityCap``.
    public var cardinalityCap: Int?

    /// Creates an app's caps.
    public init(seriesCap: Int? = nil, cardinalityCap: Int? = nil) {
        self.seriesCap = seriesCap
        self.cardinalityCap = cardinalityCap
    }
}

/// What a key is admitted under: the cap of its own slot (an app's budget), and the day's total ceiling
/// the slot counts within.
public struct CapLimits: Sendable, Hashable {
    /// The most keys its own slot admits a day.
    public var own: Int
    /// The most keys every slot of the day admits together; past it the slot admits no more.
    public var total: Int

    /// Creates limits.
    public init(own: Int, total: Int) {
        self.own = own
        self.total = total
    }
}

extension StoreConfiguration {
    /// The budget of the values `app`'s events name (`""`: events without an app; `__other__`: apps
    /// past the apps' cap): the app's own cardinality cap when ``appCaps`` names it, and then no total
    /// ceiling (the day's total still counts its values, so the apps it does not name share what is left),
    /// else ``cardinalityCap`` within ``totalCardinalityCap``.
    public func valueLimits(ofApp app: String) -> CapLimits {
        guard let caps = appCaps[app] else { return CapLimits(own: cardinalityCap, total: totalCardinalityCap) }
        return CapLimits(own: caps.cardinalityCap ?? cardinalityCap, total: .max)
    }

    /// The budget of `app`'s series, as ``valueLimits(ofApp:)`` for values.
    public func seriesLimits(ofApp app: String) -> CapLimits {
        guard let caps = appCaps[app] else { return CapLimits(own: seriesCap, total: totalSeriesCap) }
        return CapLimits(own: caps.seriesCap ?? seriesCap, total: .max)
    }

    /// What `app` meets among the day's apps: an app ``appCaps`` names always counts as itself, so that
    /// apps invented by whoever holds an ingest key cannot push it into `__other__`; any other app counts
    /// as itself among the first ``cardinalityCap``.
    public func limits(ofAppItself app: String) -> CapLimits {
        appCaps[app] != nil ? CapLimits(own: .max, total: .max) : CapLimits(own: cardinalityCap, total: totalCardinalityCap)
    }
}
