public import PurchaseSLICore

/// What `rollout` concludes about a candidate app version.
public struct RolloutReport: Sendable {
    /// What to do with the phased release.
    public enum Verdict: String, Sendable, Hashable {
        /// Nothing is worse and enough was seen to rule out a material drop: take the next step.
        case proceed
        /// A 409 or cancel rate is significantly worse: pause the phased release and investigate.
        case hold
        /// The success or unfinished rate is significantly worse: purchases are lost; roll back.
        case rollback
        /// Not yet enough events to rule out a material drop of the purchase flow: keep the current step.
        case insufficientData = "insufficient-data"
        /// The newest event is older than the rollout rule's `staleAfter`: the data says nothing of the
        /// present, so no verdict is given.
        case stale
        /// The candidate has sent no events (or too few to count as present) for a day or more: no release
        /// of it is live, so there is nothing to act on.
        case gone
    }

    /// The candidate app version.
    public var candidate: String
    /// The baseline app version.
    public var baseline: String
    /// Start of the compared range, in seconds since the epoch.
    public var fromSeconds: Int64
    /// End of the compared range.
    public var toSeconds: Int64
    /// The verdict.
    public var verdict: Verdict
    /// Why, each naming the metric and slice: the regressions, or what was ruled out and what not yet.
    public var reasons: [Reason]
    /// Every comparison, regressions first, then by action, slice and metric.
    public var comparisons: [RolloutComparison]
    /// Where the phased release appears to be, when the candidate's share of its platforms is known.
    public var progress: Progress?
    /// The verdict at the end of each hour of the range, oldest first: what checking every hour said.
    public var checks: [RolloutCheck] = []
    /// On a rollback or hold, the candidate's feature-flag variant that fares worst on the first
    /// regression's metric and action: the flag to turn off.
    public var suspectVariant: VariantRate?
    /// The app compared (one app's view of a store several apps write to), or nil for every app.
    public var app: String?
    /// The platforms the candidate has events on, sorted: which stores release it.
    public var platforms: [String] = []
    /// The candidate's releases as the stores set up reported them at the evaluation (none when no store is
    /// set up, or it could not be read).
    public var storeReleases: [StoreRelease] = []
    /// What `serve` did to the stores' releases of this release of the candidate, oldest first.
    public var actions: [RolloutAction] = []
    /// The kept records of the incidents whose alerts named the candidate version, by start: what the
    /// regression cost, the one figure the alerts, the incident report and the weekly review show too.
    public var incidents: [IncidentRecord] = []
    /// How the candidate's events over the compared range arrived, when read (`serve`'s checks): a bulk of
    /// late ones (``PurchaseSLICore/LateArrival/isBulk(late:of:)``) is not acted on without a person.
    public var arrivals: Arrivals?

    /// The candidate's events over the compared range, and those of them that arrived through the HTTP API
    /// an hour or more after their time (``PurchaseSLICore/LateArrival``).
    public struct Arrivals: Sendable, Hashable {
        /// The candidate's events counted over the range.
        public var events: Int64
        /// Those that arrived late.
        public var late: Int64

        /// Creates the arrivals.
        public init(events: Int64, late: Int64) {
            self.events = events
            self.late = late
        }

        /// Whether the late ones are a bulk arrival: a backlog replayed, or events written after the fact.
        public var isBulk: Bool { LateArrival.isBulk(late: late, of: events) }
    }

    /// Creates a report.
    public init(
        candidate: String, baseline: String, fromSeconds: Int64, toSeconds: Int64, verdict: Verdict, reasons: [Reason],
        comparisons: [RolloutComparison], progress: Progress? = nil, checks: [RolloutCheck] = []
    ) {
        self.candidate = candidate
        self.baseline = baseline
        self.fromSeconds = fromSeconds
        self.toSeconds = toSeconds
        self.verdict = verdict
        self.reasons = reasons
        self.comparisons = comparisons
        self.progress = progress
        self.checks = checks
    }
}

