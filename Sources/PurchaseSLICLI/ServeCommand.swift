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
            options. Each option's help names its environment variable; the limits have a config key and a \
            variable only. PURCHASE_SLI_CONFIG names the config file. docs/configuration.md lists every setting.

            With --render-every 5m the service renders the dashboards and the last week's review into --out \
            (default out) every 5 minutes and serves them at / (index.html) next to the API; --out alone \
            serves a directory rendered by `purchase-sli render`. With --render-every, each app of \
            --alert-app gets its own page set in apps/<dir>/ (as render --each-app writes it), listed on the \
            index with what fires for it; its alert text links there.

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

    @Option(help: ServeSetting.named("db").help) var db: String?
    @Option(help: ServeSetting.named("host").help) var host: String?
    @Option(help: ServeSetting.named("port").help) var port: String?
    @Option(help: ServeSetting.named("logLevel").help) var logLevel: String?
    @Option(help: ServeSetting.named("ingestKeys").help) var ingestKeys: String?
    @Option(help: ServeSetting.named("readKeys").help) var readKeys: String?
    @Option(help: ServeSetting.named("adminKeys").help) var adminKeys: String?

    @Option(help: ArgumentHelp("JSON file of server settings (env PURCHASE_SLI_CONFIG).", valueName: "file"))
    var config: String?

    @Option(help: ServeSetting.named("cardinalityCap").help) var cardinalityCap: String?
    @Option(help: ServeSetting.named("totalCardinalityCap").help) var totalCardinalityCap: String?
    @Option(help: ServeSetting.named("seriesCap").help) var seriesCap: String?
    @Option(help: ServeSetting.named("totalSeriesCap").help) var totalSeriesCap: String?
    @Option(help: ServeSetting.named("dedupHorizon").help) var dedupHorizon: String?
    @Option(help: ServeSetting.named("minuteRetention").help) var minuteRetention: String?
    @Option(help: ServeSetting.named("hourRetention").help) var hourRetention: String?
    @Option(help: ServeSetting.named("dayRetention").help) var dayRetention: String?
    @Option(help: ServeSetting.named("storeRetention").help) var storeRetention: String?

    @OptionGroup(title: "Store notifications") var stores: StoreNotificationOptions

    @OptionGroup(title: "Acting on rollout verdicts (docs/rollout.md)") var actions: RolloutActionOptions

    @Option(help: ServeSetting.named("notify").help) var notify: String?
    @Option(help: ServeSetting.named("notifyFormat").help) var notifyFormat: String?
    @Option(help: ServeSetting.named("notifyFallbacks").help) var notifyFallback: [String] = []
    @Option(help: ServeSetting.named("notifyFallbackFormat").help) var notifyFallbackFormat: String?
    @Flag(help: ServeSetting.named("notifyHeartbeat").help) var notifyHeartbeat = false
    @Option(help: ServeSetting.named("alertsEvery").help) var alertsEvery: String?
    @Option(help: ServeSetting.named("alertApps").help) var alertApp: [String] = []
    @Option(help: ServeSetting.named("policy").help) var policy: String?
    @Option(help: ServeSetting.named("timeZone").help) var timeZone: String?
    @Option(help: ServeSetting.named("out").help) var out: String?
    @Option(help: ServeSetting.named("renderEvery").help) var renderEvery: String?
    @Option(help: ServeSetting.named("dashboards").help) var dashboards: String?
    @Option(help: ServeSetting.named("renderRange").help) var renderRange: String?
    @Option(help: ServeSetting.named("rolloutEvery").help) var rolloutEvery: String?
    @Option(help: ServeSetting.named("rolloutCandidate").help) var candidate: String?
    @Option(help: ServeSetting.named("rolloutBaseline").help) var baseline: String?
    @Option(help: ServeSetting.named("rolloutNotify").help) var rolloutNotify: String?
    @Option(help: ServeSetting.named("rolloutNotifyFormat").help) var rolloutNotifyFormat: String?
    @Option(help: ServeSetting.named("baseURL").help) var baseURL: String?

    /// The options given, by their setting's key (the table's `option` names each property's option,
    /// which ServeSettingTests holds).
    var givenOptions: [String: SettingValue] {
        let texts: [String: String?] = [
            "db": db, "host": host, "port": port, "logLevel": logLevel, "ingestKeys": ingestKeys, "readKeys": readKeys, "adminKeys": adminKeys,
            "notify": notify, "notifyFormat": notifyFormat, "notifyFallbackFormat": notifyFallbackFormat, "alertsEvery": alertsEvery,
            "policy": policy, "timeZone": timeZone, "out": out, "renderEvery": renderEvery, "dashboards": dashboards,
            "renderRange": renderRange, "rolloutEvery": rolloutEvery, "rolloutCandidate": candidate, "rolloutBaseline": baseline,
            "rolloutNotify": rolloutNotify, "rolloutNotifyFormat": rolloutNotifyFormat, "baseURL": baseURL,
            "cardinalityCap": cardinalityCap, "totalCardinalityCap": totalCardinalityCap, "seriesCap": seriesCap,
            "totalSeriesCap": totalSeriesCap, "dedupHorizon": dedupHorizon, "minuteRetention": minuteRetention,
            "hourRetention": hourRetention, "dayRetention": dayRetention, "storeRetention": storeRetention,
        ]
        let lists = ["notifyFallbacks": notifyFallback, "alertApps": alertApp].merging(stores.lists) { first, _ in first }
        return texts.merging(stores.texts) { first, _ in first }.compactMapValues { $0.map(SettingValue.text) }
            .merging(lists.filter { !$0.value.isEmpty }.mapValues(SettingValue.list)) { first, _ in first }
            .merging(actions.givenOptions) { first, _ in first }
            .merging(notifyHeartbeat ? ["notifyHeartbeat": .bool(true)] : [:]) { first, _ in first }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        // Before any thread starts: memory that stays flat over a long run (issue 64).
        let arenas = ProcessMemory.limitArenas(environment: environment)
        let settings:
            (
                server: ServerConfiguration, db: StoreLocation, storage: StoreConfiguration, logLevel: Logger.Level, warnings: [String]
            )
        let served: ServedStore
        let logger: Logger
        let controls: [any StoreReleaseControl]
        // Every outbound call (notifications, the stores' APIs): run as the first service of the group, so
        // it is shut down last, after the services that call through it.
        let outbound = HTTPClientTransport()
        do {
            settings = try resolve(environment: environment)
            logger = Self.makeLogger(level: settings.logLevel)
            controls = try await RolloutActionOptions.controls(settings.server.rolloutActions, transport: outbound)
            var storeConfiguration = settings.storage
            storeConfiguration.fsyncEachCommit = true
            storeConfiguration.appCaps = settings.server.alertPolicy.appCaps
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
                "latenessLimit": "\(TimeStep(seconds: server.latenessLimitMillis / .millisPerSecond))",
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
                "pages": "\(pagesDescription(server))",
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
    /// warnings about settings that take no effect. Errors name the option, variable or key at fault.
    func resolve(
        environment: [String: String]
    ) throws -> (
        server: ServerConfiguration, db: StoreLocation, storage: StoreConfiguration, logLevel: Logger.Level, warnings: [String]
    ) {
        let file = try (config ?? environment["PURCHASE_SLI_CONFIG"]).map(ServerConfigFile.init(path:))
        let settings = try ServeSettings(options: givenOptions, environment: environment, file: file)
        var server = settings.server
        for (keys, kind) in [(server.readKeys, "read"), (server.adminKeys, "admin")] {
            if let shared = keys.sharedKey(with: server.ingestKeys) {
                throw CommandFailure(
                    message:
                        "the \(kind) keys hold an ingest key (\(shared.prefix(4))…): ingest keys ship inside apps and are public, so no \(kind) key may be one"
                )
            }
        }
        try StoreNotificationOptions.check(server)
        server.rolloutActions = try RolloutActionOptions.releases(of: settings)
        if let candidate = server.rolloutCandidate, candidate == server.rolloutBaseline {
            throw CommandFailure(message: "--baseline must differ from --candidate (both \(candidate))")
        }
        server.pagesDirectory = server.pagesDirectory ?? (server.renderEverySeconds != nil ? "out" : nil)
        if server.renderEverySeconds != nil {
            do {
                server.dashboards = try DashboardFiles.load(directory: settings.dashboardsDirectory)
            } catch let failure as DashboardFiles.Failure {
                throw CommandFailure(message: failure.description)
            }
        } else if server.notifyURL != nil, server.baseURL != nil {
            // Only to find the page that shows alerts, for the links (oncall.html when none can be read).
            server.dashboards = (try? DashboardFiles.load(directory: settings.dashboardsDirectory)) ?? []
        }
        // Read whatever else is on: its apps' caps bound every write, and the reconciliation rules of a
        // store's charges also judge GET /v1/query?of=charges.
        server.alertPolicy = try SLOPolicy.load(path: settings.policyPath, directory: settings.dashboardsDirectory)
        if let name = settings.timeZone {
            server.timeZone = try TimeZoneOffsets.resolving(name, source: settings.origin(of: "timeZone"))
        } else if let name = server.alertPolicy.timeZone {
            server.timeZone = try TimeZoneOffsets.resolving(name, source: "the policy's timeZone")
        }
        do {
            try server.validate()
        } catch {
            throw CommandFailure(message: "\(settings.origin(of: error.key)): expected \(error.expected), got \(error.got)")
        }
        let storage: StoreConfiguration
        do {
            storage = try settings.storage.configuration(naming: settings.origin(of:))
        } catch {
            throw CommandFailure(message: error.message)
        }
        let lateness = server.latenessLimitMillis / .millisPerSecond
        let horizon = storage.dedupHorizonSeconds
        guard lateness <= horizon else {
            throw CommandFailure(
                message: "\(settings.origin(of: "latenessLimit")) (\(TimeStep(seconds: lateness))) must not exceed "
                    + "\(settings.origin(of: "dedupHorizon")) (\(TimeStep(seconds: horizon))): an event re-sent after its eventID is "
                    + "forgotten would count twice")
        }
        let database = try StoreLocation(settings.database, source: settings.origin(of: "db"))
        return (server, database, storage, settings.logLevel, ineffectiveSettings(server, settings.origins))
    }

    /// Warnings about the settings given that nothing uses in these settings, naming where each was given.
    private func ineffectiveSettings(_ server: ServerConfiguration, _ origins: [String: ServeSetting.Origin]) -> [String] {
        var unused: [(key: String, needs: String)] = []
        if server.notifyURL == nil {
            unused += ["notifyFormat", "alertsEvery", "alertApps", "notifyFallbacks", "notifyFallbackFormat", "notifyHeartbeat"].map {
                ($0, "--notify")
            }
        }
        if server.renderEverySeconds == nil {
            unused.append(("renderRange", "--render-every"))
        }
        if server.rolloutEverySeconds == nil {
            unused += ["rolloutCandidate", "rolloutBaseline", "rolloutNotify", "rolloutNotifyFormat"].map { ($0, "--rollout-every") }
        }
        let exposed = !server.readKeys.isEnabled && !["127.0.0.1", "::1", "localhost"].contains(server.host)
        return unused.compactMap { key, needs in origins[key].map { "\($0) has no effect without \(needs)" } }
            + (server.rolloutEverySeconds == nil && server.rolloutActions.isConfigured
                ? ["--asc-key-file / --play-service-account has no effect without --rollout-every"] : [])
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

    /// What the start log says of alert notifications: off, or how often, where, and for which apps apart.
    private func alertsDescription(_ server: ServerConfiguration) -> String {
        guard let url = server.notifyURL else { return "off" }
        let apps = server.alertApps.isEmpty ? "" : ", apart for \(server.alertApps.joined(separator: ","))"
        let fallbacks = server.alertFallbacks.map { "\($0.url.redacted) (\($0.format))" }.joined(separator: ", ")
        return "every \(TimeStep(seconds: server.alertsEverySeconds)) to \(url.redacted) (\(server.notifyFormat))\(apps)"
            + (server.notifyHeartbeat ? " with the PurchaseSLIWatchdog heartbeat" : "")
            + (fallbacks.isEmpty ? "" : "; while it fails, also to \(fallbacks)")
    }

    /// What the start log says of the pages: off, the directory served, how often it is rendered and for which
    /// apps apart.
    private func pagesDescription(_ server: ServerConfiguration) -> String {
        guard let directory = server.pagesDirectory else { return "off" }
        guard let every = server.renderEverySeconds else { return "\(directory) at /" }
        let apps = server.appsWithPages.isEmpty ? "" : ", apart for \(server.appsWithPages.joined(separator: ","))"
        return "\(directory) at /, rendered every \(TimeStep(seconds: every))\(apps)"
    }

    /// The service's logger at `level`, through whatever handler the executable bootstrapped (standard error).
    private static func makeLogger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "purchase-sli")
        logger.logLevel = level
        return logger
    }
}
