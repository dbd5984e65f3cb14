public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// The weekly quality review of one ISO week against the week before: SLO attainment and budget spent
/// per action, week-over-week changes with their significance, products and plans, failure reasons, the
/// 409 trend, and the week's alert episodes.
public struct WeeklyReport: Sendable {
    /// One action's week.
    public struct ActionWeek: Sendable {
        /// The action.
        public var actionType: String
        /// Its objective, if the policy has one.
        public var objective: SLOPolicy.Objective?
        /// This week's counts.
        public var current: OutcomeCounts
        /// The week before's counts.
        public var previous: OutcomeCounts
        /// Success, 409, cancel and unfinished rates, this week against the week before.
        public var comparisons: [PeriodComparison]
        /// This week's counts as its objective judges them: weighted by price for an objective weighted by
        /// revenue (``PurchaseSLIAnalysis/RevenueWeights``), else ``current``.
        public var judged: OutcomeCounts

        /// Failures / (error budget × valid events) this week: 1 is the whole budget.
        public var budgetSpent: Double? { objective?.budgetSpent(judged) }

        /// Whether the week's success rate (of revenue, for an objective weighted by revenue) met the
        /// objective (nil without an objective or events).
        public var metObjective: Bool? {
            guard let objective, let rate = judged.successRate else { return nil }
            return rate >= objective.target
        }
    }

    /// One product or plan of one action.
    public struct SliceWeek: Sendable {
        /// The dimension (productID or planID) and its value.
        public var slice: SeriesLabels
        /// This week's counts.
        public var current: OutcomeCounts
        /// The success rate this week against the week before.
        public var successRate: PeriodComparison
    }

    /// One failure description's count this week and the week before.
    public struct ErrorWeek: Sendable {
        /// The description.
        public var description: String
        /// Failures this week.
        public var current: Int64
        /// Failures the week before.
        public var previous: Int64
        /// The adjusted p-value that it rose per valid event (``PurchaseSLIAnalysis/RiseTest``), or nil
        /// without a week before to compare with.
        public var risePValue: Double?

        /// Whether it rose beyond chance.
        public var roseSignificantly: Bool { (risePValue ?? 1) < WeeklyReport.significance }
    }

    /// Whether the week before holds any event to compare with.
    public var hasPreviousWeek: Bool { actions.contains { !$0.previous.isEmpty } }

    /// The significance level, after Holm's correction over all the report's comparisons.
    public static let significance = 0.01
    /// Fewest trials each week needs for a change to be tested.
    public static let minimumTrials: Int64 = 100

    /// The week reviewed, in the zone whose Mondays bound it.
    public var week: ISOWeek
    /// The zone the review is written in: the week's.
    public var zone: TimeZoneOffsets { week.zone }
    /// Each action, those with an objective first.
    public var actions: [ActionWeek]
    /// Products and plans of each action, worst change of success rate first.
    public var slices: [SliceWeek]
    /// The most frequent failure descriptions this week.
    public var errors: [ErrorWeek]
    /// Per action, the 409 rate per `trendStepSeconds` over both weeks.
    public var conflictTrend: [(actionType: String, values: [Double?])]
    /// The step of the trend.
    public var trendStepSeconds: Int64
    /// The alert episodes that overlap the week, in order of start, each with its incident.
    public var episodes: [AlertReport]
    /// When each action's newest event of the week arrived, as seen at the week's end.
    public var freshness: DataFreshness
    /// Per store and product: charges of the week not granted by its end, and refunds, against the week
    /// before; empty without store notifications.
    public var moneyAtRisk: [MoneyAtRisk] = []
    /// The record of each incident of the week, by its id: the one kept (``IncidentBook``), else the one
    /// taken with its alerts at the week's end. What each cost in all, and the week's share of it
    /// (``costShare(ofIncident:)``).
    public var incidentRecords: [String: IncidentRecord] = [:]
    /// The app reviewed (one app's view of a store several apps write to), or nil for every app.
    public var app: String?
    /// The products, plans, offers and app versions whose purchases failed beyond what the purchase
    /// objective allows, beyond chance (the lower bound of the estimate above zero), most lost first.
    public var purchasesLost: [SliceLoss] = []
    /// How long the week's charges took to be granted against the time-to-grant objective, nil without
    /// the objective.
    public var grantTimes: GrantTimesWeek?
    /// Per objective (by action), its attainment over the 4 ISO weeks and 3 calendar months up to the
    /// week's end.
    public var attainmentHistory: [(actionType: String, periods: [AttainmentPeriod])] = []
    /// The maintenance windows' occurrences in the week, with what they left out of the budgets.
    public var maintenance: [MaintenanceWeek] = []

