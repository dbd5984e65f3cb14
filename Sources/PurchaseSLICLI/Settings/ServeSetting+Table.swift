import ArgumentParser
import Foundation
import Logging
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIOutbound
import PurchaseSLIServer
import PurchaseSLIStores

extension ServeSetting {
    /// Every setting of `serve`, in the order of docs/configuration.md.
    static let all: [ServeSetting] = service + limits + storage + alerts + pages + rollout + releaseActions + stores

    /// Where the service listens, what it stores to, and who may call it.
    private static let service: [ServeSetting] = [
        ServeSetting(
            key: "db", option: "db", kind: .text, expects: "a SQLite path or a postgres:// URL", defaultText: "purchase-sli.sqlite",
            summary:
                "SQLite database file, or a PostgreSQL URL postgres://user:password@host:port/database?sslmode=require shared by several serve nodes; a URL with a password belongs in the variable, out of the process list",
            valueName: "path|url"
        ) { value, _, settings in
            guard let text = value.text else { throw Unexpected() }
            settings.database = text
        },
        ServeSetting(
            key: "host", option: "host", kind: .text, expects: "an address or a host name", defaultText: ServeSettings().server.host,
            summary: "Address to listen on", valueName: "host"
        ) { value, _, settings in
            guard let text = value.text, !text.isEmpty else { throw Unexpected() }
            settings.server.host = text
        },
        .whole("port", option: "port", 0...65_535, valueName: "port", "Port to listen on, 0 for any free port", into: \.server.port),
        ServeSetting(
            key: "logLevel", option: "log-level", kind: .text,
            expects: Logger.Level.allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + Logger.Level.critical.rawValue,
            defaultText: "info", summary: "The least severe log messages written on standard error; warn stands for warning, in any letter case",
            valueName: "level"
        ) { value, _, settings in
            guard let name = value.text?.lowercased(), let level = Logger.Level(rawValue: name == "warn" ? "warning" : name) else {
                throw Unexpected()
            }
            settings.logLevel = level
        },
        .keys(
            "ingestKeys", option: "ingest-keys", kind: "ingest", default: "none: no key needed",
            "File of accepted ingest keys, one per line, # comments", into: \.server.ingestKeys),
        .keys(
            "readKeys", option: "read-keys", kind: "read", default: "none: queries, pages and metrics are open to anyone who can connect",
            "File of accepted read keys, as --ingest-keys", into: \.server.readKeys),
        .keys(
            "adminKeys", option: "admin-keys", kind: "admin", default: "none: no window can be declared or removed over HTTP",
            "File of accepted admin keys, as --ingest-keys: they declare and remove maintenance windows over HTTP and read as read keys do",
            into: \.server.adminKeys),
    ]

