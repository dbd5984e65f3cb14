public import PurchaseSLICore

/// What good looks like and when to page: success-rate objectives per action, the multi-window burn-rate
/// rules, the slices to evaluate, and the limits that keep low traffic quiet. Alert policy is data; see
/// `dashboards/slos.yaml` for the documented defaults.
public struct SLOPolicy: Sendable, Hashable {
    /// A success-rate objective for one action over a window.
    public struct Objective: Sendable, Hashable {
        /// The action it applies to (`purchase`, `restore`, `retry`, or an app's own).
        public var actionType: String
        /// The success-rate target as a fraction, e.g. 0.99.
        public var target: Double
        /// The window over which the objective (and the error budget) is measured.
        public var window: SLOWindow
        /// Who answers its alerts (a team), labelled `team` in Alertmanager and named in the text.
        public var owner: String?
        /// Where the runbook of its alerts is (an http or https URL): `runbook_url` in Alertmanager.
        public var runbookURL: String?
        /// What each valid event counts for: one, or its product's price (``ObjectiveWeight``).
        public var weight: ObjectiveWeight = .events

        /// Creates an objective.
        public init(actionType: String, target: Double, window: SLOWindow, owner: String? = nil, runbookURL: String? = nil) {
            self.actionType = actionType
            self.target = target
            self.window = window
            self.owner = owner
            self.runbookURL = runbookURL
        }

        /// The error budget as a fraction of valid events: 1 − target.
        public var errorBudget: Double { 1 - target }

        /// The share of the error budget that `counts` spent: failures / (budget × valid events); 1 is the
        /// whole budget. Nil without valid events.
        public func budgetSpent(_ counts: OutcomeCounts) -> Double? {
            counts.valid > 0 ? Double(counts.failure) / (errorBudget * Double(counts.valid)) : nil
        }

        /// The burn rate of `counts`: their error rate / the error budget (1 spends the budget exactly over
        /// the window). Nil without valid events.
        public func burnRate(_ counts: OutcomeCounts) -> Double? {
            guard let successRate = counts.successRate, errorBudget > 0 else { return nil }
            return (1 - successRate) / errorBudget
        }
    }

    /// A multi-window burn-rate rule: fires while the burn rate over both windows exceeds the threshold
    /// that spends `budgetShare` of the SLO window's error budget within the long window.
    public struct BurnRateRule: Sendable, Hashable {
        /// How urgent a firing rule is.
        public var severity: Severity
        /// The long window, in seconds (how much budget is at stake).
        public var longWindowSeconds: Int64
        /// The short window, in seconds (is it still happening?).
        public var shortWindowSeconds: Int64
        /// The share of the SLO window's error budget that burning at the threshold spends over the long
        /// window (Google's tiers: 2 % in 1 h, 5 % in 6 h, 10 % in 1 d, 10 % in 3 d).
        public var budgetShare: Double
        /// Whether the rule is the fast exact test (``SLOPolicy/fastBurn``): one window, whose failures
        /// must exceed the threshold's error rate beyond chance rather than the threshold itself.
        public var isExactTest: Bool

        /// Creates a rule.
        public init(
            severity: Severity, longWindowSeconds: Int64, shortWindowSeconds: Int64, budgetShare: Double, isExactTest: Bool = false
        ) {
            self.severity = severity
            self.longWindowSeconds = longWindowSeconds
            self.shortWindowSeconds = shortWindowSeconds
            self.budgetShare = budgetShare
            self.isExactTest = isExactTest
        }

        /// The burn-rate threshold for `objective` at `time`: budget share × SLO window / long window. 2 % in
        /// 1 h is 14.4 for a 30-day window and 13.44 for 28 days; a calendar month counts its own days.
        public func burnRate(for objective: Objective, at time: Int64) -> Double {
            budgetShare * Double(objective.window.period(at: time).lengthSeconds) / Double(longWindowSeconds)
        }
    }

