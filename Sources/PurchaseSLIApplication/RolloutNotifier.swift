public import Logging
public import PurchaseSLIAnalysis
import PurchaseSLICore
public import PurchaseSLIStorage
public import ServiceLifecycle

/// `serve --rollout-every`: evaluates the phased release of the candidate (or of the newest app version)
/// against its baseline at every interval, logs each verdict, and posts its changes
/// (``RolloutNotificationState``) until graceful shutdown.
///
/// The loop reads the clock once per round, floors it to the minute and hands that time to
/// ``check(at:state:)``, which tests call with times of their own.
public struct RolloutNotifier: Service {
    private let store: any PurchaseStore
    private let policy: SLOPolicy
    private let intervalSeconds: Int64
    private let candidate: String?
    private let baseline: String?
    private let sender: (any RolloutNotificationSender)?
    private let logger: Logger
    private let nowMillis: @Sendable () -> Int64
    private let leadership: any StoreLeadership
    private let actuator: RolloutActuator?
    private let deliveries: NotificationDeliveries?
    private let receiverHost: String

    /// Creates a notifier.
    /// - Parameters:
    ///   - candidate: the app version released, or nil for the one a store set up in `actuator` has in
    ///     release, else the newest one with real traffic over the last 14 days
    ///     (``RolloutQuery/candidate(_:at:releases:)``).
    ///   - baseline: the version to compare with, or nil for the busiest other one.
    ///   - sender: where changes are posted; nil to log them only.
    ///   - nowMillis: the wall clock, read by ``run()`` only.
    ///   - actuator: what pauses the stores' releases on the verdicts the policy names; nil: nothing is acted on.
    ///   - deliveries: where each post's outcome is recorded, as the `rollout` receiver at `receiverHost`.
    public init(
        store: any PurchaseStore, policy: SLOPolicy, intervalSeconds: Int64, candidate: String?, baseline: String?,
        sender: (any RolloutNotificationSender)?, logger: Logger, nowMillis: @escaping @Sendable () -> Int64,
        leadership: any StoreLeadership = SoleLeadership(), actuator: RolloutActuator? = nil,
        deliveries: NotificationDeliveries? = nil, receiverHost: String = ""
    ) {
        self.deliveries = deliveries
        self.receiverHost = receiverHost
        self.actuator = actuator
        self.store = store
        self.policy = policy
        self.intervalSeconds = intervalSeconds
        self.candidate = candidate
        self.baseline = baseline
        self.sender = sender
        self.logger = logger
        self.nowMillis = nowMillis
        self.leadership = leadership
    }

    /// Checks at once, then every interval after that check's time, until graceful shutdown.
    public func run() async throws {
        try await runScheduledRounds(every: intervalSeconds, leadership: leadership, nowMillis: nowMillis, state: RolloutNotificationState()) {
            [self] millis, state in
            await check(at: millis / .millisPerMinute * .secondsPerMinute, state: &state)
        }
    }

    /// The verdict at `time` (minute-aligned seconds; only events before it count), logged, and posted
    /// when `state` says it changed. Nil when there is nothing to compare (one version only) or the
    /// evaluation failed; both are logged.
    @discardableResult
    public func check(at time: Int64, state: inout RolloutNotificationState) async -> RolloutReport? {
        let (store, policy) = (store, policy)
        // What the stores have in release, asked each round: the candidate and any action rest on it, not
        // on the versions events name.
        let releases = await actuator?.releasesInProgress() ?? StoreReleases()
        let report: RolloutReport?
        do {
            let context = try await AlertContext(store: store, policy: policy)
            report = try await onComputePool { try await evaluate(context: context, releases: releases, at: time) }
        } catch {
            logger.warning("rollout check failed", metadata: ["time": "\(RFC3339.format(seconds: time))", "error": "\(error)"])
            return nil
        }
        guard var report else {
            logger.debug("rollout check: one app version only", metadata: ["time": "\(RFC3339.format(seconds: time))"])
            return nil
        }
        let news = await actuator?.act(on: report, verdicts: policy.rollout.pauseOn, releases: releases, at: time) ?? []
        do {
            report.actions = try await RolloutActionRepository(store.sql).actions(of: report)
        } catch {
            logger.warning("rollout actions could not be read", metadata: ["error": "\(error)"])
        }
        let (previous, isChange) = state.change(report)
        var metadata: Logger.Metadata = [
            "time": "\(RFC3339.format(seconds: time))", "candidate": "\(report.candidate)", "baseline": "\(report.baseline)",
            "verdict": "\(report.verdict.rawValue)", "step": "\(report.progress?.step.map { "\($0) %" } ?? "unknown")",
        ]
        // A verdict that did not change is posted again only with news of what was done to a release.
        guard isChange || !news.isEmpty else {
            logger.debug("rollout checked", metadata: metadata)
            return report
        }
        metadata["previous"] = "\(previous?.rawValue ?? "none")"
        guard let sender else {
            logger.info("rollout verdict", metadata: metadata)
            state.deliveredChange()
            return report
        }
        do {
            try await sender.send(report, previous: previous)
            state.deliveredChange()
            deliveries?.record(receiver: "rollout", host: receiverHost, atSeconds: time, failure: nil)
            logger.info("rollout verdict sent", metadata: metadata)
        } catch {
            deliveries?.record(receiver: "rollout", host: receiverHost, atSeconds: time, error: error)
            metadata["error"] = "\(error)"
            logger.warning("rollout verdict not delivered; retrying at the next check", metadata: metadata)
        }
        return report
    }

    /// The rollout's report at `time` for the candidate (named, else the newest in release), or nil when
    /// there is no other version to compare it with.
    private func evaluate(context: AlertContext, releases: StoreReleases, at time: Int64) async throws -> RolloutReport? {
        let query = RolloutQuery(store: store)
        guard let version = try await query.candidate(candidate, at: time, releases: releases.all) else {
            return nil
        }
        let inputs = try await query.inputs(candidate: version, baseline: baseline, since: nil, end: time)
        let freshness = try await context.freshness(at: time)
        var report = RolloutEvaluator(policy: policy).evaluate(inputs, freshness: freshness)
        report.storeReleases = releases.all.filter { $0.isRelease(of: version) }
        report.arrivals = try await query.arrivals(of: report)
        report.incidents = try await IncidentBook(context: context).records(
            naming: version, from: report.fromSeconds, to: time + .secondsPerMinute)
        return report
    }
}
