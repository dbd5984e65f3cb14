import ArgumentParser
import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIOutbound
import PurchaseSLIServer

extension ServeSetting {
    /// Every setting of `serve` but the rollout actions' (``RolloutActionOptions``) and the retention
    /// options it shares with `ingest`, in the order of docs/configuration.md.
    static let all: [ServeSetting] = service + limits + alerts + pages + rollout + stores

    /// Where the service listens, what it stores to, and who may call it.
    private static let service: [ServeSetting] = [
        ServeSetting(
            key: "db", option: "db", kind: .text, expects: "a SQLite path or a postgres:// URL", defaultText: "purchase-sli.sqlite",
            summary:
                "SQLite database file, or a PostgreSQL URL postgres://user:password@host:port/database?sslmode=require shared by several serve nodes; a URL with a password belongs in the variable, out of the process list",
            valueName: "path|url"
        ) { value, origin, settings in
            guard let text = value.text else { throw Unexpected() }
            settings.database = (text, "\(origin)")
        },
        ServeSetting(
            key: "host", option: "host", kind: .text, expects: "an address or a host name", defaultText: ServerConfiguration().host,
            summary: "Address to listen on", valueName: "host"
        ) { value, _, settings in
            guard let text = value.text, !text.isEmpty else { throw Unexpected() }
            settings.server.host = text
        },
        .whole("port", option: "port", 0...65_535, valueName: "port", "Port to listen on, 0 for any free port", into: \.port),
        .keys(
            "ingestKeys", option: "ingest-keys", kind: "ingest", default: "none: no key needed",
            "File of accepted ingest keys, one per line, # comments", into: \.ingestKeys),
        .keys(
            "readKeys", option: "read-keys", kind: "read", default: "none: queries, pages and metrics are open to anyone who can connect",
            "File of accepted read keys, as --ingest-keys", into: \.readKeys),
        .keys(
            "adminKeys", option: "admin-keys", kind: "admin", default: "none: no window can be declared or removed over HTTP",
            "File of accepted admin keys, as --ingest-keys: they declare and remove maintenance windows over HTTP and read as read keys do",
            into: \.adminKeys),
    ]

    /// The limits that keep a service exposed to millions of phones fast and hard to abuse (config file
    /// and environment only).
    private static let limits: [ServeSetting] = [
        .number(
            "readRequestsPerSecond", from: 0.001, to: 1e6, "Read requests per second each read key (or client address) may make on average",
            into: \.readRequestsPerSecond),
        .number("readBurst", from: 1, to: 1e6, "Read requests a key or address may make in a burst above the average", into: \.readBurst),
        .whole("maximumQueryRows", 1...10_000_000, "Most rows one query may answer (time steps × groups)", into: \.maximumQueryRows),
        .minutes(
            "pruneEvery", 60...86_400, "Time between prunings of old buckets and expired eventIDs (also done at start)", into: \.pruneEverySeconds),
        .whole("maximumBodyBytes", 1...(1 << 30), "Largest request body as sent (compressed or not), in bytes", into: \.maximumBodyBytes),
        .whole("maximumDecompressedBytes", 1...(1 << 30), "Largest body after gzip decompression, in bytes", into: \.maximumDecompressedBytes),
        .whole(
            "maximumCompressionRatio", 1...100_000, "Largest decompressed-to-compressed size ratio (checked while inflating)",
            into: \.maximumCompressionRatio),
        .whole("maximumEventsPerRequest", 1...1_000_000, "Most events in one request", into: \.maximumEventsPerRequest),
        .whole("maximumLineBytes", 1...(1 << 30), "Longest line (NDJSON record or array element), in bytes", into: \.maximumLineBytes),
        ServeSetting(
            key: "latenessLimit", option: nil, kind: .text, expects: "a duration from 1m to 366d, at most the dedup horizon",
            defaultText: "\(TimeStep(seconds: ServerConfiguration().latenessLimitMillis / 1000))",
            summary: "Events older than this before the receiving clock are rejected", valueName: "duration"
        ) { value, _, settings in
            guard let step = value.text.flatMap(TimeStep.init(parsing:)), (60...366 * 86_400).contains(step.seconds) else { throw Unexpected() }
            settings.server.latenessLimitMillis = step.seconds * 1000
        },
        .name("newRelicEventType", "The New Relic event type POST /v1/accounts/{accountID}/events counts", into: \.newRelicEventType),
        .name("otlpEventName", "The OpenTelemetry event name whose log records POST /v1/logs counts", into: \.otlpEventName),
        .number(
            "requestsPerSecondPerKey", from: 0.001, to: 1e6, "Requests per second each ingest key may make on average",
            into: \.requestsPerSecondPerKey),
        .number("requestBurstPerKey", from: 1, to: 1e6, "Requests an ingest key may make in a burst above the average", into: \.requestBurstPerKey),
        .whole("idleTimeoutSeconds", 1...86_400, "Seconds a connection may stay idle before it is closed", into: \.idleTimeoutSeconds),
        .whole(
            "bodyTimeoutSeconds", 1...86_400, "Seconds a request body may take to arrive before the request is refused with 408",
            into: \.bodyTimeoutSeconds),
        .whole(
            "maximumEventsPerCommit", 1...10_000_000, "Most events committed in one transaction by the group committer",
            into: \.maximumEventsPerCommit),
    ]

