/// The always-firing alert `serve --notify-heartbeat` posts to Alertmanager at every evaluation, as
/// Prometheus' `Watchdog`: routed to a dead man's switch, its absence says that the collector, its alert
/// evaluation or its path to Alertmanager is down, which no alert of its own can say.
public struct AlertHeartbeat: Sendable, Hashable {
    /// Its `alertname`.
    public static let alertName = "PurchaseSLIWatchdog"

    /// How long Alertmanager keeps it firing after a post (its `endsAt`): four evaluation intervals, as
    /// Prometheus gives its alerts, so one late round does not resolve it.
    public var validForSeconds: Int64
    /// The app whose alerts the notifier evaluates (its `app` label), or nil for every app's.
    public var app: String?
    /// The alert page it links to (`generatorURL`), or nil.
    public var pageURL: String?

    /// A heartbeat of a notifier evaluating every `intervalSeconds`.
    public init(intervalSeconds: Int64, app: String? = nil, pageURL: String? = nil) {
        validForSeconds = 4 * intervalSeconds
        self.app = app
        self.pageURL = pageURL
    }
}
