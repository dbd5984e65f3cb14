import ArgumentParser
import Foundation
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIOutbound
import PurchaseSLIServer
import ServiceLifecycle

/// `purchase-sli serve`: the HTTP ingestion service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the HTTP ingestion service (POST /v1/events, GET /v1/query, /healthz, /readyz, /metrics).",
        discussion: """
            Each accepted request is answered only after its events are committed (fsynced) to the database; \
            concurrent requests are committed together. SIGTERM or SIGINT stops accepting connections, \
            finishes the requests in flight, commits, and exits 0.

            Settings come from the defaults, then --config FILE (JSON), then the environment, then the \
            options. Environment: PURCHASE_SLI_DB, PURCHASE_SLI_HOST, PURCHASE_SLI_PORT, \
            PURCHASE_SLI_INGEST_KEYS, PURCHASE_SLI_READ_KEYS and PURCHASE_SLI_ADMIN_KEYS (keys files), PURCHASE_SLI_CONFIG, PURCHASE_SLI_LOG_LEVEL \
            (trace, debug, info, notice, warning, error, critical), PURCHASE_SLI_NOTIFY, \
            PURCHASE_SLI_NOTIFY_FORMAT, PURCHASE_SLI_NOTIFY_FALLBACKS, PURCHASE_SLI_NOTIFY_FALLBACK_FORMAT, \
            PURCHASE_SLI_NOTIFY_HEARTBEAT, PURCHASE_SLI_ALERTS_EVERY, PURCHASE_SLI_POLICY, PURCHASE_SLI_OUT, \
            PURCHASE_SLI_RENDER_EVERY, PURCHASE_SLI_DASHBOARDS, PURCHASE_SLI_RENDER_RANGE, PURCHASE_SLI_BASE_URL, \
            PURCHASE_SLI_ROLLOUT_EVERY, PURCHASE_SLI_ROLLOUT_CANDIDATE, PURCHASE_SLI_ROLLOUT_BASELINE, \
            PURCHASE_SLI_ROLLOUT_NOTIFY, PURCHASE_SLI_ROLLOUT_NOTIFY_FORMAT. See \
            docs/configuration.md for the config keys.

            With --render-every 5m the service renders the dashboards and the last week's review into --out \
            (default out) every 5 minutes and serves them at / (index.html) next to the API; --out alone \
            serves a directory rendered by `purchase-sli render`.

            With --rollout-every 1h the service checks the phased release of --candidate (default auto: the \
            newest app version with real traffic) against --baseline (default the busiest other version) \
            every hour, as `purchase-sli rollout` does, logs each verdict and posts its changes to \
            --rollout-notify (Slack text or JSON), or to --notify when that is Slack.

            With --notify URL the service evaluates the alert rules every --alerts-every (at whole minutes, \
            over the events it holds) and posts alerts that start firing and, once, those that stop \
            (resolved); to an Alertmanager it also re-sends every firing alert at each evaluation, as \
            Prometheus does, so that Alertmanager does not resolve them itself. A post that fails is logged \
            and what it carried goes with the next one. Once --notify has failed every delivery for 5 \
            minutes the alerts go to --notify-fallback as well (by default --rollout-notify when it is a \
            Slack webhook), until it answers again; /metrics, /readyz and the pages say so. With \
            --notify-heartbeat every post to Alertmanager carries the always-firing PurchaseSLIWatchdog alert, \
            as Prometheus' Watchdog, so that a dead man's switch notices a dead collector.

            Memory stays flat over a long run: serve caps glibc's malloc arenas at 2 (MALLOC_ARENA_MAX in \
            the environment takes precedence) and hands free memory back to the system every minute; \
            /metrics has process_resident_memory_bytes and process_open_fds.
            """)

    @Option(
        help: ArgumentHelp(
            "SQLite database file, or a PostgreSQL URL postgres://user:password@host:port/database?sslmode=require shared by several serve nodes (env PURCHASE_SLI_DB, which keeps a password out of the process list; default purchase-sli.sqlite).",
            valueName: "path|url"))
    var db: String?

    @Option(help: ArgumentHelp("Address to listen on (env PURCHASE_SLI_HOST; default 127.0.0.1).", valueName: "host"))
    var host: String?

    @Option(help: ArgumentHelp("Port to listen on, 0 for any free port (env PURCHASE_SLI_PORT; default 8080).", valueName: "port"))
    var port: Int?

    @Option(
        help: ArgumentHelp(
            "File of accepted ingest keys, one per line, # comments (env PURCHASE_SLI_INGEST_KEYS; default: no key needed).",
            valueName: "file"))
    var ingestKeys: String?

    @Option(
        help: ArgumentHelp(
            "File of accepted read keys, as --ingest-keys (env PURCHASE_SLI_READ_KEYS; default: queries, pages and metrics are open to anyone who can connect).",
            valueName: "file"))
    var readKeys: String?

    @Option(
        help: ArgumentHelp(
            "File of accepted admin keys, as --ingest-keys: they declare and remove maintenance windows over HTTP and read as read keys do (env PURCHASE_SLI_ADMIN_KEYS; default: no window can be declared or removed over HTTP).",
            valueName: "file"))
    var adminKeys: String?

    @Option(help: ArgumentHelp("JSON file of server settings (env PURCHASE_SLI_CONFIG).", valueName: "file"))
    var config: String?

    @OptionGroup(title: "Limits and retention") var retention: RetentionOptions

    @OptionGroup(title: "Store notifications") var stores: StoreNotificationOptions

    @OptionGroup(title: "Acting on rollout verdicts (docs/rollout.md)") var actions: RolloutActionOptions

    @Option(
        help: ArgumentHelp(
            "Evaluate the alerts and POST what changes to this URL: an Alertmanager's /api/v2/alerts or a Slack-compatible incoming webhook (env PURCHASE_SLI_NOTIFY; default: alerts are not evaluated).",
            valueName: "url"))
    var notify: String?

    @Option(help: "What --notify posts to: alertmanager or slack (env PURCHASE_SLI_NOTIFY_FORMAT; default alertmanager).")
    var notifyFormat: AlertNotificationFormat?

    @Option(
        help: ArgumentHelp(
            "Where the alerts go while --notify has failed every delivery for 5 minutes, opened by a word saying so; repeat for several (env PURCHASE_SLI_NOTIFY_FALLBACKS, comma-separated; default: --rollout-notify when it is a Slack webhook of its own, else none).",
            valueName: "url"))
    var notifyFallback: [String] = []

    @Option(help: "What --notify-fallback posts to: slack or alertmanager (env PURCHASE_SLI_NOTIFY_FALLBACK_FORMAT; default slack).")
    var notifyFallbackFormat: AlertNotificationFormat?

    @Flag(
        help:
            "Post the always-firing PurchaseSLIWatchdog alert to the Alertmanager of --notify at every evaluation, for a dead man's switch (env PURCHASE_SLI_NOTIFY_HEARTBEAT=true)."
    )
    var notifyHeartbeat = false

    @Option(
        help: ArgumentHelp(
            "Time between alert evaluations, a whole number of minutes (env PURCHASE_SLI_ALERTS_EVERY; default 1m).",
            valueName: "duration"))
    var alertsEvery: String?

    @Option(
        help: ArgumentHelp(
            "Evaluate and notify the alerts of this app apart, as alerts --app does; repeat for each app, as only those listed are evaluated (env PURCHASE_SLI_ALERT_APPS, comma-separated; default: every app's events together).",
            valueName: "id"))
    var alertApp: [String] = []

    @Option(
        help: ArgumentHelp(
            "SLO, alert, rollout and reconciliation policy (YAML) for --notify, --render-every, --rollout-every and the stores' notifications (env PURCHASE_SLI_POLICY; default slos.yaml of the dashboards directory when present, else the built-in defaults).",
            valueName: "file"))
    var policy: String?

    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp(
            "Write the pages' and Slack text's times in this zone, as --time-zone of render does (env PURCHASE_SLI_TIME_ZONE; default: the policy's timeZone, else UTC; JSON stays UTC).",
            valueName: "zone"))
    var timeZone: String?

    @Option(
        help: ArgumentHelp(
            "Serve this directory's pages at / (env PURCHASE_SLI_OUT; with --render-every default out).", valueName: "dir"))
    var out: String?

    @Option(
        help: ArgumentHelp(
            "Render the dashboards and the last week's review into --out this often, a whole number of minutes (env PURCHASE_SLI_RENDER_EVERY; default: never).",
            valueName: "duration"))
    var renderEvery: String?

    @Option(help: ArgumentHelp("Dashboard definitions to render (env PURCHASE_SLI_DASHBOARDS; default dashboards).", valueName: "dir"))
    var dashboards: String?

    @Option(help: ArgumentHelp("How far back the rendered pages reach (env PURCHASE_SLI_RENDER_RANGE; default 7d).", valueName: "duration"))
    var renderRange: String?

    @Option(
        help: ArgumentHelp(
            "Check the phased release this often, a whole number of minutes, and post verdict changes (env PURCHASE_SLI_ROLLOUT_EVERY; default: never).",
            valueName: "duration"))
    var rolloutEvery: String?

    @Option(
        help: ArgumentHelp(
            "The app version whose release --rollout-every checks, or auto for the newest with real traffic (env PURCHASE_SLI_ROLLOUT_CANDIDATE; default auto).",
            valueName: "version"))
    var candidate: String?

    @Option(
        help: ArgumentHelp(
            "The version --rollout-every compares with (env PURCHASE_SLI_ROLLOUT_BASELINE; default: the busiest other one).", valueName: "version"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "POST rollout verdict changes to this URL (env PURCHASE_SLI_ROLLOUT_NOTIFY; default: --notify when it is Slack, else they are only logged).",
            valueName: "url"))
    var rolloutNotify: String?

    @Option(help: "What --rollout-notify posts: slack or json (env PURCHASE_SLI_ROLLOUT_NOTIFY_FORMAT; default slack).")
    var rolloutNotifyFormat: RolloutNotificationFormat?

    @Option(
        help: ArgumentHelp(
            "Where the pages are reached from outside, e.g. https://sli.example.com (env PURCHASE_SLI_BASE_URL): alert text, Slack and Alertmanager (generatorURL) link to the alert on the on-call page.",
            valueName: "url"))
    var baseURL: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        // Before any thread starts: memory that stays flat over a long run (issue 64).
        let arenas = ProcessMemory.limitArenas(environment: environment)
        let settings: (server: ServerConfiguration, db: StoreLocation, warnings: [String])
        let logLevel: Logger.Level
        let served: ServedStore
        let logger: Logger
        let controls: [any StoreReleaseControl]
        // Every outbound call (notifications, the stores' APIs): run as the first service of the group, so
        // it is shut down last, after the services that call through it.
        let outbound = HTTPClientTransport()
        do {
            logLevel = try Self.logLevel(environment: environment)
            logger = Self.makeLogger(level: logLevel)
            settings = try resolve(environment: environment)
            controls = try await RolloutActionOptions.controls(settings.server.rolloutActions, transport: outbound)
            var storeConfiguration = try retention.configuration()
            storeConfiguration.fsyncEachCommit = true
            served = try await settings.db.openServed(configuration: storeConfiguration, postgresLogger: logger)
        } catch let failure as any UserFacingError {
            printError("error: \(failure)")
            throw ExitCode.failure
        }
        for warning in settings.warnings { logger.warning("\(warning)") }
        let server = settings.server
        logger.info(
            "purchase-sli serve starting",
            metadata: [
                "address": "\(server.host):\(server.port)", "database": "\(settings.db)",
                "ingestKeys": "\(server.ingestKeys.isEnabled ? "\(server.ingestKeys.count) accepted" : "none required")",
                "readKeys": "\(server.readKeys.isEnabled ? "\(server.readKeys.count) accepted" : "none required (reads open)")",
                "adminKeys": "\(server.adminKeys.isEnabled ? "\(server.adminKeys.count) accepted" : "none")",
                "maximumBodyBytes": "\(server.maximumBodyBytes)", "maximumDecompressedBytes": "\(server.maximumDecompressedBytes)",
                "maximumCompressionRatio": "\(server.maximumCompressionRatio)",
                "maximumEventsPerRequest": "\(server.maximumEventsPerRequest)", "maximumLineBytes": "\(server.maximumLineBytes)",
                "latenessLimit": "\(TimeStep(seconds: server.latenessLimitMillis / 1000))",
                "newRelicEventType": "\(server.newRelicEventType)", "otlpEventName": "\(server.otlpEventName)",
                "requestsPerSecondPerKey": "\(server.requestsPerSecondPerKey)", "requestBurstPerKey": "\(server.requestBurstPerKey)",
                "idleTimeoutSeconds": "\(server.idleTimeoutSeconds)", "bodyTimeoutSeconds": "\(server.bodyTimeoutSeconds)",
                "alerts": "\(alertsDescription(server))",
                "appStore": "\(server.appleBundleIDs.isEmpty ? "off" : server.appleBundleIDs.sorted().joined(separator: ","))",
                "googlePlay": "\(server.googlePackageNames.isEmpty ? "off" : server.googlePackageNames.sorted().joined(separator: ","))",
                "rollout":
                    "\(server.rolloutEverySeconds.map { "every \(TimeStep(seconds: $0)), candidate \(server.rolloutCandidate ?? "auto")" } ?? "off")",
                "rolloutActions": "\(server.rolloutActions.summary)",
                "mallocArenas":
                    "\(arenas.map(String.init) ?? environment["MALLOC_ARENA_MAX"].map { "\($0) (MALLOC_ARENA_MAX)" } ?? "the C library's")",
                "pages":
                    "\(server.pagesDirectory.map { directory in server.renderEverySeconds.map { "\(directory) at /, rendered every \(TimeStep(seconds: $0))" } ?? "\(directory) at /" } ?? "off")",
            ])
        let leadership = settings.db.leadership(logger: logger)
        let app = buildApplication(
            configuration: server, store: served.store, databasePath: settings.db.filePath, leadership: leadership,
            rolloutControls: controls, outbound: outbound, logger: logger)
        // One group: the store's client first, so that it stops last, after the application's graceful
        // shutdown has committed what was acknowledged; the application once the store is migrated.
        let group = ServiceGroup(
            configuration: .init(services: served.services(around: app), gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            await leadership.release()
            if let failure = error as? any UserFacingError {
                printError("error: \(failure)")
                throw ExitCode.failure
            }
            guard let message = ListenFailure.message(for: error, host: server.host, port: server.port) else { throw error }
            printError("error: \(message)")
            throw ExitCode.failure
        }
        await leadership.release()
        logger.info("purchase-sli serve stopped")
    }

    /// Settings from the defaults, the config file, the environment and the options, in that order, and
    /// warnings about settings that take no effect. Errors name the option or variable at fault.
    func resolve(environment: [String: String]) throws -> (server: ServerConfiguration, db: StoreLocation, warnings: [String]) {
        var server = ServerConfiguration()
        let file = try (config ?? environment["PURCHASE_SLI_CONFIG"]).map(ServerConfigFile.init(path:))
        try file?.apply(to: &server)
        server.host = host ?? environment["PURCHASE_SLI_HOST"] ?? server.host
        if let (text, name) = Self.setting(port.map(String.init), "--port", "PURCHASE_SLI_PORT", environment) {
            guard let value = Int(text), (0...65_535).contains(value) else {
                throw CommandFailure(message: "\(name): expected a port from 0 to 65535, got \"\(text)\"")
            }
            server.port = value
        }
        if let keys = try Self.keys(ingestKeys, "--ingest-keys", "PURCHASE_SLI_INGEST_KEYS", "ingest", environment) {
            server.ingestKeys = keys
        }
        if let keys = try Self.keys(readKeys, "--read-keys", "PURCHASE_SLI_READ_KEYS", "read", environment) {
            server.readKeys = keys
        }
        if let keys = try Self.keys(adminKeys, "--admin-keys", "PURCHASE_SLI_ADMIN_KEYS", "admin", environment) {
            server.adminKeys = keys
        }
        for (keys, kind) in [(server.readKeys, "read"), (server.adminKeys, "admin")] {
            if let shared = keys.sharedKey(with: server.ingestKeys) {
                throw CommandFailure(
                    message:
                        "the \(kind) keys hold an ingest key (\(shared.prefix(4))…): ingest keys ship inside apps and are public, so no \(kind) key may be one"
                )
            }
        }
        try resolveNotifications(&server, environment: environment)
        try stores.apply(to: &server, environment: environment)
        try resolvePages(&server, environment: environment, file: file)
        try resolveRollout(&server, environment: environment)
        try actions.apply(to: &server, environment: environment, file: file)
        if server.notifyURL != nil || server.renderEverySeconds != nil || server.rolloutEverySeconds != nil || server.takesStoreNotifications {
            // The reconciliation rules of a store's charges also judge GET /v1/query?of=charges.
            server.alertPolicy = try SLOPolicy.load(
                path: policy ?? environment["PURCHASE_SLI_POLICY"] ?? file?.policyPath(),
                directory: dashboards ?? environment["PURCHASE_SLI_DASHBOARDS"] ?? file?.dashboardsPath() ?? "dashboards")
        }
        if let name = timeZone ?? environment["PURCHASE_SLI_TIME_ZONE"] {
            server.timeZone = try TimeZoneOffsets.resolving(name, source: "--time-zone / PURCHASE_SLI_TIME_ZONE")
        } else if let name = server.alertPolicy.timeZone {
            server.timeZone = try TimeZoneOffsets.resolving(name, source: "the policy's timeZone")
        }
        do {
            try server.validate()
        } catch {
            throw CommandFailure(message: "\(Self.settingNames[error.key].map { "\($0) / " } ?? "")config \(error)")
        }
        let lateness = server.latenessLimitMillis / 1000
        let horizon = try retention.configuration().dedupHorizonSeconds
        guard lateness <= horizon else {
            throw CommandFailure(
                message: "latenessLimit (\(TimeStep(seconds: lateness))) must not exceed --dedup-horizon "
                    + "(\(TimeStep(seconds: horizon))): an event re-sent after its eventID is forgotten would count twice")
        }
        let (text, source) =
            if let db { (db, "--db") } else if let db = environment["PURCHASE_SLI_DB"] {
                (db, "PURCHASE_SLI_DB")
            } else if let db = try file?.database() { (db, "the config file's db") } else { ("purchase-sli.sqlite", "--db") }
        let database = try StoreLocation(text, source: source)
        return (server, database, ineffectiveSettings(server, environment))
    }

    /// The option and variable of each config key that has them, for errors about its value.
    private static let settingNames = [
        "port": "--port / PURCHASE_SLI_PORT", "alertsEvery": "--alerts-every / PURCHASE_SLI_ALERTS_EVERY",
        "renderEvery": "--render-every / PURCHASE_SLI_RENDER_EVERY", "renderRange": "--render-range / PURCHASE_SLI_RENDER_RANGE",
        "rolloutEvery": "--rollout-every / PURCHASE_SLI_ROLLOUT_EVERY",
        "notifyHeartbeat": "--notify-heartbeat / PURCHASE_SLI_NOTIFY_HEARTBEAT",
    ]

    /// The keys of the file the option or variable names, or nil when neither is given; an error naming
    /// it when the file cannot be read or holds no key.
    private static func keys(
        _ option: String?, _ flag: String, _ variable: String, _ kind: String, _ environment: [String: String]
    ) throws -> AccessKeys? {
        guard let (path, name) = setting(option, flag, variable, environment) else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CommandFailure(message: "\(name): cannot read the \(kind) keys file \(path)")
        }
        let keys = AccessKeys(fileContents: text)
        guard keys.isEnabled else { throw CommandFailure(message: "\(name): the \(kind) keys file \(path) holds no key") }
        return keys
    }

    /// The option's text, else the environment variable's, each with its name for error messages.
    private static func setting(
        _ option: String?, _ flag: String, _ variable: String, _ environment: [String: String]
    ) -> (text: String, name: String)? {
        if let option { return (option, flag) }
        return environment[variable].map { ($0, variable) }
    }

    /// Warnings about the options and variables given that nothing uses in these settings.
    private func ineffectiveSettings(_ server: ServerConfiguration, _ environment: [String: String]) -> [String] {
        var unused: [(String?, String, String, needs: String)] = []
        if server.notifyURL == nil {
            unused += [
                (notifyFormat?.rawValue, "--notify-format", "PURCHASE_SLI_NOTIFY_FORMAT", "--notify"),
                (alertsEvery, "--alerts-every", "PURCHASE_SLI_ALERTS_EVERY", "--notify"),
                (alertApp.first, "--alert-app", "PURCHASE_SLI_ALERT_APPS", "--notify"),
                (notifyFallback.first, "--notify-fallback", "PURCHASE_SLI_NOTIFY_FALLBACKS", "--notify"),
                (notifyFallbackFormat?.rawValue, "--notify-fallback-format", "PURCHASE_SLI_NOTIFY_FALLBACK_FORMAT", "--notify"),
                (notifyHeartbeat ? "set" : nil, "--notify-heartbeat", "PURCHASE_SLI_NOTIFY_HEARTBEAT", "--notify"),
            ]
        }
        if server.renderEverySeconds == nil {
            unused.append((renderRange, "--render-range", "PURCHASE_SLI_RENDER_RANGE", "--render-every"))
            if server.notifyURL == nil, server.rolloutEverySeconds == nil, !server.takesStoreNotifications {
                // With --notify, --rollout-every or a store's notifications the dashboards directory is where the
                // policy (slos.yaml) is looked for.
                let needs = "--notify, --render-every, --rollout-every, --apple-bundle-id or --google-package"
                unused += [(policy, "--policy", "PURCHASE_SLI_POLICY", needs), (dashboards, "--dashboards", "PURCHASE_SLI_DASHBOARDS", needs)]
            }
        }
        if server.rolloutEverySeconds == nil, server.rolloutActions.isConfigured {
            unused.append(("set", "--asc-key-file / --play-service-account", "", "--rollout-every"))
        }
        if server.rolloutEverySeconds == nil {
            unused += [
                (candidate, "--candidate", "PURCHASE_SLI_ROLLOUT_CANDIDATE", "--rollout-every"),
                (baseline, "--baseline", "PURCHASE_SLI_ROLLOUT_BASELINE", "--rollout-every"),
                (rolloutNotify, "--rollout-notify", "PURCHASE_SLI_ROLLOUT_NOTIFY", "--rollout-every"),
                (rolloutNotifyFormat?.rawValue, "--rollout-notify-format", "PURCHASE_SLI_ROLLOUT_NOTIFY_FORMAT", "--rollout-every"),
            ]
        }
        let exposed = !server.readKeys.isEnabled && !["127.0.0.1", "::1", "localhost"].contains(server.host)
        return unused.compactMap { option, flag, variable, needs in
            Self.setting(option, flag, variable, environment).map { "\($0.name) has no effect without \(needs)" }
        }
            + (exposed
                ? [
                    "listening on \(server.host) without read keys: anyone who can connect can query the counts, "
                        + "read the pages and the metrics; give --read-keys (see docs/security.md)"
                ] : [])
            + (server.rolloutActions.isConfigured && server.rolloutActions.live && !server.rolloutActions.requiresConfirmation
                ? [
                    "--rollout-actions live with --rollout-confirm none: a verdict alone pauses the stores' releases, and anyone "
                        + "holding an ingest key can send the events it rests on; keep it only where apps hold no ingest key "
                        + "(see docs/rollout.md)"
                ] : [])
    }

    /// The level of PURCHASE_SLI_LOG_LEVEL in any letter case (`warn` for `warning`), info when it is not set.
    static func logLevel(environment: [String: String]) throws -> Logger.Level {
        guard let text = environment["PURCHASE_SLI_LOG_LEVEL"] else { return .info }
        let name = text.lowercased()
        guard let level = Logger.Level(rawValue: name == "warn" ? "warning" : name) else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw CommandFailure(message: "PURCHASE_SLI_LOG_LEVEL: expected one of \(levels), got \"\(text)\"")
        }
        return level
    }

    /// What the start log says of alert notifications: off, or how often, where, and for which apps apart.
    private func alertsDescription(_ server: ServerConfiguration) -> String {
        guard let url = server.notifyURL else { return "off" }
        let apps = server.alertApps.isEmpty ? "" : ", apart for \(server.alertApps.joined(separator: ","))"
        let fallbacks = server.alertFallbacks.map { "\($0.url.redacted) (\($0.format))" }.joined(separator: ", ")
        return "every \(TimeStep(seconds: server.alertsEverySeconds)) to \(url.redacted) (\(server.notifyFormat))\(apps)"
            + (server.notifyHeartbeat ? " with the PurchaseSLIWatchdog heartbeat" : "")
            + (fallbacks.isEmpty ? "" : "; while it fails, also to \(fallbacks)")
    }

    /// The alert notification settings of the environment and the options over those of the config file.
    private func resolveNotifications(_ server: inout ServerConfiguration, environment: [String: String]) throws {
        if let (text, name) = Self.setting(notify, "--notify", "PURCHASE_SLI_NOTIFY", environment) {
            guard let url = OutboundHTTP.absoluteURL(text) else {
                throw CommandFailure(message: "\(name): expected an http or https URL, got \"\(text)\"")
            }
            server.notifyURL = url
        }
        if let (text, name) = Self.setting(notifyFormat?.rawValue, "--notify-format", "PURCHASE_SLI_NOTIFY_FORMAT", environment) {
            guard let format = AlertNotificationFormat(rawValue: text) else {
                throw CommandFailure(message: "\(name): expected alertmanager or slack, got \"\(text)\"")
            }
            server.notifyFormat = format
        }
        if !notifyFallback.isEmpty || environment["PURCHASE_SLI_NOTIFY_FALLBACKS"] != nil {
            let (texts, name) =
                notifyFallback.isEmpty
                ? (
                    environment["PURCHASE_SLI_NOTIFY_FALLBACKS"]!.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
                    "PURCHASE_SLI_NOTIFY_FALLBACKS"
                )
                : (notifyFallback, "--notify-fallback")
            server.notifyFallbackURLs = try texts.map { text in
                guard let url = OutboundHTTP.absoluteURL(text) else {
                    throw CommandFailure(message: "\(name): expected an http or https URL, got \"\(text)\"")
                }
                return url
            }
        }
        if let (text, name) = Self.setting(
            notifyFallbackFormat?.rawValue, "--notify-fallback-format", "PURCHASE_SLI_NOTIFY_FALLBACK_FORMAT", environment)
        {
            guard let format = AlertNotificationFormat(rawValue: text) else {
                throw CommandFailure(message: "\(name): expected slack or alertmanager, got \"\(text)\"")
            }
            server.notifyFallbackFormat = format
        }
        if notifyHeartbeat {
            server.notifyHeartbeat = true
        } else if let text = environment["PURCHASE_SLI_NOTIFY_HEARTBEAT"] {
            guard let on = ["true": true, "false": false][text.lowercased()] else {
                throw CommandFailure(message: "PURCHASE_SLI_NOTIFY_HEARTBEAT: expected true or false, got \"\(text)\"")
            }
            server.notifyHeartbeat = on
        }
        if let (text, name) = Self.setting(alertsEvery, "--alerts-every", "PURCHASE_SLI_ALERTS_EVERY", environment) {
            guard let seconds = TimeStep.minutes(parsing: text) else {
                throw CommandFailure(message: "\(name): expected a whole number of minutes such as 1m or 5m, got \"\(text)\"")
            }
            server.alertsEverySeconds = seconds
        }
        var source = "config alertApps"
        if !alertApp.isEmpty {
            (server.alertApps, source) = (alertApp, "--alert-app")
        } else if let listed = environment["PURCHASE_SLI_ALERT_APPS"] {
            let apps = listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            (server.alertApps, source) = (apps, "PURCHASE_SLI_ALERT_APPS")
        }
        var listed = Set<String>()
        server.alertApps = server.alertApps.filter { listed.insert($0).inserted }
        for app in server.alertApps {
            do {
                try AppOption.check(app)
            } catch let error as ValidationError {
                throw CommandFailure(message: "\(source): \(error.message.dropFirst("--app: ".count))")
            }
        }
    }

    /// The rollout check settings of the environment and the options over those of the config file.
    private func resolveRollout(_ server: inout ServerConfiguration, environment: [String: String]) throws {
        if let (text, name) = Self.setting(rolloutEvery, "--rollout-every", "PURCHASE_SLI_ROLLOUT_EVERY", environment) {
            guard let seconds = TimeStep.minutes(parsing: text), seconds > 0 else {
                throw CommandFailure(message: "\(name): expected a whole number of minutes such as 1h, got \"\(text)\"")
            }
            server.rolloutEverySeconds = seconds
        }
        if let (text, _) = Self.setting(candidate, "--candidate", "PURCHASE_SLI_ROLLOUT_CANDIDATE", environment) {
            server.rolloutCandidate = text == "auto" ? nil : text
        }
        if let (text, _) = Self.setting(baseline, "--baseline", "PURCHASE_SLI_ROLLOUT_BASELINE", environment) {
            server.rolloutBaseline = text
        }
        if let (text, name) = Self.setting(rolloutNotify, "--rollout-notify", "PURCHASE_SLI_ROLLOUT_NOTIFY", environment) {
            guard let url = OutboundHTTP.absoluteURL(text) else {
                throw CommandFailure(message: "\(name): expected an http or https URL, got \"\(text)\"")
            }
            server.rolloutNotifyURL = url
        }
        if let (text, name) = Self.setting(
            rolloutNotifyFormat?.rawValue, "--rollout-notify-format", "PURCHASE_SLI_ROLLOUT_NOTIFY_FORMAT", environment)
        {
            guard let format = RolloutNotificationFormat(rawValue: text) else {
                throw CommandFailure(message: "\(name): expected slack or json, got \"\(text)\"")
            }
            server.rolloutNotifyFormat = format
        }
        if let candidate = server.rolloutCandidate, candidate == server.rolloutBaseline {
            throw CommandFailure(message: "--baseline must differ from --candidate (both \(candidate))")
        }
    }

    /// The pages settings of the environment and the options over those of the config file; the
    /// dashboard definitions are read (and checked) only when rendering is on.
    private func resolvePages(_ server: inout ServerConfiguration, environment: [String: String], file: ServerConfigFile?) throws {
        if let (text, name) = Self.setting(renderEvery, "--render-every", "PURCHASE_SLI_RENDER_EVERY", environment) {
            guard let seconds = TimeStep.minutes(parsing: text), seconds > 0 else {
                throw CommandFailure(message: "\(name): expected a whole number of minutes such as 5m, got \"\(text)\"")
            }
            server.renderEverySeconds = seconds
        }
        if let (text, name) = Self.setting(renderRange, "--render-range", "PURCHASE_SLI_RENDER_RANGE", environment) {
            guard let seconds = TimeStep.minutes(parsing: text), seconds > 0 else {
                throw CommandFailure(message: "\(name): expected a whole number of minutes such as 7d, got \"\(text)\"")
            }
            server.renderRangeSeconds = seconds
        }
        server.pagesDirectory =
            out ?? environment["PURCHASE_SLI_OUT"] ?? server.pagesDirectory
            ?? (server.renderEverySeconds != nil ? "out" : nil)
        if let (text, name) = Self.setting(baseURL, "--base-url", "PURCHASE_SLI_BASE_URL", environment) {
            guard let url = LinkOptions.normalized(text) else {
                throw CommandFailure(message: "\(name): expected an http or https URL without query or fragment, got \"\(text)\"")
            }
            server.baseURL = url
        }
        let dashboardsDirectory = try dashboards ?? environment["PURCHASE_SLI_DASHBOARDS"] ?? file?.dashboardsPath() ?? "dashboards"
        if server.renderEverySeconds != nil {
            do {
                server.dashboards = try DashboardFiles.load(directory: dashboardsDirectory)
            } catch let failure as DashboardFiles.Failure {
                throw CommandFailure(message: failure.description)
            }
        } else if server.notifyURL != nil, server.baseURL != nil {
            // Only to find the page that shows alerts, for the links (oncall.html when none can be read).
            server.dashboards = (try? DashboardFiles.load(directory: dashboardsDirectory)) ?? []
        }
    }

    /// The service's logger at `level`, through whatever handler the executable bootstrapped (standard error).
    private static func makeLogger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "purchase-sli")
        logger.logLevel = level
        return logger
    }
}