    /// Alert evaluation and where its notifications go.
    private static let alerts: [ServeSetting] = [
        .url(
            "notify", option: "notify", default: "none: alerts are not evaluated",
            "Evaluate the alerts and POST what changes to this URL: an Alertmanager's /api/v2/alerts or a Slack-compatible incoming webhook",
            into: \.notifyURL),
        .choice("notifyFormat", option: "notify-format", "What --notify posts to", into: \.notifyFormat),
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
        .choice("notifyFallbackFormat", option: "notify-fallback-format", "What --notify-fallback posts to", into: \.notifyFallbackFormat),
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
        .minutes("alertsEvery", option: "alerts-every", 60...86_400, "Time between alert evaluations", into: \.alertsEverySeconds),
        ServeSetting(
            key: "alertApps", option: "alert-app", kind: .list, expects: "an app id (a bundle id or package name)",
            defaultText: "every app's events together",
            summary:
                "Evaluate and notify the alerts of this app apart, as alerts --app does; repeat for each app, as only those listed are evaluated",
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
        ServeSetting(
            key: "policy", option: "policy", kind: .text, expects: "the path of a policy file (YAML)",
            defaultText: "slos.yaml of the dashboards directory when present, else the built-in defaults",
            summary:
                "SLO, alert, rollout and reconciliation policy (YAML) for --notify, --render-every, --rollout-every and the stores' notifications",
            valueName: "file"
        ) { value, _, settings in
            guard let path = value.text else { throw Unexpected() }
            settings.policyPath = path
        },
        ServeSetting(
            key: "timeZone", option: "time-zone", kind: .text, expects: "an IANA time zone name or an offset such as +05:30",
            defaultText: "the policy's timeZone, else UTC",
            summary: "Write the pages' and Slack text's times in this zone, as --time-zone of render does (JSON stays UTC)", valueName: "zone"
        ) { value, origin, settings in
            guard let name = value.text else { throw Unexpected() }
            settings.timeZone = (name, "\(origin)")
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
            "Render the dashboards and the last week's review into --out this often", into: \.renderEverySeconds),
        ServeSetting(
            key: "dashboards", option: "dashboards", kind: .text, expects: "the path of a directory", defaultText: "dashboards",
            summary: "Dashboard definitions to render", valueName: "dir"
        ) { value, _, settings in
            guard let directory = value.text else { throw Unexpected() }
            settings.dashboardsDirectory = directory
        },
        .minutes("renderRange", option: "render-range", 3600...35 * 86_400, "How far back the rendered pages reach", into: \.renderRangeSeconds),
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
            "Check the phased release this often and post verdict changes", into: \.rolloutEverySeconds),
        ServeSetting(
            key: "rolloutCandidate", option: "candidate", kind: .text, expects: "an app version, or auto",
            defaultText: "auto, the newest app version with real traffic",
            summary: "The app version whose release --rollout-every checks", valueName: "version"
        ) { value, _, settings in
            guard let text = value.text, !text.isEmpty else { throw Unexpected() }
            settings.server.rolloutCandidate = text == "auto" ? nil : text
        },
        ServeSetting(
            key: "rolloutBaseline", option: "baseline", kind: .text, expects: "an app version", defaultText: "the busiest other version",
            summary: "The version --rollout-every compares with", valueName: "version"
        ) { value, _, settings in
            guard let text = value.text, !text.isEmpty else { throw Unexpected() }
            settings.server.rolloutBaseline = text
        },
        .url(
            "rolloutNotify", option: "rollout-notify", default: "--notify when it is Slack, else verdicts are only logged",
            "POST rollout verdict changes to this URL", into: \.rolloutNotifyURL),
        .choice("rolloutNotifyFormat", option: "rollout-notify-format", "What --rollout-notify posts", into: \.rolloutNotifyFormat),
    ]

    /// The stores' own notifications.
    private static let stores: [ServeSetting] = [
        ServeSetting(
            key: "appleBundleIDs", option: "apple-bundle-id", kind: .list, expects: "a bundle id",
            defaultText: "none: the App Store endpoint refuses every notification",
            summary: "Accept App Store Server Notifications for this bundle id at POST /v1/stores/apple/notifications; repeat for several",
            valueName: "id"
        ) { value, _, settings in
            guard let ids = value.list else { throw Unexpected() }
            settings.server.appleBundleIDs = Set(ids)
        },
        ServeSetting(
            key: "appleRootCA", option: "apple-root-ca", kind: .list, expects: "the path of a root certificate (PEM or DER)",
            defaultText: "Apple Root CA - G3",
            summary: "Trust this root certificate for App Store notifications instead of the shipped one; repeat for several",
            valueName: "file"
        ) { value, origin, settings in
            guard let paths = value.list, !paths.isEmpty else { throw Unexpected() }
            settings.server.appleRootCertificates = try StoreNotificationOptions.certificates(at: paths, setting: "\(origin)")
        },
        ServeSetting(
            key: "googlePackages", option: "google-package", kind: .list, expects: "a package name",
            defaultText: "none: the Play endpoint refuses every notification",
            summary: "Accept Google Play developer notifications for this package at POST /v1/stores/google/notifications; repeat for several",
            valueName: "name"
        ) { value, _, settings in
            guard let names = value.list else { throw Unexpected() }
            settings.server.googlePackageNames = Set(names)
        },
        .keys(
            "googlePushTokens", option: "google-push-tokens", kind: "push", default: "none; required with --google-package",
            "File of tokens the Pub/Sub push presents (?token= in its URL), one per line", into: \.googlePushTokens),
    ]
}
