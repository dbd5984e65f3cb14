public import Logging
import PurchaseSLIAnalysis
import PurchaseSLICore
public import PurchaseSLIStorage
public import ServiceLifecycle

/// `serve --notify`: evaluates the alert policy over the store at every interval and sends the changes
/// ``AlertNotificationState`` picks to its receiver; while that receiver has failed every delivery for
/// ``NotificationDeliveries/failingAfterSeconds``, to its fallbacks too, until graceful shutdown.
///
/// The loop reads the clock once per round, floors it to the minute and hands that time to
/// ``notify(at:state:)``, which tests call with times of their own.
public struct AlertNotifier: Service {
    private let context: AlertContext
    private let intervalSeconds: Int64
    private let receiver: AlertReceiver
    private let fallbacks: [AlertReceiver]
    private let logger: Logger
    private let nowMillis: @Sendable () -> Int64
    private let leadership: any StoreLeadership
    private let deliveries: NotificationDeliveries?

    /// Creates a notifier.
    /// - Parameters:
    ///   - context: the store, the policy, and what the alert text names and links to.
    ///   - intervalSeconds: time between evaluations, a whole number of minutes.
    ///   - sender: the alert receiver, `alerts` at `receiverHost`.
    ///   - nowMillis: the wall clock, read by ``run()`` only.
    ///   - deliveries: where each delivery's outcome is recorded, by receiver.
    ///   - fallbacks: the receivers that take the alerts while the alert receiver fails (`alerts-fallback`, …).
    public init(
        context: AlertContext, intervalSeconds: Int64, sender: any AlertNotificationSender, logger: Logger,
        nowMillis: @escaping @Sendable () -> Int64, leadership: any StoreLeadership = SoleLeadership(),
        deliveries: NotificationDeliveries? = nil, receiverHost: String = "", fallbacks: [AlertReceiver] = []
    ) {
        self.deliveries = deliveries
        receiver = AlertReceiver(name: "alerts", host: receiverHost, sender: sender)
        self.fallbacks = fallbacks
        var context = context
        // Each round reads the minutes its windows gained and those written to since the last one.
        context.keptSeries = context.keptSeries ?? KeptMinuteSeries()
        self.context = context
        self.intervalSeconds = intervalSeconds
        self.logger = logger
        self.nowMillis = nowMillis
        self.leadership = leadership
    }

    /// What the rounds carry from one to the next: what each receiver was sent, since when the alert
    /// receiver fails, and whether its fallbacks have its alerts.
    public struct State: Sendable {
        /// What the alert receiver was sent.
        var sent: AlertNotificationState
        /// When the alert receiver's failures since its last delivery began, and the last one.
        var failingSince: Int64?
        var lastFailure: String?
        /// Whether the fallbacks have the alerts, what each was sent, and the word on rerouting each still owes.
        var rerouted = false
        var fallbacks: [(sent: AlertNotificationState, owedWord: AlertRerouting?)] = []
    }

    /// The state of a notifier that has sent nothing.
    public var initialState: State { State(sent: AlertNotificationState(resendingFiring: receiver.sender.resendsFiring)) }

    /// Evaluates at once, then every interval after that evaluation's time, until graceful shutdown.
    public func run() async throws {
        try await runScheduledRounds(every: intervalSeconds, leadership: leadership, nowMillis: nowMillis, state: initialState) {
            [self] millis, state in
            await notify(at: millis / .millisPerMinute * .secondsPerMinute, state: &state)
        }
    }

    /// Evaluates the alerts firing at `time` (minute-aligned seconds; only events before it count) and
    /// sends what `state` says to. A failed evaluation or send is logged, and what it did not deliver is
    /// sent with the next one.
    public func notify(at time: Int64, state: inout State) async {
        let context: AlertContext
        let firing: [AlertReport]
        do {
            // The maintenance windows declared since the last round count in this one.
            context = try await self.context.reloaded()
            firing = try await onComputePool { try await context.firingReports(at: time) }
        } catch {
            logger.error("alert evaluation failed", metadata: ["time": "\(RFC3339.format(seconds: time))", "error": "\(error)"])
            return
        }
        let records = await updateRecords(firing: firing, at: time, context: context)
        let withRecords = { (reports: [AlertReport]) in
            reports.map { report in
                var report = report
                report.incidentRecord = report.incident.flatMap { records[$0.id] }
                return report
            }
        }
        let reports = withRecords(state.sent.reportsToSend(firing: firing, at: time))
        if !reports.isEmpty || receiver.sender.sendsEveryRound {
            if let failure = await deliver(reports, to: receiver, at: time) {
                state.failingSince = state.failingSince ?? time
                state.lastFailure = failure
            } else {
                state.sent.delivered()
                state.failingSince = nil
            }
        }
        await reroute(firing: firing, withRecords: withRecords, at: time, state: &state)
    }