    /// The limits that keep a service exposed to millions of phones fast and hard to abuse (config file
    /// and environment only).
    private static let limits: [ServeSetting] = [
        .number(
            "readRequestsPerSecond", from: 0.001, to: 1e6, "Read requests per second each read key (or client address) may make on average",
            into: \.server.readRequestsPerSecond),
        .number("readBurst", from: 1, to: 1e6, "Read requests a key or address may make in a burst above the average", into: \.server.readBurst),
        .whole("maximumQueryRows", 1...10_000_000, "Most rows one query may answer (time steps × groups)", into: \.server.maximumQueryRows),
        .minutes(
            "pruneEvery", 60...86_400, "Time between prunings of old buckets and expired eventIDs (also done at start)",
            into: \.server.pruneEverySeconds),
        .whole("maximumBodyBytes", 1...(1 << 30), "Largest request body as sent (compressed or not), in bytes", into: \.server.maximumBodyBytes),
        .whole("maximumDecompressedBytes", 1...(1 << 30), "Largest body after gzip decompression, in bytes", into: \.server.maximumDecompressedBytes),
        .whole(
            "maximumCompressionRatio", 1...100_000, "Largest decompressed-to-compressed size ratio (checked while inflating)",
            into: \.server.maximumCompressionRatio),
        .whole("maximumEventsPerRequest", 1...1_000_000, "Most events in one request", into: \.server.maximumEventsPerRequest),
        .whole("maximumLineBytes", 1...(1 << 30), "Longest line (NDJSON record or array element), in bytes", into: \.server.maximumLineBytes),
        ServeSetting(
            key: "latenessLimit", option: nil, kind: .text, expects: "a duration from 1m to 366d, at most the dedup horizon",
            defaultText: "\(TimeStep(seconds: ServeSettings().server.latenessLimitMillis / .millisPerSecond))",
            summary: "Events older than this before the receiving clock are rejected", valueName: "duration"
        ) { value, _, settings in
            guard let step = value.text.flatMap(TimeStep.init(parsing:)), (60...366 * .secondsPerDay).contains(step.seconds) else {
                throw Unexpected()
            }
            settings.server.latenessLimitMillis = step.seconds * .millisPerSecond
        },
        .name("newRelicEventType", "The New Relic event type POST /v1/accounts/{accountID}/events counts", into: \.server.newRelicEventType),
        .name("otlpEventName", "The OpenTelemetry event name whose log records POST /v1/logs counts", into: \.server.otlpEventName),
        .number(
            "requestsPerSecondPerKey", from: 0.001, to: 1e6, "Requests per second each ingest key may make on average",
            into: \.server.requestsPerSecondPerKey),
        .number(
            "requestBurstPerKey", from: 1, to: 1e6, "Requests an ingest key may make in a burst above the average", into: \.server.requestBurstPerKey),
        .whole("idleTimeoutSeconds", 1...86_400, "Seconds a connection may stay idle before it is closed", into: \.server.idleTimeoutSeconds),
        .whole(
            "bodyTimeoutSeconds", 1...86_400, "Seconds a request body may take to arrive before the request is refused with 408",
            into: \.server.bodyTimeoutSeconds),
        .whole(
            "maximumEventsPerCommit", 1...10_000_000, "Most events committed in one transaction by the group committer",
            into: \.server.maximumEventsPerCommit),
    ]

    /// The store's caps and retention, which `ingest` takes as options of the same names
    /// (``StorageSettings`` checks them together).
    private static let storage: [ServeSetting] = [
        .whole(
            "cardinalityCap", option: "cardinality-cap", 1...StorageSettings.largestCap,
            "Distinct values counted per dimension per UTC day and app (and apps per day); more are counted as __other__",
            into: \.storage.cardinalityCap),
        .total(
            "totalCardinalityCap", option: "total-cardinality-cap", of: "cardinalityCap",
            "Distinct values counted per dimension per UTC day across every app together; past it no app counts a new value that day",
            into: \.storage.totalCardinalityCap),
        .whole(
            "seriesCap", option: "series-cap", 1...StorageSettings.largestCap,
            "Distinct series (combinations of dimension values) counted per UTC day and app; the events of more count in their action's __other__ series",
            into: \.storage.seriesCap),
        .total(
            "totalSeriesCap", option: "total-series-cap", of: "seriesCap",
            "Distinct series counted per UTC day across every app together; past it no app counts a new series that day",
            into: \.storage.totalSeriesCap),
        .duration(
            "dedupHorizon", option: "dedup-horizon", atLeast: StorageSettings.minimumDedupHorizonSeconds,
            "How long an eventID is remembered for dedup", into: \.storage.dedupHorizonSeconds),
        .duration(
            "minuteRetention", option: "minute-retention", "Keep minute buckets this long before the newest event",
            into: \.storage.minuteRetentionSeconds),
        .duration(
            "hourRetention", option: "hour-retention", "Keep hour buckets this long before the newest event", into: \.storage.hourRetentionSeconds),
        ServeSetting(
            key: "dayRetention", option: "day-retention", kind: .text, expects: "a duration such as 400d or 2w", defaultText: "forever",
            summary: "Keep day buckets this long before the newest event", valueName: "duration"
        ) { value, _, settings in
            guard let step = value.text.flatMap(TimeStep.init(parsing:)) else { throw Unexpected() }
            settings.storage.dayRetentionSeconds = step.seconds
        },
        .duration(
            "storeRetention", option: "store-retention", atLeast: StorageSettings.minimumStoreRetentionSeconds,
            "Keep the stores' notifications and the app's reports per transaction this long after they happened",
            into: \.storage.storeRetentionSeconds),
    ]

