public import Logging
public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

/// Acts on rollout verdicts: when a candidate's verdict is one the policy pauses on (`rollout.pauseOn`,
/// rollback by default), pauses its App Store phased release and halts its Play staged rollout through
/// the stores' APIs, or with `dryRun` (serve's default) only reads their state and says what it would do.
///
/// Safe by construction: it only ever pauses, and only a release the store itself says is in progress
/// (``StoreReleaseControl/releasesInProgress()``); live, it waits for a person's confirmation
/// (`rollout confirm ID`) unless `requiresConfirmation` is off, because the verdict rests on events that
/// any holder of the public ingest key can send. Each store's release is acted on once per release, verdict
/// and mode (what was done is stored, so a restart or the next leader does not act again; a failure is
/// tried again at the next check); every attempt goes to the audit log (`rollout action`, at notice, with
/// the evidence) and to `record` (the metrics).
public struct RolloutActuator: Sendable {
    /// The stores' release controls configured.
    public let controls: [any StoreReleaseControl]
    /// Whether it only reads and says what it would do.
    public let dryRun: Bool
    /// Whether a live action waits for a person's confirmation.
    public let requiresConfirmation: Bool
    private let actions: RolloutActionRepository
    private let logger: Logger
    private let record: @Sendable (RolloutAction) -> Void

    /// Creates an actuator.
    /// - Parameters:
    ///   - requiresConfirmation: whether a live action waits for `rollout confirm` (the default).
    ///   - record: told of every attempt (the metrics).
    public init(
        controls: [any StoreReleaseControl], dryRun: Bool, requiresConfirmation: Bool = true, store: any SQLRecordStore, logger: Logger,
        record: @escaping @Sendable (RolloutAction) -> Void = { _ in }
    ) {
        self.controls = controls
        self.dryRun = dryRun
        self.requiresConfirmation = requiresConfirmation
        self.actions = RolloutActionRepository(store.sql)
        self.logger = logger
        self.record = record
    }

    /// What each configured store has in release now; a store that could not be read is logged and left
    /// out of ``StoreReleases/read``.
    public func releasesInProgress() async -> StoreReleases {
        var releases = StoreReleases()
        for control in controls {
            do {
                releases.read[control.store] = try await control.releasesInProgress()
            } catch {
                logger.warning("the store's releases could not be read", metadata: ["store": "\(control.store.rawValue)", "error": "\(error)"])
            }
        }
        return releases
    }

    /// Acts on `report` at `time` (seconds) when its verdict is among `verdicts`: for each configured store
    /// releasing the candidate that has no settled action for this release, verdict and mode yet, and whose
    /// `releases` (when read) include the candidate's. Returns the actions whose outcome is news (not the
    /// same as last time).
    public func act(
        on report: RolloutReport, verdicts: Set<RolloutReport.Verdict>, releases: StoreReleases, at time: Int64
    ) async -> [RolloutAction] {
        guard verdicts.contains(report.verdict) else { return [] }
        let stores = Store.releasing(platforms: report.platforms)
        let kept: [String: RolloutAction]
        do {
            kept = Dictionary(try await actions.actions(fromSeconds: report.fromSeconds).map { ($0.key, $0) }) { _, last in last }
        } catch {
            logger.error("rollout action not taken: its record could not be read", metadata: ["error": "\(error)"])
            return []
        }
        var news: [RolloutAction] = []
        for control in controls where stores.contains(control.store) {
            var action = RolloutAction(
                store: control.store, app: report.app ?? "", candidate: report.candidate, releaseStartSeconds: report.fromSeconds,
                verdict: report.verdict.rawValue, isDryRun: dryRun, outcome: .failed, status: 0, detail: "", step: Self.step(of: report),
                timeSeconds: time, attempts: 1)
            let previous = kept[action.key]
            if let previous, previous.outcome.isSettled { continue }
            (action.outcome, action.status, action.detail) = await attempt(control, report: report, releases: releases, previous: previous)
            action.attempts += previous?.attempts ?? 0
            audit(action)
            record(action)
            do {
                try await actions.record(action)
            } catch {
                logger.error("rollout action not stored: it may be tried again", metadata: ["error": "\(error)"])
            }
            if action.outcome != previous?.outcome { news.append(action) }
        }
        return news
    }

