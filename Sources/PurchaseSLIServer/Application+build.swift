import Foundation
public import Hummingbird
public import Logging
public import PurchaseSLIApplication
public import PurchaseSLICore
import PurchaseSLIDashboards
public import PurchaseSLIOutbound
import PurchaseSLIRendering
public import PurchaseSLIStorage
public import ServiceLifecycle

/// Builds the ingestion service: routes, limits, metrics, the rendered pages at `/` when
/// `configuration.pagesDirectory` is set, and as services the group committer, the alert notifier when
/// `configuration.notifyURL` is set, the dashboard publisher when `renderEverySeconds` is set, and the
/// rollout notifier when `rolloutEverySeconds` is set.
///
/// Tests call it with port 0 and drive it through HummingbirdTesting; `purchase-sli serve` runs it.
/// - Parameters:
///   - databasePath: the SQLite store's file, named in the look-next commands of alert text and pages.
///   - leadership: which of the nodes sharing the store sends notifications, renders and prunes.
///   - receivingClock: the time events are received at (milliseconds): their lateness, the dedup horizon.
///     The wall clock but in tests that replay days of traffic as it arrives.
///   - outbound: what the notifiers post over (the rollout controls are given theirs); the first of the
///     application's services, so that it is shut down after those that call through it.
///   - deliveries: where the notification receivers' answers are kept (`/metrics`, `/readyz`, the pages);
///     made here when `configuration.notifyURL` is set and none is given.
public func buildApplication(
    configuration: ServerConfiguration, store: any PurchaseStore, databasePath: String?,
    leadership: any StoreLeadership = SoleLeadership(), rolloutControls: [any StoreReleaseControl] = [],
    receivingClock: @escaping @Sendable () -> Int64 = wallClockMillis, outbound: any OutboundTransport & Service = HTTPClientTransport(),
    deliveries: NotificationDeliveries? = nil, logger: Logger
) -> some ApplicationProtocol {
    // Apps the configuration names (alerted on alone, or with caps of their own): never a client's string.
    let metrics = ServerMetrics(
        store: store as? any StoreSizeReporting, namedApps: Set(configuration.alertApps).union(configuration.alertPolicy.appCaps.keys))
    let deliveries =
        deliveries ?? (configuration.notifyURL != nil || configuration.rolloutNotifyURL != nil ? NotificationDeliveries() : nil)
    deliveries?.onRecord(metrics.recordNotificationDelivery)
    let committer = GroupCommitter(
        store: store, maximumEventsPerCommit: configuration.maximumEventsPerCommit, nowMillis: receivingClock,
        onCommit: { outcome, requests, seconds in metrics.recordCommit(outcome, requests: requests, seconds: seconds) })
    let router = buildRouter(
        configuration: configuration, store: store, databasePath: databasePath, committer: committer, metrics: metrics,
        deliveries: deliveries, receivingClock: receivingClock, logger: logger)
    return Application(
        router: router,
        server: .http1(configuration: .init(idleTimeout: .seconds(configuration.idleTimeoutSeconds))),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "purchase-sli"),
        services: [
            outbound,
            committer,
            RetentionPruner(
                store: store, intervalSeconds: configuration.pruneEverySeconds, metrics: metrics, logger: logger, nowMillis: wallClockMillis,
                leadership: leadership),
            MemoryTrimmer(intervalSeconds: .secondsPerMinute, logger: logger),
        ]
            + alertNotifier(
                configuration: configuration, store: store, databasePath: databasePath, leadership: leadership, outbound: outbound,
                deliveries: deliveries, logger: logger)
            + dashboardPublisher(
                configuration: configuration, store: store, databasePath: databasePath, leadership: leadership, deliveries: deliveries, logger: logger
            )
            + rolloutNotifier(
                configuration: configuration, store: store, leadership: leadership, controls: rolloutControls, outbound: outbound, metrics: metrics,
                deliveries: deliveries,
                logger: logger),
        logger: logger
    )
}