    /// Alert evaluation and where its notifications go.
    private static let alerts: [ServeSetting] = [
        .url(
            "notify", option: "notify", default: "none: alerts are not evaluated",
            "Evaluate the alerts and POST what changes to this URL: an Alertmanager's /api/v2/alerts or a Slack-compatible incoming webhook",
            into: \.server.notifyURL),
        .choice("notifyFormat", option: "notify-format", "What --notify posts to", into: \.server.notifyFormat),
        ServeSetting(
            key: "notifyFallbacks", option: "notify-fallback", kind: .list, expects: "an http or https URL",
            defaultText: "--rollout-notify when it is a Slack webhook of its own, else none",
            summary: "Where the alerts go while --notify has failed every delivery for 5 minutes, opened by a word saying so; repeat for several",
            valueName: "url"
        ) { value, _, settings in
            guard let texts = value.list else { throw Unexpected() }
            settings.server.notifyFallbackURLs = try texts.enumerated().map { index, text in
                guard let url = OutboundHTTP.absoluteURL(text) else { throw Unexpected(index: index) }
                return url
            }
        },
        .choice("notifyFallbackFormat", option: "notify-fallback-format", "What --notify-fallback posts to", into: \.server.notifyFallbackFormat),
        ServeSetting(
            key: "notifyHeartbeat", option: "notify-heartbeat", kind: .flag, expects: "true or false", defaultText: "false",
            summary:
                "Post the always-firing PurchaseSLIWatchdog alert to the Alertmanager of --notify at every evaluation, for a dead man's switch",
            valueName: "bool"
        ) { value, _, settings in
            switch value {
            case .bool(let on): settings.server.notifyHeartbeat = on
            case .text(let text):
                guard let on = ["true": true, "false": false][text.lowercased()] else { throw Unexpected() }
                settings.server.notifyHeartbeat = on
            default: throw Unexpected()
            }
        },
        .minutes("alertsEvery", option: "alerts-every", 60...86_400, "Time between alert evaluations", into: \.server.alertsEverySeconds),
        ServeSetting(
            key: "alertApps", option: "alert-app", kind: .list, expects: "an app id (a bundle id or package name)",
            defaultText: "every app's events together",
            summary:
                "Evaluate and notify the alerts of this app apart, as alerts --app does, and with --render-every render its own pages "
                + "into apps/<dir>/ of --out; repeat for each app, as only those listed are evaluated",
            valueName: "id"
        ) { value, origin, settings in
            guard let apps = value.list else { throw Unexpected() }
            for app in apps {
                do {
                    try AppOption.check(app)
                } catch let error as ValidationError {
                    throw CommandFailure(message: "\(origin): \(error.message.dropFirst("--app: ".count))")
                }
            }
            var listed = Set<String>()
            settings.server.alertApps = apps.filter { listed.insert($0).inserted }
        },
        .text(
            "policy", option: "policy", expects: "the path of a policy file (YAML)",
            default: "slos.yaml of the dashboards directory when present, else the built-in defaults",
            "SLO, alert, rollout and reconciliation policy (YAML) for --notify, --render-every, --rollout-every and the stores' notifications, and each app's caps (apps:) for every write",
            valueName: "file", into: \.policyPath),
        ServeSetting(
            key: "timeZone", option: "time-zone", kind: .text, expects: "an IANA time zone name or an offset such as +05:30",
            defaultText: "the policy's timeZone, else UTC",
            summary: "Write the pages' and Slack text's times in this zone, as --time-zone of render does (JSON stays UTC)", valueName: "zone"
        ) { value, origin, settings in
            guard let name = value.text else { throw Unexpected() }
            settings.timeZone = name
        },
    ]

