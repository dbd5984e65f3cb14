/// What `serve` did to a store's release of a candidate app version when a rollout verdict asked for it:
/// one per store, app, release, verdict and mode (a dry run is kept apart from acting), the latest
/// attempt's.
public struct RolloutAction: Sendable, Hashable {
    /// How it ended.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The App Store phased release was paused, or the Play staged rollout halted.
        case paused
        /// A dry run: the release was found in progress and would have been paused.
        case wouldPause = "would-pause"
        /// It was paused or halted already: left alone.
        case alreadyPaused = "already-paused"
        /// The version is not in a phased release or staged rollout the store can pause (not found,
        /// released to everyone, or not started): left alone.
        case notInPhasedRelease = "not-in-phased-release"
        /// The store refused the request for good (a 4xx such as 403 or 409): a person must act.
        case refused
        /// No answer, a 5xx, or 429 through every retry: tried again at the next check.
        case failed
        /// Live, the release found in progress and the verdict asking for it, but a person has not confirmed
        /// yet (`rolloutConfirm` required, the default): nothing was changed; `rollout confirm ID` lets the
        /// next check act.
        case awaitingConfirmation = "awaiting-confirmation"
        /// A person confirmed an action that was awaiting confirmation (the detail says who and when): the
        /// next check acts.
        case confirmed

        /// Whether it is settled: everything but `failed` (tried again) and `confirmed` (acted on next).
        public var isSettled: Bool { self != .failed && self != .confirmed }
    }

    /// The store whose release it concerns.
    public var store: Store
    /// The app (one app's view of a shared database), empty for every app.
    public var app: String
    /// The candidate app version and the start of its release (seconds): a re-release acts anew.
    public var candidate: String
    public var releaseStartSeconds: Int64
    /// The verdict that asked for it (`rollback` or `hold`).
    public var verdict: String
    /// Whether it was a dry run (read the state, changed nothing).
    public var isDryRun: Bool
    /// How it ended, the last HTTP status (0: none), and what was done or what the store answered.
    public var outcome: Outcome
    public var status: Int
    public var detail: String
    /// The step the release appeared to be at, when known.
    public var step: Int?
    /// When it was last tried (seconds), and how many times so far.
    public var timeSeconds: Int64
    public var attempts: Int

    /// Creates an action record.
    public init(
        store: Store, app: String, candidate: String, releaseStartSeconds: Int64, verdict: String, isDryRun: Bool, outcome: Outcome,
        status: Int, detail: String, step: Int?, timeSeconds: Int64, attempts: Int
    ) {
        self.store = store
        self.app = app
        self.candidate = candidate
        self.releaseStartSeconds = releaseStartSeconds
        self.verdict = verdict
        self.isDryRun = isDryRun
        self.outcome = outcome
        self.status = status
        self.detail = detail
        self.step = step
        self.timeSeconds = timeSeconds
        self.attempts = attempts
    }

    /// What identifies it: one action per store, app, release, verdict and mode.
    public var key: String {
        "\(store.rawValue) \(app) \(candidate) \(releaseStartSeconds) \(verdict) \(isDryRun)"
    }

    /// A short name of ``key`` that a person types (`rollout confirm 3fa2c19b07d1`): 12 hexadecimal digits
    /// of its stable hash, the same on every node and run.
    public var id: String {
        let hash = UInt64(bitPattern: EventIDHash.hash(key, prefix: "rollout-action "))
        let digits = String(hash, radix: 16)
        return String((String(repeating: "0", count: 16 - digits.count) + digits).prefix(12))
    }
}

/// A store's control over a release in progress: the App Store Connect API's phased release, or the
/// Android Publisher API's staged rollout. It only ever pauses (never resumes or releases further).
public protocol StoreReleaseControl: Sendable {
    /// The store it controls.
    var store: Store { get }
    /// The releases the store has in progress or paused (an App Store phased release `ACTIVE` or `PAUSED`, a
    /// Play release `inProgress` or `halted` on the track), as the store itself says: what a rollout
    /// candidate is taken from when a store is set up, since events are the app users' to forge.
    /// - Throws: ``StoreReleaseReadError`` when the store could not be asked or did not answer.
    func releasesInProgress() async throws(StoreReleaseReadError) -> [StoreRelease]
    /// Pauses the release of `version` (with `dryRun`, only reads its state and says what it would do).
    /// Never throws: every failure is an outcome with the HTTP status and the store's answer.
    func pause(version: String, dryRun: Bool) async -> (outcome: RolloutAction.Outcome, status: Int, detail: String)
}