/// The service's routes and their middleware: what openapi.yaml documents (`ApiContractTests` holds the
/// two to each other).
func buildRouter(
    configuration: ServerConfiguration, store: any PurchaseStore, databasePath: String?, committer: GroupCommitter,
    metrics: ServerMetrics, deliveries: NotificationDeliveries?, receivingClock: @escaping @Sendable () -> Int64, logger: Logger
) -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self)
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
    router.add(middleware: UnexpectedErrorMiddleware(logger: logger))
    router.add(middleware: ReadAccessMiddleware(configuration: configuration))
    EventsController(configuration: configuration, committer: committer, metrics: metrics, nowMillis: receivingClock, logger: logger)
        .addRoutes(to: router)
    StoreNotificationsController(
        configuration: configuration, records: store, metrics: metrics, nowMillis: receivingClock, logger: logger
    ).addRoutes(to: router)
    QueryController(
        store: store, maximumRows: configuration.maximumQueryRows, reconciliation: configuration.alertPolicy.reconciliation,
        nowMillis: receivingClock
    ).addRoutes(to: router)
    HealthController(store: store, committer: committer, metrics: metrics, deliveries: deliveries, nowMillis: receivingClock)
        .addRoutes(to: router)
    SLOMetricsController(
        snapshotting: SLOSnapshotting(store: store, policy: configuration.alertPolicy, apps: configuration.judgedApps),
        nowMillis: receivingClock
    ).addRoutes(to: router)
    MaintenanceController(
        store: store, policyWindows: configuration.alertPolicy.maintenance,
        admin: AdminAccess(
            keys: configuration.adminKeys, change: "declaring or removing maintenance windows", readKeyMay: "a read key only lists them",
            offline: "purchase-sli maintenance works on the database"),
        maximumBodyBytes: configuration.maximumBodyBytes, bodyTimeoutSeconds: configuration.bodyTimeoutSeconds, nowMillis: receivingClock,
        logger: logger
    ).addRoutes(to: router)
    IncidentsController(
        store: store, policy: configuration.alertPolicy, links: links(configuration, databasePath), definitions: configuration.dashboards,
        admin: AdminAccess(
            keys: configuration.adminKeys, change: "acknowledging incidents", readKeyMay: "a read key only lists them",
            offline: "purchase-sli incidents acknowledge works on the database"),
        maximumBodyBytes: configuration.maximumBodyBytes, bodyTimeoutSeconds: configuration.bodyTimeoutSeconds, nowMillis: receivingClock,
        logger: logger
    ).addRoutes(to: router)
    if let directory = configuration.pagesDirectory {
        // Asked for only when no route matches: `/` is index.html, `/oncall.html` the on-call page.
        router.add(middleware: PageFiles(directory: directory, logger: logger).middleware())
    }
    return router
}

/// The alert notifier `configuration` asks for, if any.
private func alertNotifier(
    configuration: ServerConfiguration, store: any PurchaseStore, databasePath: String?, leadership: any StoreLeadership,
    outbound: any OutboundTransport, deliveries: NotificationDeliveries?, logger: Logger
) -> [any Service] {
    guard let url = configuration.notifyURL else { return [] }
    return configuration.judgedApps.map { app in
        var appLogger = logger
        if let app { appLogger[metadataKey: "app"] = "\(app)" }
        // The notifier reads the stored maintenance windows again before each round (AlertContext.reloaded).
        let context = links(configuration, databasePath).linking(
            AlertContext(store: store, storedMaintenance: [], policy: configuration.alertPolicy, app: app), definitions: configuration.dashboards)
        return AlertNotifier(
            context: context, intervalSeconds: configuration.alertsEverySeconds,
            sender: WebhookSender(
                url: url, format: configuration.notifyFormat, zone: configuration.timeZone,
                heartbeat: configuration.notifyHeartbeat
                    ? AlertHeartbeat(intervalSeconds: configuration.alertsEverySeconds, app: app, pageURL: context.alertPageURL) : nil,
                transport: outbound),
            logger: appLogger, nowMillis: wallClockMillis, leadership: leadership, deliveries: deliveries, receiverHost: url.host ?? "?",
            fallbacks: configuration.alertFallbacks.enumerated().map { index, fallback in
                AlertReceiver(
                    name: index == 0 ? "alerts-fallback" : "alerts-fallback-\(index + 1)", host: fallback.url.host ?? "?",
                    sender: WebhookSender(url: fallback.url, format: fallback.format, zone: configuration.timeZone, transport: outbound))
            })
    }
}

