public import Logging
public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

/// Acts on rollout verdicts: when a candidate's verdict is one the policy pauses on (`rollout.pauseOn`,
/// rollback by default), pauses its App Store phased release and halts its Play staged rollout through
/// the stores' APIs, or with `dryRun` (serve's default) only reads their state and says what it would do.
///
/// Safe by construction: it only ever pauses; each store's release is acted on once per release,
/// verdict and mode (what was done is stored, so a restart or the next leader does not act again; a
/// failure is tried again at the next check); every attempt goes to the audit log (`rollout action`, at
/// notice) and to `record` (the metrics).
public struct RolloutActuator: Sendable {
    /// The stores' release controls configured.
    public let controls: [any StoreReleaseControl]
    /// Whether it only reads and says what it would do.
    public let dryRun: Bool
    private let store: any StoreRecordStore
    private let logger: Logger
    private let record: @Sendable (RolloutAction) -> Void

    /// Creates an actuator.
    /// - Parameter record: told of every attempt (the metrics).
    public init(
        controls: [any StoreReleaseControl], dryRun: Bool, store: any StoreRecordStore, logger: Logger,
        record: @escaping @Sendable (RolloutAction) -> Void = { _ in }
    ) {
        self.controls = controls
        self.dryRun = dryRun
        self.store = store
        self.logger = logger
        self.record = record
    }

    /// The stores that release an app on `platforms` (events' platform names; none known: every store).
    public static func stores(releasing platforms: [String]) -> Set<Store> {
        guard !platforms.isEmpty else { return Set(Store.allCases) }
        var stores: Set<Store> = []
        for platform in platforms {
            if AppleReleasePlatforms.names.contains(platform.lowercased()) { stores.insert(.apple) }
            if platform.lowercased() == "android" { stores.insert(.google) }
        }
        return stores
    }

    /// Acts on `report` at `time` (seconds) when its verdict is among `verdicts`: for each configured store
    /// releasing the candidate that has no settled action for this release, verdict and mode yet. Returns
    /// the actions whose outcome is news (not the same as last time).
    public func act(on report: RolloutReport, verdicts: Set<RolloutReport.Verdict>, at time: Int64) async -> [RolloutAction] {
        guard verdicts.contains(report.verdict) else { return [] }
        let stores = Self.stores(releasing: report.platforms)
        let kept: [String: RolloutAction]
        do {
            let store = self.store
            let start = report.fromSeconds
            kept = Dictionary(try await runBlocking { try store.rolloutActions(fromSeconds: start) }.map { ($0.key, $0) }) { _, last in last }
        } catch {
            logger.error("rollout action not taken: its record could not be read", metadata: ["error": "\(error)"])
            return []
        }
        var news: [RolloutAction] = []
        for control in controls where stores.contains(control.store) {
            var action = RolloutAction(
                store: control.store, app: report.app ?? "", candidate: report.candidate, releaseStartSeconds: report.fromSeconds,
                verdict: report.verdict.rawValue, isDryRun: dryRun, outcome: .failed, status: 0, detail: "", step: report.progress?.step,
                timeSeconds: time, attempts: 1)
            let previous = kept[action.key]
            if let previous, previous.outcome.isSettled { continue }
            (action.outcome, action.status, action.detail) = await control.pause(version: report.candidate, dryRun: dryRun)
            action.attempts += previous?.attempts ?? 0
            audit(action)
            record(action)
            do {
                let store = self.store
                try await runBlocking { [action] in try store.record(action) }
            } catch {
                logger.error("rollout action not stored: it may be tried again", metadata: ["error": "\(error)"])
            }
            if action.outcome != previous?.outcome { news.append(action) }
        }
        return news
    }

    /// The audit log's line: what was done, to which release, and what the store answered.
    private func audit(_ action: RolloutAction) {
        let metadata: Logger.Metadata = [
            "store": "\(action.store.rawValue)", "candidate": "\(action.candidate)", "verdict": "\(action.verdict)",
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

/// The platform names (lower case) of apps the App Store releases.
enum AppleReleasePlatforms {
    static let names: Set<String> = ["ios", "ipados", "macos", "tvos", "visionos", "watchos"]
}

extension StoreRecordStore {
    /// What was done to the stores' releases of `report`'s release of its candidate (its app's) by the
    /// report's evaluation time, oldest first.
    public func rolloutActions(of report: RolloutReport) throws -> [RolloutAction] {
        try rolloutActions(fromSeconds: report.fromSeconds).filter {
            $0.candidate == report.candidate && $0.releaseStartSeconds == report.fromSeconds && $0.app == (report.app ?? "")
                && $0.timeSeconds <= report.toSeconds
        }
    }
}