    /// The fast page for a hard outage: the exact one-sided binomial test of the last `windowSeconds`
    /// against the error rate of the fastest page rule's threshold (below `burnSignificance`), with the
    /// usual minimum events and failures. Half the attempts failing at 20 a minute pages within 3 minutes,
    /// where the 1 h window needs 16 to average 13.44×.
    public struct FastBurnRule: Sendable, Hashable {
        /// The window tested, in seconds.
        public var windowSeconds: Int64 = 180

        /// Creates the rule.
        public init(windowSeconds: Int64 = 180) {
            self.windowSeconds = windowSeconds
        }
    }

    /// The objectives, one per action.
    public var objectives: [Objective]
    /// The burn-rate rules (Google SRE Workbook, multi-window multi-burn-rate).
    public var rules: [BurnRateRule]
    /// The fast exact test that pages a hard outage within minutes, or nil for none.
    public var fastBurn: FastBurnRule? = FastBurnRule()
    /// A page stops once this many seconds before the evaluation hold at least `minimumValidEvents` valid
    /// events, a burn rate of at most 1 (the objective met again) and, beyond chance, a failure rate under
    /// the fastest page threshold, even while a rule's short window still holds the incident: keepFiringFor
    /// holds an alert while an incident goes on, not after it.
    public var recoveryWindowSeconds: Int64 = 15 * .secondsPerMinute
    /// Dimensions whose values are evaluated as slices of each action.
    public var slices: [EventDimension]
    /// Fewest valid events a window needs before its burn rate counts (low traffic must not page).
    public var minimumValidEvents: Int
    /// Fewest failures each window of a rule needs to fire (a stray failure among few events is noise).
    public var minimumFailures: Int
    /// A burn rule also needs its long window's failures to be more than the error budget allows beyond
    /// chance: the exact one-sided binomial test of the failures against the budget's error rate must be
    /// below this level. An action that normally spends most of its budget, with few events, then does not
    /// alert each time its 3-day error rate drifts a little over the objective. A slice's excess over the
    /// rest of its action is tested at the same level.
    public var burnSignificance = 0.001
    /// A slice alerts only when its error rate is at least this many times that of the rest of its action
    /// (an outage that hits every product alike is one alert for the action, not one per product).
    public var sliceMinimumRatio: Double = 2
    /// A burn or spike alert keeps firing until its rule has been quiet this long, in seconds, so that a
    /// rate hovering at a threshold is one alert rather than many (Prometheus' `keep_firing_for`); a page
    /// whose action has recovered (`recoveryWindowSeconds`) stops sooner.
    public var keepFiringForSeconds: Int64 = 30 * .secondsPerMinute
    /// How 409 and cancel spikes are tested.
    public var spikes = SpikeRule()
    /// How `rollout` compares a candidate app version with its baseline.
    public var rollout = RolloutRule()
    /// How store charges are reconciled with grants, and when that pages (``ReconciliationRule``).
    public var reconciliation = ReconciliationRule()
    /// The currency revenue-weighted objectives count in (ISO 4217), or nil: the one currency the
    /// products are priced in.
    public var reportingCurrency: String?
    /// Units of ``reportingCurrency`` one unit of each other currency is worth, for revenue-weighted
    /// objectives: a product priced in a currency without a rate counts for nothing there (never an
    /// unconverted amount).
    public var exchangeRates: [String: Double] = [:]
    /// Planned work whose minutes are left out of error budgets and burn-rate alerts (``MaintenanceWindow``):
    /// the policy's own (`maintenance:`); `purchase-sli maintenance add` stores more.
    public var maintenance: [MaintenanceWindow] = []
    /// The time zone pages, text and the weekly review are written in (an IANA name such as `Europe/Berlin`,
    /// or `UTC`, or a fixed offset such as `+05:30`), or nil: UTC. `--time-zone` overrides it; JSON stays UTC,
    /// and so do alert evaluation and calendar-month budgets.
    public var timeZone: String?

    /// What each valid event of an objective counts for.
    public enum ObjectiveWeight: String, Sendable, Hashable, CaseIterable {
        /// Every event alike: the error budget is a share of the events.
        case events
        /// Each event at its product's (and plan's) latest price: the error budget is the share of the
        /// window's purchase revenue that failures may cost.
        case revenue
    }