/// One feature-flag variant's rate of a metric on the candidate, against the candidate's other variants.
public struct VariantRate: Sendable, Hashable {
    /// The variant.
    public var variant: String
    /// The metric.
    public var metric: RateMetric
    /// The action.
    public var actionType: String
    /// The variant's rate.
    public var rate: Double
    /// Its trials.
    public var trials: Int64
    /// The rate of the candidate's other variants together, nil when it has no other.
    public var othersRate: Double?
    /// The other variants' trials.
    public var othersTrials: Int64
    /// Whether it is significantly worse than the other variants together (one-sided Fisher exact test,
    /// p < 0.01); false when it has no other.
    public var isSignificantlyWorse: Bool

    /// Creates a variant's rate.
    public init(
        variant: String, metric: RateMetric, actionType: String, rate: Double, trials: Int64, othersRate: Double?, othersTrials: Int64,
        isSignificantlyWorse: Bool
    ) {
        self.variant = variant
        self.metric = metric
        self.actionType = actionType
        self.rate = rate
        self.trials = trials
        self.othersRate = othersRate
        self.othersTrials = othersTrials
        self.isSignificantlyWorse = isSignificantlyWorse
    }
}

extension RolloutReport {
    /// Where the phased release appears to be at the evaluation time.
    public struct Progress: Sendable, Hashable {
        /// The step (percent) its events' share appears to have reached, nil before the candidate has events:
        /// the users exposed, those who update by hand included, which sets the confidence asked before the
        /// next step. What the store's schedule says is ``RolloutReport/position``.
        public var step: Int?
        /// The step a proceed verdict clears it for, nil once at 100 %.
        public var nextStep: Int?
        /// The candidate's share of its platforms' events over the last day.
        public var share: Double?
        /// The day of the release (1 during its first 24 hours).
        public var day: Int
        /// Where the comparison starts: the release's first hour, or `--since`.
        public var startSeconds: Int64
        /// An earlier release of the same version left out of the comparison.
        public var earlierRelease: Range<Int64>?
        /// The confidence with which a drop must be ruled out before the next step.
        public var confidence: Double
        /// The release's first hour (the day count starts there).
        public var releaseStartSeconds: Int64?
        /// Whether the App Store releases the candidate (its events' platforms are Apple's only), so that
        /// Apple's 7-day schedule applies.
        public var followsAppleSchedule = false

        /// Creates a progress record.
        public init(
            step: Int?, nextStep: Int?, share: Double?, day: Int, startSeconds: Int64, earlierRelease: Range<Int64>?, confidence: Double
        ) {
            self.step = step
            self.nextStep = nextStep
            self.share = share
            self.day = day
            self.startSeconds = startSeconds
            self.earlierRelease = earlierRelease
            self.confidence = confidence
        }
    }

    /// One reason for a verdict; rendering turns it into text.
    public enum Reason: Sendable, Hashable {
        /// A metric of a slice is significantly and materially worse on the candidate.
        case regression(RolloutComparison)
        /// The success rate of an action has been seen enough to rule out a drop of more than `allowed`
        /// (`largestDrop`: the largest still possible, when computed) with the step's confidence.
        case ruledOut(RolloutComparison, largestDrop: Double?, allowed: Double, confidence: Double)
        /// An action's success rate cannot yet rule out a drop of more than `allowed`; about `moreTrials`
        /// more candidate events would settle it if it goes on like the baseline, which at the current
        /// rate arrive by `expectedBySeconds`. `blocking` when the action carries the purchase flow.
        case notYetConclusive(
            RolloutComparison, allowed: Double, moreTrials: Int64?, expectedBySeconds: Int64?, blocking: Bool)
        /// The baseline has too few events of the actions that carry the purchase flow to compare with.
        case noTraffic
        /// No event arrived for this long before the evaluation time (nil: none at all).
        case staleData(newestEventSeconds: Int64?, ageSeconds: Int64?)
        /// The candidate was last present in the hour ending at `lastSeenSeconds`; `lastVerdict` is what the
        /// hourly check said then, while it was live.
        indirect case candidateGone(lastSeenSeconds: Int64, lastVerdict: RolloutCheck?)
    }
}