    /// The pages `serve` renders and serves.
    private static let pages: [ServeSetting] = [
        ServeSetting(
            key: "out", option: "out", kind: .text, expects: "the path of a directory", defaultText: "out with --render-every, else none",
            summary: "Serve this directory's pages at /", valueName: "dir"
        ) { value, _, settings in
            guard let directory = value.text else { throw Unexpected() }
            settings.server.pagesDirectory = directory
        },
        .minutes(
            "renderEvery", option: "render-every", 60...86_400, default: "never",
            "Render the dashboards and the last week's review into --out this often", into: \.server.renderEverySeconds),
        ServeSetting(
            key: "dashboards", option: "dashboards", kind: .text, expects: "the path of a directory", defaultText: "dashboards",
            summary: "Dashboard definitions to render", valueName: "dir"
        ) { value, _, settings in
            guard let directory = value.text else { throw Unexpected() }
            settings.dashboardsDirectory = directory
        },
        .minutes(
            "renderRange", option: "render-range", 3600...35 * .secondsPerDay, "How far back the rendered pages reach",
            into: \.server.renderRangeSeconds),
        ServeSetting(
            key: "baseURL", option: "base-url", kind: .text, expects: "an http or https URL without query or fragment",
            defaultText: "none: alert text links to no page",
            summary:
                "Where the pages are reached from outside, e.g. https://sli.example.com: alert text, Slack and Alertmanager (generatorURL) link to the alert on the on-call page",
            valueName: "url"
        ) { value, _, settings in
            guard let url = value.text.flatMap(LinkOptions.normalized) else { throw Unexpected() }
            settings.server.baseURL = url
        },
    ]

    /// The phased release check.
    private static let rollout: [ServeSetting] = [
        .minutes(
            "rolloutEvery", option: "rollout-every", 60...86_400, default: "never",
            "Check the phased release this often and post verdict changes", into: \.server.rolloutEverySeconds),
        ServeSetting(
            key: "rolloutCandidate", option: "candidate", kind: .text, expects: "an app version, or auto",
            defaultText: "auto, the newest app version with real traffic",
            summary: "The app version whose release --rollout-every checks", valueName: "version"
        ) { value, _, settings in
            guard let text = value.text, !text.isEmpty else { throw Unexpected() }
            settings.server.rolloutCandidate = text == "auto" ? nil : text
        },
        .text(
            "rolloutBaseline", option: "baseline", expects: "an app version", default: "the busiest other version",
            "The version --rollout-every compares with", valueName: "version", into: \.server.rolloutBaseline),
        .url(
            "rolloutNotify", option: "rollout-notify", default: "--notify when it is Slack, else verdicts are only logged",
            "POST rollout verdict changes to this URL", into: \.server.rolloutNotifyURL),
        .choice("rolloutNotifyFormat", option: "rollout-notify-format", "What --rollout-notify posts", into: \.server.rolloutNotifyFormat),
    ]