    /// The test behind AlreadyGrantedSpike and CancelRateSpike: a rate over `windowSeconds` against its
    /// baseline, with an exact one-sided test, a minimum ratio and a minimum count.
    public struct SpikeRule: Sendable, Hashable {
        /// The window tested, in seconds.
        public var windowSeconds: Int64 = .secondsPerHour
        /// How many previous days' same window make the baseline.
        public var baselineDays = 3
        /// The rate must be at least this many times that of each baseline window (each previous day).
        public var minimumRatio = 2.0
        /// At least this many 409s (or cancels) in the window.
        public var minimumCount = 10
        /// The significance level, divided by the number of tests made at once: every action, its app
        /// versions and products, both kinds (Bonferroni).
        public var significance = 0.001
        /// How urgent a spike is.
        public var severity = Severity.ticket
        /// An attempt (`start`) counts as unfinished when no terminal event follows within this long, in
        /// seconds: UnfinishedPurchases tests the window that ended this long ago.
        public var unfinishedAfterSeconds: Int64 = 600
        /// UnfinishedPurchases also needs at least this share of the window's attempts unfinished: starts
        /// and terminal events of an attempt can fall on either side of a window's edge, so a small
        /// difference between the two counts is noise, not money taken without a grant.
        public var unfinishedMinimumShare = 0.01
    }
    /// The tests behind `rollout` verdicts: every metric and slice of the candidate against the baseline.
    public struct RolloutRule: Sendable, Hashable {
        /// Fewest events each side of a comparison needs before it is tested.
        public var minimumSamples = 100
        /// The significance level after Holm's correction for the number of comparisons tested.
        public var significance = 0.01
        /// Smallest change of a rate, as a fraction (0.005 = half a percentage point), that counts as a
        /// regression when it is significant.
        public var minimumEffect = 0.005
        /// `proceed` needs a drop of the success rate of `actions` larger than this fraction ruled out.
        public var maximumRegression = 0.01
        /// The actions that carry the purchase flow: `proceed` waits until each has ruled out a material
        /// drop. The other actions with an objective are reported but do not hold the release back
        /// unless significantly worse.
        public var actions = ["purchase"]
        /// On data whose newest event is at least this old, no verdict (seconds).
        public var staleAfterSeconds: Int64 = 3 * .secondsPerHour
        /// The confidence with which a drop must be ruled out before the phased release takes each step
        /// (percent of users → confidence): more evidence before 20 → 50 % than before 1 → 2 %.
        public var confidenceBeforeStep: [Int: Double] = [2: 0.8, 5: 0.9, 10: 0.95, 20: 0.95, 50: 0.99, 100: 0.99]
        /// The confidence asked when the step is not known (no platform share) or the release is at 100 %.
        public var defaultConfidence = 0.95
        /// The verdicts on which `serve` pauses the App Store phased release and halts the Play staged
        /// rollout, when it is set up to act (rollback by default; hold may be added).
        public var pauseOn: Set<RolloutReport.Verdict> = [.rollback]

        /// The confidence asked before taking `step` (nil: step unknown or none left).
        public func confidence(beforeStep step: Int?) -> Double {
            step.flatMap { confidenceBeforeStep[$0] } ?? defaultConfidence
        }
    }
    /// Per app (its value of the `app` dimension), the store's caps of its own (`apps:`): what the commands
    /// that write events hand the store (``PurchaseSLICore/StoreConfiguration/appCaps``).
    public var appCaps: [String: AppCaps] = [:]
    /// Per app, the objectives it is judged on apart (`apps.<id>.objectives`), each replacing the policy's
    /// objective of its action when that app is judged alone (``judging(app:)``).
    public var appObjectives: [String: [Objective]] = [:]
    /// The objectives of every app together, kept by a policy judging one app (``judging(app:)``) so
    /// that judging it for another starts from them, not from the first app's.
    var everyAppObjectives: [Objective]?
    /// The window over which a stop of an action's events is noticed, in seconds.
    public var lossOfSignalWindowSeconds: Int64
    /// Fewest events the same window a day earlier must have held for a stop to alert.
    public var lossOfSignalMinimumExpected: Int

