public import Foundation
public import PurchaseSLIAnalysis
public import PurchaseSLIApplication
public import PurchaseSLICore
import PurchaseSLIDecoding

/// Everything `purchase-sli serve` can be told: where to listen, which keys to accept, the limits that
/// keep a service exposed to millions of phones fast and hard to abuse, and where to send alerts.
public struct ServerConfiguration: Sendable, Hashable {
    /// Address to bind.
    public var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one.
    public var port = 8080
    /// Accepted ingest keys; none means no key is required.
    public var ingestKeys = AccessKeys([])
    /// Accepted read keys (queries, pages, metrics); none means reads are open to anyone who can connect.
    public var readKeys = AccessKeys([])
    /// Accepted admin keys: they declare and remove maintenance windows (`POST` and `DELETE
    /// /v1/maintenance`), and read as a read key does; none means no window can be declared over HTTP.
    public var adminKeys = AccessKeys([])
    /// Read requests per second each read key (or, without read keys, each client address) may make on
    /// average.
    public var readRequestsPerSecond: Double = 10
    /// Read requests a key or address may make in a burst above the average.
    public var readBurst: Double = 60
    /// Seconds between prunings of old buckets and expired eventIDs (also done at start).
    public var pruneEverySeconds: Int64 = .secondsPerHour
    /// Most rows one query may answer (time steps × groups); more is a 400 saying how to narrow it.
    public var maximumQueryRows = 100_000
    /// Largest request body as sent (compressed or not), in bytes.
    public var maximumBodyBytes = 1 << 20
    /// Largest body after gzip decompression, in bytes.
    public var maximumDecompressedBytes = 8 << 20
    /// Largest decompressed-to-compressed size ratio (checked while inflating).
    public var maximumCompressionRatio = 100
    /// Most events in one request.
    public var maximumEventsPerRequest = 1000
    /// Longest line (NDJSON record or array element), in bytes.
    public var maximumLineBytes = 64 << 10
    /// The New Relic event type whose events `POST /v1/accounts/{accountID}/events` counts; other types
    /// are ignored.
    public var newRelicEventType = EventFormat.defaultNewRelicEventType
    /// The OpenTelemetry event name whose log records `POST /v1/logs` counts; other records are ignored.
    public var otlpEventName = EventFormat.defaultOTLPEventName
    /// Events older than this before the receiving clock are rejected, in milliseconds (8 days: the App
    /// Store retries notifications for up to 157 hours).
    public var latenessLimitMillis: Int64 = 8 * .millisPerDay
    /// Requests per second each ingest key may make on average.
    public var requestsPerSecondPerKey: Double = 2000
    /// Requests a key may make in a burst above the average.
    public var requestBurstPerKey: Double = 4000
    /// Seconds a connection may stay idle (no header or body bytes) before it is closed.
    public var idleTimeoutSeconds: Int64 = 30
    /// Seconds a request body may take to arrive in full before the request is refused with 408.
    public var bodyTimeoutSeconds: Int64 = 30
    /// Most events committed in one transaction by the group committer.
    public var maximumEventsPerCommit = 50_000
    /// Where alert notifications are posted; nil: alerts are not evaluated.
    public var notifyURL: URL?
    /// What `notifyURL` is, and so what is posted to it.
    public var notifyFormat = AlertNotificationFormat.alertmanager
    /// Where the alerts go while `notifyURL` has failed every delivery for 5 minutes; empty: to
    /// `rolloutNotifyURL` when that is a Slack webhook of its own (``alertFallbacks``).
    public var notifyFallbackURLs: [URL] = []
    /// What `notifyFallbackURLs` are.
    public var notifyFallbackFormat = AlertNotificationFormat.slack
    /// Whether every post to the Alertmanager of `notifyURL` carries the always-firing `PurchaseSLIWatchdog`
    /// alert, and a post goes at every evaluation.
    public var notifyHeartbeat = false
    /// Seconds between alert evaluations, a whole number of minutes.
    public var alertsEverySeconds: Int64 = .secondsPerMinute
    /// The apps whose alerts are evaluated and notified apart, each as `alerts --app` would (its own
    /// objectives' budgets, baselines and incidents, its reports naming it); empty: every app's events
    /// together.
    public var alertApps: [String] = []
    /// The apps judged apart, as the alert notifier and `/metrics/slo` go through them: ``alertApps``, or
    /// nil alone (every app's events together) when it is empty.
    var judgedApps: [String?] { alertApps.isEmpty ? [nil] : alertApps }
    /// The SLOs and alert rules evaluated (alerts and dashboards).
    public var alertPolicy = SLOPolicy.default
    /// The zone pages and Slack text write times in (`--time-zone`, else the policy's `timeZone`); JSON stays UTC.
    public var timeZone = TimeZoneOffsets.utc
    /// Directory of rendered pages served at `/`; nil: no pages are served.
    public var pagesDirectory: String?
    /// Seconds between renderings of the dashboards into `pagesDirectory`, a whole number of minutes;
    /// nil: the directory is served as it is.
    public var renderEverySeconds: Int64?
    /// The dashboards rendered.
    public var dashboards: [DashboardDefinition] = []
    /// How far back the rendered pages reach, in seconds.
    public var renderRangeSeconds: Int64 = 7 * .secondsPerDay
    /// The apps whose page sets the dashboard publisher writes apart into `apps/<dir>/` of
    /// `pagesDirectory` (beside the every-app set, whose index lists them): the apps judged and notified
    /// apart (``alertApps``), so that a page firing on an app's line is one somebody was notified of; none
    /// when the service renders no pages.
    public var appsWithPages: [String] {
        pagesDirectory != nil && renderEverySeconds != nil ? alertApps : []
    }
    /// Where the pages are served from outside (`https://sli.example.com`), for the links of alert text,
    /// Slack and Alertmanager (`generatorURL`); nil for none.
    public var baseURL: String?