    /// One occurrence of a maintenance window in the week.
    public struct MaintenanceWeek: Sendable {
        /// The occurrence (clipped to the week) and its window.
        public var band: MaintenanceCalendar.Band
        /// The events of the actions with an objective it covers, left out of their budgets (before any
        /// weighting by price).
        public var leftOut: OutcomeCounts
    }
    /// How many of the week's 7 days, and of the week before's, hold at least one event: a week whose data
    /// starts or ends inside it is partial, and its counts are not compared as if it were whole.
    public var daysWithEvents = (current: 7, previous: 7)
    /// Whether the week holds no event at all: nothing in it could be judged, no alert could fire.
    public var holdsNoEvent: Bool { daysWithEvents.current == 0 }
    /// Whether the week before holds events on fewer than its 7 days (the data starts inside it) while it
    /// holds some: its counts are not compared with this week's.
    public var previousWeekIsPartial: Bool { hasPreviousWeek && daysWithEvents.previous < 7 }
    /// What the caps counted as `__other__` on the UTC days the week touches: its tables by those
    /// dimensions show them as `__other__`.
    public var overflow = CapOverflow(counts: [])
    /// The week's refunds by what their charges tell (``RefundCause``), and the previous week's.
    public var refunds = (current: RefundTally(), previous: RefundTally())
    /// What the stores' notifications cover of the week and of the week before, as known at the week's end:
    /// what its money at risk, refunds and times to grant rest on (``PurchaseSLIAnalysis/StoreCoverage``).
    public var storeCoverage: (current: StoreCoverage, previous: StoreCoverage)

    /// The week's times to grant: per store, product and granting app version, and each store's previous week.
    public struct GrantTimesWeek: Sendable {
        /// The objective.
        public var objective: SLOPolicy.TimeToGrantObjective
        /// The week's charges (``GrantTimes/breakdown(from:to:at:)``), as known at its end.
        public var rows: [GrantTimes.Row]
        /// Each store's charges of the previous week, as known at its end.
        public var previous: [Store: GrantTimes.Summary]
    }

    /// What one slice's purchase failures beyond the objective cost over the week.
    public struct SliceLoss: Sendable {
        /// The dimension and its value.
        public var slice: SeriesLabels.Slice
        /// Its purchases' counts over the week.
        public var counts: OutcomeCounts
        /// Purchases lost beyond the objective's allowance (valid events × target − successes), priced.
        public var lost: LostPurchases
    }

    /// One store's product: what the week left ungranted or refunded, the grants no charge paid for, and
    /// the week before.
    public struct MoneyAtRisk: Sendable {
        /// The store.
        public var store: Store
        /// The product.
        public var productID: String
        /// This week's counts (charges, not granted, refunds, amounts).
        public var current: ChargeCounts.Row
        /// The week before's.
        public var previous: ChargeCounts.Row
        /// This week's grants no charge paid for.
        public var unpaid = UnpaidGrants()
        /// The week before's.
        public var previousUnpaid = UnpaidGrants()
    }

    /// Grants no charge paid for, as DoubleGrant and GrantedWithoutCharge count them: how many of each, and
    /// their worth per currency.
    public struct UnpaidGrants: Sendable, Hashable {
        /// Grants of a transaction granted before.
        public var grantedAgain: Int64 = 0
        /// Grants no store charge names.
        public var withoutCharge: Int64 = 0
        /// What they gave away, per currency.
        public var worth: [String: Double] = [:]

        /// Both kinds together (a grant of both kinds counts twice).
        public var total: Int64 { grantedAgain + withoutCharge }

        /// None.
        public init() {}

        /// The grants of `rows` no charge paid for, counted as each alert counts them, each one's worth once.
        public init(_ rows: some Sequence<GrantListRow>) {
            for row in rows where row.repeatOf != nil || row.isWithoutCharge {
                if row.repeatOf != nil { grantedAgain += 1 }
                if row.isWithoutCharge { withoutCharge += 1 }
                if let price = row.worth { worth[price.currency, default: 0] += price.amount }
            }
        }
    }

    /// The losses of incident `id` that happened in the week (``LossTimeline/share(from:to:)``): an incident
    /// spanning weeks counts in each with its part; nil for an incident not of the week.
    public func costShare(ofIncident id: String) -> LossTimeline.Step? {
        incidentRecords[id]?.losses.share(from: week.startSeconds, to: week.endSeconds)
    }

    /// The successes the week's incidents lost in the week that no price is known for (restores, retries,
    /// products never priced): not in ``incidentsWorth``, and said so beside it.
    public var incidentsUnpriced: Double {
        incidentRecords.keys.reduce(0) { $0 + (costShare(ofIncident: $1)?.unpriced ?? 0) }
    }

    /// What the week's incidents cost in the week, per currency: each incident's share of the week, once.
    public var incidentsWorth: [String: Double] {
        incidentRecords.keys.reduce(into: [:]) { total, id in total.merge(costShare(ofIncident: id)?.worth ?? [:], uniquingKeysWith: +) }
            .filter { $0.value >= 0.005 }
    }
}
