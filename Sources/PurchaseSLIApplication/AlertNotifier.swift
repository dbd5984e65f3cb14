public import Logging
import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering
public import PurchaseSLIStorage
public import ServiceLifecycle

/// `serve --notify`: evaluates the alert policy over the store at every interval and sends the changes
/// ``AlertNotificationState`` picks, until graceful shutdown.
///
/// The loop reads the clock once per round, floors it to the minute and hands that time to
/// ``notify(at:state:)``, which tests call with times of their own.
public struct AlertNotifier: Service {
    private let context: AlertContext
    private let intervalSeconds: Int64
    private let sender: any AlertNotificationSender
    private let logger: Logger
    private let nowMillis: @Sendable () -> Int64
    private let leadership: any StoreLeadership
    private let deliveries: NotificationDeliveries?
    private let receiverHost: String

    /// Creates a notifier.
    /// - Parameters:
    ///   - context: the store, the policy, and what the alert text names and links to.
    ///   - intervalSeconds: time between evaluations, a whole number of minutes.
    ///   - nowMillis: the wall clock, read by ``run()`` only.
    ///   - deliveries: where each delivery's outcome is recorded, as the `alerts` receiver at `receiverHost`.
    public init(
        context: AlertContext, intervalSeconds: Int64, sender: any AlertNotificationSender, logger: Logger,
        nowMillis: @escaping @Sendable () -> Int64, leadership: any StoreLeadership = SoleLeadership(),
        deliveries: NotificationDeliveries? = nil, receiverHost: String = ""
    ) {
        self.deliveries = deliveries
        self.receiverHost = receiverHost
        self.context = context
        self.intervalSeconds = intervalSeconds
        self.sender = sender
        self.logger = logger
        self.nowMillis = nowMillis
        self.leadership = leadership
    }

    /// Evaluates at once, then every interval after that evaluation's time, until graceful shutdown.
    public func run() async throws {
        try await runScheduledRounds(
            every: intervalSeconds, leadership: leadership, nowMillis: nowMillis, state: AlertNotificationState(resendingFiring: sender.resendsFiring)
        ) { [self] millis, state in
            await notify(at: millis / 60_000 * 60, state: &state)
        }
    }

    /// Evaluates the alerts firing at `time` (minute-aligned seconds; only events before it count) and
    /// sends what `state` says to. A failed evaluation or send is logged, and what it did not deliver is
    /// sent with the next one.
    public func notify(at time: Int64, state: inout AlertNotificationState) async {
        let context = self.context
        let firing: [AlertReport]
        do {
            firing = try await runBlocking { try context.firingReports(at: time) }
        } catch {
            logger.error("alert evaluation failed", metadata: ["time": "\(RFC3339.format(seconds: time))", "error": "\(error)"])
            return
        }
        let records = await updateRecords(firing: firing, at: time)
        let reports = state.reportsToSend(firing: firing, at: time).map { report in
            var report = report
            report.incidentRecord = report.incident.flatMap { records[$0.id] }
            return report
        }
        guard !reports.isEmpty else { return }
        let resolved = reports.filter { $0.endsAt != nil }.count
        var metadata: Logger.Metadata = [
            "time": "\(RFC3339.format(seconds: time))", "firing": "\(reports.count - resolved)", "resolved": "\(resolved)",
        ]
        do {
            try await sender.send(reports, evaluatedAt: time)
            state.delivered()
            deliveries?.record(receiver: "alerts", host: receiverHost, atSeconds: time, failure: nil)
            logger.info("alert notifications sent", metadata: metadata)
        } catch {
            deliveries?.record(receiver: "alerts", host: receiverHost, atSeconds: time, error: error)
            if let failure = error as? NotificationError {
                metadata["url"] = "\(failure.url.redacted)"
                metadata["status"] = "\(failure.status.map(String.init) ?? "no answer")"
            }
            metadata["error"] = "\(error)"
            logger.warning("alert notifications not delivered; retrying at the next evaluation", metadata: metadata)
        }
    }

    /// Keeps the records of the incidents firing at `time` (taken with their reports) and takes again those
    /// still open or resolved (``IncidentBook/update(with:at:)``), by id; a failure is logged and the notifications go out without
    /// them.
    private func updateRecords(firing: [AlertReport], at time: Int64) async -> [String: IncidentRecord] {
        let book = IncidentBook(context: context)
        do {
            let records = try await runBlocking { try book.update(with: firing.compactMap(\.incidentRecord), at: time) }
            return Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            logger.error("incident records not updated", metadata: ["time": "\(RFC3339.format(seconds: time))", "error": "\(error)"])
            return [:]
        }
    }
}