    /// Acting on rollout verdicts: the stores' release APIs (docs/rollout.md). A store takes all of its
    /// required settings or none (``RolloutActionOptions/releases(of:)``); `rollout` reads these alone.
    static let releaseActions: [ServeSetting] = [
        .oneOf(
            "rolloutActions", option: "rollout-actions", ["dry-run", "live"], default: "dry-run",
            "dry-run reads each store's release and says what it would do; live pauses the App Store phased release and halts the Play staged rollout when the verdict is one the policy's rollout.pauseOn names"
        ) { settings, mode in settings.server.rolloutActions.live = mode == "live" },
        .oneOf(
            "rolloutConfirm", option: "rollout-confirm", ["required", "none"], default: "required",
            "required: a live action waits until a person runs `purchase-sli rollout confirm ID` (the verdict rests on events any holder of the public ingest key can send); none: act on the verdict alone, only where apps do not hold the ingest keys"
        ) { settings, confirm in settings.server.rolloutActions.requiresConfirmation = confirm == "required" },
        .text(
            "ascKeyFile", option: "asc-key-file", expects: "the path of a .p8 file", default: "none: the App Store release is left alone",
            "App Store Connect API key (.p8) file", valueName: "file", into: \.releaseAccess.ascKeyFile),
        .text(
            "ascKeyID", option: "asc-key-id", expects: "a key id", default: "none", "The key's id", valueName: "id", into: \.releaseAccess.ascKeyID),
        .text(
            "ascIssuerID", option: "asc-issuer-id", expects: "an issuer id", default: "none", "The team's issuer id", valueName: "id",
            into: \.releaseAccess.ascIssuerID),
        .text(
            "ascAppID", option: "asc-app-id", expects: "an Apple ID", default: "none",
            "The app's Apple ID, the number in its App Store Connect URL", valueName: "id", into: \.releaseAccess.ascAppID),
        .oneOf(
            "ascPlatform", option: "asc-platform", ["IOS", "MAC_OS", "TV_OS", "VISION_OS"], default: "IOS", "The platform of the versions paused"
        ) { settings, platform in settings.releaseAccess.ascPlatform = platform },
        .url(
            "ascURL", option: "asc-url", default: AppStoreConnectClient.productionURL.absoluteString, "The App Store Connect API's base URL",
            into: \.releaseAccess.ascURL),
        .text(
            "playServiceAccount", option: "play-service-account", expects: "the path of a JSON key file",
            default: "none: the Play release is left alone", "Google Play service account JSON key file", valueName: "file",
            into: \.releaseAccess.playServiceAccount),
        .text(
            "playPackage", option: "play-package", expects: "a package name", default: "none", "The app's package name on Google Play",
            valueName: "name", into: \.releaseAccess.playPackage),
        .text(
            "playTrack", option: "play-track", expects: "a track's name", default: "production", "The track whose staged rollout is halted",
            valueName: "track", into: \.releaseAccess.playTrack),
        .url(
            "playURL", option: "play-url", default: GooglePlayPublisherClient.productionURL.absoluteString, "The Android Publisher API's base URL",
            into: \.releaseAccess.playURL),
        .url("playTokenURL", option: "play-token-url", default: "the key file's token_uri", "The token endpoint", into: \.releaseAccess.playTokenURL),
    ]

    /// The stores' own notifications.
    private static let stores: [ServeSetting] = [
        .names(
            "appleBundleIDs", option: "apple-bundle-id", expects: "a bundle id", default: "none: the App Store endpoint refuses every notification",
            "Accept App Store Server Notifications for this bundle id at POST /v1/stores/apple/notifications; repeat for several",
            valueName: "id", into: \.server.appleBundleIDs),
        ServeSetting(
            key: "appleRootCA", option: "apple-root-ca", kind: .list, expects: "the path of a root certificate (PEM or DER)",
            defaultText: "Apple Root CA - G3",
            summary: "Trust this root certificate for App Store notifications instead of the shipped one; repeat for several",
            valueName: "file"
        ) { value, origin, settings in
            guard let paths = value.list, !paths.isEmpty else { throw Unexpected() }
            settings.server.appleRootCertificates = try StoreNotificationOptions.certificates(at: paths, setting: "\(origin)")
        },
        .names(
            "googlePackages", option: "google-package", expects: "a package name", default: "none: the Play endpoint refuses every notification",
            "Accept Google Play developer notifications for this package at POST /v1/stores/google/notifications; repeat for several",
            valueName: "name", into: \.server.googlePackageNames),
        .keys(
            "googlePushTokens", option: "google-push-tokens", kind: "push", default: "none; required with --google-package",
            "File of tokens the Pub/Sub push presents (?token= in its URL), one per line", into: \.server.googlePushTokens),
    ]
}