    /// The App Store's trusted roots, each PEM or DER; nil: Apple Root CA - G3.
    public var appleRootCertificates: [[UInt8]]?
    /// The bundle ids whose App Store notifications are accepted; none: the App Store endpoint refuses all.
    public var appleBundleIDs: Set<String> = []
    /// The package names whose Google Play notifications are accepted; none: the Play endpoint refuses all.
    public var googlePackageNames: Set<String> = []
    /// The tokens a Pub/Sub push presents (`?token=` in its URL, or `Authorization: Bearer`).
    public var googlePushTokens = AccessKeys([])
    /// Whether a store's notification endpoint accepts anything (a bundle id or a package is configured).
    public var takesStoreNotifications: Bool { !appleBundleIDs.isEmpty || !googlePackageNames.isEmpty }

    /// Seconds between rollout checks, a whole number of minutes; nil: the service checks no rollout.
    public var rolloutEverySeconds: Int64?
    /// The app version whose phased release is checked; nil: the newest one with real traffic.
    public var rolloutCandidate: String?
    /// The version it is compared with; nil: the busiest other one.
    public var rolloutBaseline: String?
    /// Where rollout verdict changes are posted; nil: to `notifyURL` when that is Slack, else only logged.
    public var rolloutNotifyURL: URL?
    /// What `rolloutNotifyURL` is posted as.
    public var rolloutNotifyFormat = RolloutNotificationFormat.slack
    /// Whether and how the rollout verdicts pause the stores' releases (off by default).
    public var rolloutActions = RolloutActionSettings()

    /// The defaults, listed in docs/configuration.md.
    public init() {}

    /// The receivers that take the alerts while `notifyURL` fails, with their formats: `notifyFallbackURLs`,
    /// else the rollout receiver when it is a Slack webhook other than `notifyURL` (a channel people read).
    public var alertFallbacks: [(url: URL, format: AlertNotificationFormat)] {
        if !notifyFallbackURLs.isEmpty { return notifyFallbackURLs.map { ($0, notifyFallbackFormat) } }
        guard let rollout = rolloutNotifyURL, rolloutNotifyFormat == .slack, rollout != notifyURL else { return [] }
        return [(rollout, .slack)]
    }
}