    /// Creates a policy.
    public init(
        objectives: [Objective], rules: [BurnRateRule], slices: [EventDimension], minimumValidEvents: Int,
        minimumFailures: Int, lossOfSignalWindowSeconds: Int64, lossOfSignalMinimumExpected: Int
    ) {
        self.objectives = objectives
        self.rules = rules
        self.slices = slices
        self.minimumValidEvents = minimumValidEvents
        self.minimumFailures = minimumFailures
        self.lossOfSignalWindowSeconds = lossOfSignalWindowSeconds
        self.lossOfSignalMinimumExpected = lossOfSignalMinimumExpected
    }

    /// The defaults: purchase and restore 99.0 %, retry 95.0 % over 28 days; page when 2 % of the budget
    /// burns in 1 h (and 5 min: 13.44×) or 5 % in 6 h (and 30 min: 5.6×), or the last 3 minutes exceed
    /// 13.44× beyond chance; ticket when 10 % burns in 1 d (and 2 h: 2.8×) or in 3 d (and 6 h: 0.93×); 20
    /// valid events and 5 failures per window; slices alert at twice the error rate of the rest of their
    /// action.
    public static let `default` = SLOPolicy(
        objectives: [
            Objective(actionType: "purchase", target: 0.99, window: .rolling(seconds: 28 * .secondsPerDay)),
            Objective(actionType: "restore", target: 0.99, window: .rolling(seconds: 28 * .secondsPerDay)),
            Objective(actionType: "retry", target: 0.95, window: .rolling(seconds: 28 * .secondsPerDay)),
        ],
        rules: [
            BurnRateRule(severity: .page, longWindowSeconds: .secondsPerHour, shortWindowSeconds: 300, budgetShare: 0.02),
            BurnRateRule(severity: .page, longWindowSeconds: 6 * .secondsPerHour, shortWindowSeconds: 1800, budgetShare: 0.05),
            BurnRateRule(severity: .ticket, longWindowSeconds: .secondsPerDay, shortWindowSeconds: 7200, budgetShare: 0.1),
            BurnRateRule(severity: .ticket, longWindowSeconds: 3 * .secondsPerDay, shortWindowSeconds: 6 * .secondsPerHour, budgetShare: 0.1),
        ],
        slices: [.productID, .planID, .groupID, .offerID, .appVersion, .variant, .app],
        minimumValidEvents: 20,
        minimumFailures: 5,
        lossOfSignalWindowSeconds: 30 * .secondsPerMinute,
        lossOfSignalMinimumExpected: 30
    )

    /// The rules in the order they are tried: the fast exact test (its threshold that of the page rule
    /// with the shortest long window, its budget share scaled to its window), then `rules`.
    public var rulesByUrgency: [BurnRateRule] {
        let pages = rules.filter { $0.severity == .page }
        var all: [BurnRateRule] = []
        if let fastBurn, let fastest = pages.min(by: { $0.longWindowSeconds < $1.longWindowSeconds }) {
            all.append(
                BurnRateRule(
                    severity: .page, longWindowSeconds: fastBurn.windowSeconds, shortWindowSeconds: fastBurn.windowSeconds,
                    budgetShare: fastest.budgetShare * Double(fastBurn.windowSeconds) / Double(fastest.longWindowSeconds),
                    isExactTest: true))
        }
        return all + pages + rules.filter { $0.severity != .page }
    }
}

/// How urgent an alert is.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
    /// Someone must act now.
    case page
    /// Someone must look today.
    case ticket

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .ticket && rhs == .page }
}

extension SLOPolicy {
    /// Whether `counts` fail `objective` beyond chance: more failures than the error budget allows by the
    /// exact one-sided binomial test at `burnSignificance` (2 of 3 against a 1 % budget do; 1 of 1 does
    /// not). What keeps a status from reading OK while an action fails now, whether or not a rule fires
    /// (thin traffic, under the rules' minimum events, or a rule still waiting for its long window).
    public func missesObjectiveBeyondChance(_ counts: OutcomeCounts, objective: Objective) -> Bool {
        RateTest.binomialUpperTail(atLeast: counts.failure, trials: counts.valid, probability: objective.errorBudget)
            < burnSignificance
    }
}
