public import Logging
public import PurchaseSLIApplication
import PurchaseSLICore
public import PurchaseSLIDashboards
public import PurchaseSLIStorage
public import ServiceLifecycle

/// `serve --render-every`: renders the dashboards and the last week's review into a directory at every
/// interval, until graceful shutdown; the server serves that directory at `/`.
///
/// The loop reads the clock once per round, floors it to the minute and hands that time to
/// ``publish(at:generatedAtSeconds:)``, which tests call with times of their own.
public struct DashboardPublisher: Service {
    private let renderer: @Sendable (Int64) async throws -> DashboardRenderer
    private let apps: [String]
    private let deliveries: NotificationDeliveries?
    private let directory: String
    private let intervalSeconds: Int64
    private let logger: Logger
    private let nowMillis: @Sendable () -> Int64
    private let leadership: any StoreLeadership

    /// Creates a publisher of `definitions` into `directory`, and of each app of `apps` into its own
    /// `apps/<dir>/` (``DashboardRenderer/render(eachApp:generatedAtSeconds:)``); `context` gives the store,
    /// policy, range and the records the pages show (maintenance windows, rollout actions) for a page time,
    /// read again each round; the pages reload themselves every interval and link as `links` says.
    public init(
        definitions: [DashboardDefinition], context: @escaping @Sendable (Int64) async throws -> DashboardContext, directory: String,
        apps: [String] = [], intervalSeconds: Int64, links: PageLinks = PageLinks(), logger: Logger,
        nowMillis: @escaping @Sendable () -> Int64, leadership: any StoreLeadership = SoleLeadership(), deliveries: NotificationDeliveries? = nil
    ) {
        self.deliveries = deliveries
        self.apps = apps
        var links = links
        links.refreshSeconds = intervalSeconds
        renderer = { [links] in DashboardRenderer(definitions: definitions, context: try await context($0), links: links) }
        self.directory = directory
        self.intervalSeconds = intervalSeconds
        self.logger = logger
        self.nowMillis = nowMillis
        self.leadership = leadership
    }

    /// Renders at once, then every interval after that round's time, until graceful shutdown.
    public func run() async throws {
        try await runScheduledRounds(every: intervalSeconds, leadership: leadership, nowMillis: nowMillis, state: ()) { [self] millis, _ in
            await publish(at: millis / .millisPerMinute * .secondsPerMinute, generatedAtSeconds: millis / .millisPerSecond)
        }
    }

    /// Renders every page for `time` (minute-aligned; only events before it count) and writes them; a
    /// failure is logged, and the pages of the previous round stay in place.
    public func publish(at time: Int64, generatedAtSeconds: Int64) async {
        let directory = directory
        let apps = apps
        let started = nowMillis()
        do {
            var renderer = try await renderer(time)
            renderer.deliveryOutages = deliveries?.outages(at: generatedAtSeconds) ?? []
            let shown = renderer
            let written = try await onComputePool {
                try DashboardFiles.write(try await shown.render(eachApp: apps, generatedAtSeconds: generatedAtSeconds), to: directory)
            }
            logger.info(
                "dashboards rendered",
                metadata: [
                    "time": "\(RFC3339.format(seconds: time))", "pages": "\(written.count)", "apps": "\(apps.count)", "directory": "\(directory)",
                    "milliseconds": "\(nowMillis() - started)",
                ])
        } catch is CancellationError {
            // The service is stopping: the pages of the previous round stay in place.
        } catch {
            logger.error("dashboards not rendered", metadata: ["time": "\(RFC3339.format(seconds: time))", "error": "\(error)"])
        }
    }
}