    /// One attempt on one store: left alone when the store's releases say the candidate is not in
    /// release; read only in a dry run, or live while no person has confirmed; else paused, with the
    /// evidence and the confirmation in the detail.
    private func attempt(
        _ control: any StoreReleaseControl, report: RolloutReport, releases: StoreReleases, previous: RolloutAction?
    ) async -> (RolloutAction.Outcome, Int, String) {
        if let inRelease = releases.read[control.store], !inRelease.contains(where: { $0.isRelease(of: report.candidate) }) {
            let names = inRelease.map(\.name)
            return (
                .notInPhasedRelease, 0,
                "\(control.store.displayName) has no release of \(report.candidate) in progress "
                    + "(in progress: \(names.isEmpty ? "none" : names.joined(separator: ", ")))"
            )
        }
        if dryRun { return await control.pause(version: report.candidate, dryRun: true) }
        let confirmation = previous.flatMap { $0.outcome == .confirmed ? $0.detail : nil }
        // A bulk of late events is never acted on alone, whatever the setting: a person looks first.
        if requiresConfirmation || report.arrivals?.isBulk == true, confirmation == nil {
            let read = await control.pause(version: report.candidate, dryRun: true)
            guard read.outcome == .wouldPause else { return read }
            return (.awaitingConfirmation, read.status, "\(read.detail); \(Self.evidence(report))")
        }
        let done = await control.pause(version: report.candidate, dryRun: false)
        return (done.outcome, done.status, "\(done.detail); \(Self.evidence(report)); \(confirmation ?? "automatic (rolloutConfirm none)")")
    }

    /// The step the release is at, for the action's record: as the store reports it (or by Apple's
    /// schedule), else as the events' share suggests.
    static func step(of report: RolloutReport) -> Int? {
        report.position?.percent.map { Int($0.rounded()) } ?? report.progress?.step
    }

    /// What the action rests on, for its record: the verdict, the compared range, and the first regression
    /// with both sides' counts.
    static func evidence(_ report: RolloutReport) -> String {
        var text =
            "evidence: the \(report.verdict.rawValue) verdict on \(report.candidate) against \(report.baseline) from "
            + "\(RFC3339.format(seconds: report.fromSeconds)) to \(RFC3339.format(seconds: report.toSeconds))"
        if let regression = report.comparisons.first(where: \.isRegression) {
            let slice = regression.slice.slice.map { " \($0.dimension.rawValue) \($0.value ?? "none")" } ?? ""
            text +=
                ", \(regression.metric.rawValue) of \(regression.slice.actionType)\(slice): \(regression.candidate.count) of "
                + "\(regression.candidate.trials) on the candidate against \(regression.baseline.count) of \(regression.baseline.trials)"
        }
        if let arrivals = report.arrivals, arrivals.late > 0 {
            text +=
                "; \(arrivals.late) of the candidate's \(arrivals.events) events arrived an hour or more after their time"
                + (arrivals.isBulk ? " (a bulk: never acted on without a person)" : "")
        }
        return text + " (events sent with the ingest key)"
    }

    /// The audit log's line: what was done, to which release, on what evidence, and what the store answered.
    private func audit(_ action: RolloutAction) {
        let metadata: Logger.Metadata = [
            "id": "\(action.id)", "store": "\(action.store.rawValue)", "candidate": "\(action.candidate)", "verdict": "\(action.verdict)",
            "mode": "\(action.isDryRun ? "dry-run" : "live")", "outcome": "\(action.outcome.rawValue)", "status": "\(action.status)",
            "detail": "\(action.detail)", "attempts": "\(action.attempts)", "app": "\(action.app)",
        ]
        if action.outcome == .failed || action.outcome == .refused {
            logger.error("rollout action", metadata: metadata)
        } else {
            logger.notice("rollout action", metadata: metadata)
        }
    }
}

/// What the configured stores say they have in release, by store: only the stores that answered.
public struct StoreReleases: Sendable {
    /// Each store that answered, with its releases in progress or paused.
    public var read: [Store: [StoreRelease]] = [:]

    /// The releases of the stores in `read`.
    public init(read: [Store: [StoreRelease]] = [:]) {
        self.read = read
    }

    /// Every release read.
    public var all: [StoreRelease] { read.values.flatMap { $0 } }
}

extension RolloutReport {
    /// Of `actions`, what was done to the stores' releases of this report's release of its candidate (its
    /// app's) by its evaluation time, in their order.
    public func own(_ actions: [RolloutAction]) -> [RolloutAction] {
        actions.filter {
            $0.candidate == candidate && $0.releaseStartSeconds == fromSeconds && $0.app == (app ?? "") && $0.timeSeconds <= toSeconds
        }
    }
}

extension AlertContext {
    /// What was done to the stores' releases of `report`'s release of its candidate (the app's), oldest first.
    public func rolloutActions(of report: RolloutReport) async throws -> [RolloutAction] {
        try await RolloutActionRepository(store.sql, app: app).actions(of: report)
    }
}

extension RolloutActionRepository {
    /// What was done to the stores' releases of `report`'s release of its candidate (its app's) by the
    /// report's evaluation time, oldest first.
    public func actions(of report: RolloutReport) async throws -> [RolloutAction] {
        report.own(try await actions(fromSeconds: report.fromSeconds))
    }
}