/// The dashboard publisher `configuration` asks for, if any.
private func dashboardPublisher(
    configuration: ServerConfiguration, store: any PurchaseStore, databasePath: String?, leadership: any StoreLeadership,
    deliveries: NotificationDeliveries?, logger: Logger
) -> [any Service] {
    guard let directory = configuration.pagesDirectory, let interval = configuration.renderEverySeconds else { return [] }
    let policy = configuration.alertPolicy
    let range = configuration.renderRangeSeconds
    let zone = configuration.timeZone
    return [
        DashboardPublisher(
            definitions: configuration.dashboards,
            context: { try await DashboardContext(store: store, policy: policy, atSeconds: $0, rangeSeconds: range, zone: zone) },
            directory: directory, apps: configuration.appsWithPages, intervalSeconds: interval, links: links(configuration, databasePath),
            logger: logger,
            nowMillis: wallClockMillis, leadership: leadership, deliveries: deliveries)
    ]
}

/// The rollout notifier `configuration` asks for, if any: posting to `rolloutNotifyURL`, else to a Slack
/// `notifyURL`, else logging only; acting through `controls` (none: nothing is acted on).
private func rolloutNotifier(
    configuration: ServerConfiguration, store: any PurchaseStore, leadership: any StoreLeadership, controls: [any StoreReleaseControl],
    outbound: any OutboundTransport, metrics: ServerMetrics, deliveries: NotificationDeliveries?, logger: Logger
) -> [any Service] {
    guard let interval = configuration.rolloutEverySeconds else { return [] }
    let pageURL = configuration.baseURL.map { "\($0)/\(DashboardDefinition.rolloutPage(in: configuration.dashboards))" }
    let sender: RolloutWebhookSender? =
        if let url = configuration.rolloutNotifyURL {
            RolloutWebhookSender(
                url: url, format: configuration.rolloutNotifyFormat, pageURL: pageURL, zone: configuration.timeZone, transport: outbound)
        } else if let url = configuration.notifyURL, configuration.notifyFormat == .slack {
            RolloutWebhookSender(url: url, format: .slack, pageURL: pageURL, zone: configuration.timeZone, transport: outbound)
        } else {
            nil
        }
    return [
        RolloutNotifier(
            store: store, policy: configuration.alertPolicy, intervalSeconds: interval, candidate: configuration.rolloutCandidate,
            baseline: configuration.rolloutBaseline, sender: sender, logger: logger, nowMillis: wallClockMillis, leadership: leadership,
            actuator: controls.isEmpty
                ? nil
                : RolloutActuator(
                    controls: controls, dryRun: !configuration.rolloutActions.live,
                    requiresConfirmation: configuration.rolloutActions.requiresConfirmation, store: store, logger: logger,
                    record: { metrics.record(rolloutAction: $0) }),
            deliveries: deliveries, receiverHost: (configuration.rolloutNotifyURL ?? configuration.notifyURL)?.host ?? "?")
    ]
}

/// What alert text and pages link to: the served pages under `baseURL` (an app's own, of the apps whose
/// pages are published apart), and the database for "look next".
private func links(_ configuration: ServerConfiguration, _ databasePath: String?) -> PageLinks {
    var links = PageLinks(baseURL: configuration.baseURL, databasePath: databasePath)
    links.appsWithPages = Set(configuration.appsWithPages)
    return links
}

/// Milliseconds since the epoch on ``PurchaseSLICore/WallClock/system`` (the server is a shell; analysis never
/// reads it), as the server's parts take it: a function they call when they need the time.
@Sendable public func wallClockMillis() -> Int64 {
    WallClock.system.nowMillis
}