    /// Sends the fallbacks the alerts while the alert receiver has failed every delivery for
    /// ``NotificationDeliveries/failingAfterSeconds``: at first every alert firing, opened by the word that
    /// they take over, then each change; once the alert receiver takes a delivery again, the word that it does.
    private func reroute(
        firing: [AlertReport], withRecords: ([AlertReport]) -> [AlertReport], at time: Int64, state: inout State
    ) async {
        guard !fallbacks.isEmpty else { return }
        if let since = state.failingSince, time - since >= NotificationDeliveries.failingAfterSeconds {
            if !state.rerouted {
                state.rerouted = true
                let word = AlertRerouting.takingOver(receiver: "the alert receiver", host: receiver.host, since: since, failure: state.lastFailure)
                state.fallbacks = fallbacks.map { (AlertNotificationState(resendingFiring: $0.sender.resendsFiring), word) }
            }
            for (index, fallback) in fallbacks.enumerated() {
                let reports = withRecords(state.fallbacks[index].sent.reportsToSend(firing: firing, at: time))
                let word = state.fallbacks[index].owedWord
                guard !reports.isEmpty || word != nil else { continue }
                if await deliver(reports, to: fallback, at: time, rerouting: word) == nil {
                    state.fallbacks[index].sent.delivered()
                    state.fallbacks[index].owedWord = nil
                }
            }
        } else if state.rerouted, state.failingSince == nil {
            state.rerouted = false
            let word = AlertRerouting.handingBack(receiver: "the alert receiver", host: receiver.host, at: time, firing: firing.count)
            for fallback in fallbacks { _ = await deliver([], to: fallback, at: time, rerouting: word) }
        }
    }

    /// Posts `reports` to `target`, records the outcome and logs it; returns the failure, or nil once delivered.
    private func deliver(_ reports: [AlertReport], to target: AlertReceiver, at time: Int64, rerouting: AlertRerouting? = nil) async -> String? {
        let resolved = reports.filter { $0.endsAt != nil }.count
        var metadata: Logger.Metadata = [
            "time": "\(RFC3339.format(seconds: time))", "firing": "\(reports.count - resolved)", "resolved": "\(resolved)",
        ]
        if target.name != receiver.name { metadata["receiver"] = "\(target.name)" }
        let standsInFor = target.name == receiver.name ? nil : receiver.name
        do {
            try await target.sender.send(reports, evaluatedAt: time, rerouting: rerouting)
            deliveries?.record(receiver: target.name, host: target.host, standsInFor: standsInFor, atSeconds: time, failure: nil)
            logger.info("alert notifications sent", metadata: metadata)
            return nil
        } catch {
            deliveries?.record(receiver: target.name, host: target.host, standsInFor: standsInFor, atSeconds: time, error: error)
            if let failure = error as? NotificationError {
                metadata["url"] = "\(failure.url.redacted)"
                metadata["status"] = "\(failure.status.map(String.init) ?? "no answer")"
            }
            metadata["error"] = "\(error)"
            logger.warning("alert notifications not delivered; retrying at the next evaluation", metadata: metadata)
            return NotificationDeliveries.failure(of: error)
        }
    }

    /// Keeps the records of the incidents firing at `time` (taken with their reports) and takes again those
    /// still open or resolved (``IncidentBook/update(with:at:)``), by id; a failure is logged and the notifications go out without
    /// them.
    private func updateRecords(firing: [AlertReport], at time: Int64, context: AlertContext) async -> [String: IncidentRecord] {
        let book = IncidentBook(context: context)
        do {
            let records = try await onComputePool { try await book.update(with: firing.compactMap(\.incidentRecord), at: time) }
            return Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            logger.error("incident records not updated", metadata: ["time": "\(RFC3339.format(seconds: time))", "error": "\(error)"])
            return [:]
        }
    }
}

/// One place `serve`'s alerts are posted: its sender, and its name and host as `/metrics`, `/readyz` and
/// the pages give them.
public struct AlertReceiver: Sendable {
    /// `alerts`, or `alerts-fallback` (`alerts-fallback-2`, … after the first): set by the service, never
    /// from a request, as it is a metric label.
    public var name: String
    /// The host of its URL (no path: a webhook's path holds its secret).
    public var host: String
    /// What posts to it.
    public var sender: any AlertNotificationSender

    /// A receiver named `name` at `host`, posted to by `sender`.
    public init(name: String, host: String, sender: any AlertNotificationSender) {
        self.name = name
        self.host = host
        self.sender = sender
    }
}