extension RolloutReport {
    /// Where the release stands, as best known: what a store said of it (when one is set up and was read),
    /// else Apple's schedule by its day (an App Store release), else nothing but the events' share.
    public struct Position: Sendable, Hashable {
        /// Where the figure comes from.
        public enum Source: Sendable, Hashable {
            /// App Store Connect's phased release, on its day.
            case appStoreConnect(day: Int)
            /// The Play Console's staged rollout.
            case playConsole
            /// Apple's schedule for the release's day, counted from its first events (unpaused).
            case appleSchedule(day: Int)
        }

        /// Where the figure comes from.
        public var source: Source
        /// The share of users it reaches, in percent; nil when the store did not say.
        public var percent: Double?
        /// The next step of an App Store release (nil at 100 %, or for Play, whose steps a person sets).
        public var nextPercent: Int?
        /// Whether the store says it is paused (App Store) or halted (Play).
        public var isPaused: Bool
        /// The days of Apple's 30-day pause limit left, for a paused App Store release whose pauses the store
        /// counted.
        public var pauseDaysLeft: Int?
        /// When it reaches every automatic-update user (the start of Apple's day 7), for an App Store release
        /// still advancing and not there yet; nil otherwise.
        public var reachesEveryoneSeconds: Int64?

        /// Whether it reaches everyone the store gives it to: 100 %.
        public var isComplete: Bool { (percent ?? 0) >= 100 }
    }

    /// The candidate's releases as the stores set up said at the evaluation (an App Store phased release, a
    /// Play staged rollout), and so ``position``.
    public var position: Position? {
        if let release = storeReleases.first(where: { $0.store == .apple && $0.dayNumber != nil }), let day = release.dayNumber {
            let step = StoreRelease.appleStep(onDay: day)
            return Position(
                source: .appStoreConnect(day: day), percent: Double(step), nextPercent: PhasedRelease.nextStep(after: step),
                isPaused: release.isPaused,
                pauseDaysLeft: release.isPaused ? release.pausedDays.map { max(0, StoreRelease.applePauseLimitDays - $0) } : nil,
                // Apple's day 7 is the whole: it begins within 7 − day days.
                reachesEveryoneSeconds: release.isPaused || day >= 7 ? nil : toSeconds + Int64(7 - day) * .secondsPerDay)
        }
        if let release = storeReleases.first(where: { $0.store == .google }) {
            return Position(
                source: .playConsole, percent: release.percent, nextPercent: nil, isPaused: release.isPaused, pauseDaysLeft: nil,
                reachesEveryoneSeconds: nil)
        }
        guard let progress, progress.followsAppleSchedule, let start = progress.releaseStartSeconds else { return nil }
        let step = StoreRelease.appleStep(onDay: progress.day)
        let everyone = start + 6 * .secondsPerDay
        return Position(
            source: .appleSchedule(day: progress.day), percent: Double(step), nextPercent: PhasedRelease.nextStep(after: step),
            isPaused: false, pauseDaysLeft: nil, reachesEveryoneSeconds: everyone > toSeconds ? everyone : nil)
    }
}

/// What the rollout rule said at one hourly check of a release.
public struct RolloutCheck: Sendable, Hashable {
    /// The end of the hour checked (only events before it count).
    public var timeSeconds: Int64
    /// The step the release appeared to be at.
    public var step: Int?
    /// The verdict.
    public var verdict: RolloutReport.Verdict
    /// The reason that decided it: the first regression, or the purchase flow's ruling out.
    public var reason: RolloutReport.Reason?

    /// Creates a check.
    public init(timeSeconds: Int64, step: Int?, verdict: RolloutReport.Verdict, reason: RolloutReport.Reason?) {
        self.timeSeconds = timeSeconds
        self.step = step
        self.verdict = verdict
        self.reason = reason
    }
}
