/// What to simulate: a scenario, a time range, a seed and a traffic level.
public struct SimulationParameters: Sendable, Hashable {
    /// The attempt rate used when none is given: 30 attempts a minute at the daily mean.
    public static let defaultAttemptsPerMinute = 30.0

    /// The traffic pattern and incident.
    public var scenario: Scenario
    /// Start of the run, in milliseconds since the epoch; incidents are placed relative to it.
    public var startMillis: Int64
    /// Length of the run in days (24 h each); zero or less gives no events.
    public var days: Int
    /// Seed of the random generator; the same parameters always give the same events.
    public var seed: UInt64
    /// Average attempts (`start` events of purchases, restores and retries) per minute over a day, before an
    /// incident adds its own; the actual rate follows the time of day (about 0.4× to 1.6×) and the weekday.
    public var attemptsPerMinute: Double
    /// The app every event names (its bundle id or package name), or nil for events that name none.
    public var app: String?
    /// The names of products, builds, OS releases and offers the events carry.
    public var catalog: Catalog

    /// Creates parameters; `attemptsPerMinute` below zero or not finite counts as zero.
    public init(
        scenario: Scenario = .steady, startMillis: Int64, days: Int = 7, seed: UInt64 = 1,
        attemptsPerMinute: Double = defaultAttemptsPerMinute, app: String? = nil, catalog: Catalog = .standard
    ) {
        self.scenario = scenario
        self.startMillis = startMillis
        self.days = days
        self.seed = seed
        self.attemptsPerMinute = attemptsPerMinute
        self.app = app
        self.catalog = catalog
    }

    /// The length of the run in milliseconds (zero for a run of no days).
    public var durationMillis: Int64 { Int64(max(days, 0)) * .millisPerDay }

    /// End of the run (exclusive): attempts start before it; their later steps and late deliveries may fall after.
    public var endMillis: Int64 { startMillis + durationMillis }

    /// A number below 1,000,000 that differs between runs of different parameters (FNV-1a of them): the
    /// run's store transaction ids start from it, so that files of different runs (the sample logs'
    /// scenarios, one after another) never share a transaction id while the same run stays reproducible.
    /// Runs of different apps and catalogs differ too; a run without an app under the standard catalog keeps
    /// the tag it had before apps.
    var runTag: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let tail = (app.map { " \($0)" } ?? "") + (catalog == .standard ? "" : " \(catalog.rawValue)")
        for byte in ("\(scenario.rawValue) \(startMillis) \(days) \(seed) \(attemptsPerMinute)" + tail).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash % 1_000_000
    }
}
