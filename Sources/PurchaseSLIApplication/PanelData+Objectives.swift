public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// The objectives panel's data: each action's counts over each window it shows, as its objective judges
/// them, the trend, each budget's basis, and the time-to-grant cards' data.
public struct ObjectivesPanelData: Sendable {
    /// Windows over which the panel shows the success rate and the burn rate.
    public static let windows: [(seconds: Int64, label: String)] = [
        (.secondsPerHour, "1 h"), (6 * .secondsPerHour, "6 h"), (.secondsPerDay, "24 h"), (7 * .secondsPerDay, "7 d"),
    ]

    /// Per window length (those of ``windows`` and each objective's budget window so far), each action's
    /// counts: weighted by price for an objective weighted by revenue, without the minutes maintenance
    /// leaves out for an action it touches.
    public var counts: [Int64: [String: OutcomeCounts]]
    /// Each action's counts per step of the range's default step.
    public var trend: StepSeries
    /// What each action's budget rests on (its window's days with data), for an action with a budget.
    public var budgetBases: [String: BudgetBasis]
    /// The time-to-grant cards' data, or nil without the time-to-grant objective or charges to judge.
    public var grantTimes: GrantTimeCardsData?
}

/// The time-to-grant cards' data: each store's charges decided on time or late over each window.
public struct GrantTimeCardsData: Sendable {
    /// Each store's charges over the objective's budget window so far.
    public var budgetCounts: [Store: OutcomeCounts]
    /// What the stores' notifications cover of the budget window.
    public var coverage: StoreCoverage
    /// Per window of ``ObjectivesPanelData/windows``, each store's charges.
    public var counts: [Int64: [Store: OutcomeCounts]]
}

/// One objective's budget card: the budget left day by day, its basis, and the attainment per period.
public struct BudgetCardData: Sendable {
    /// Days of budget history the burn-down shows.
    public static let burnDownDays = 28

    /// The objective.
    public var objective: SLOPolicy.Objective
    /// The budget left per day and its projection.
    public var burnDown: BudgetBurnDown
    /// What the budget rests on.
    public var basis: BudgetBasis
    /// The success rate over each of the last 4 ISO weeks and 3 calendar months.
    public var attainment: [AttainmentPeriod]
}

extension DashboardContext {
    /// ``ObjectivesPanelData`` at the page's time.
    func objectivesData() async throws -> ObjectivesPanelData {
        var windows: [Int64: [String: OutcomeCounts]] = [:]
        for seconds in ObjectivesPanelData.windows.map(\.seconds)
            + Set(policy.objectives.map { atSeconds - $0.window.period(at: atSeconds).startSeconds })
        {
            windows[seconds] = try await counts(last: seconds).reduce(into: [:]) { $0[$1.key[0] ?? ""] = $1.counts }
        }
        // An objective weighted by revenue reads its action's counts weighted by price, one that maintenance
        // touches its counts without the minutes left out.
        let judging = alerting()
        let maintenance = frame.maintenance()
        let longest = windows.keys.max() ?? 0
        for objective in policy.objectives
        where objective.weight == .revenue
            || !maintenance.excludedRanges(of: objective.actionType, from: atSeconds - longest, to: atSeconds).isEmpty
        {
            for seconds in Array(windows.keys) {
                windows[seconds]?[objective.actionType] = try await judging.objectiveCounts(
                    objective, fromSeconds: atSeconds - seconds, toSeconds: atSeconds, filters: [.actionType: [objective.actionType]])
            }
        }
        var bases: [String: BudgetBasis] = [:]
        for objective in policy.objectives {
            let start = objective.window.period(at: atSeconds).startSeconds
            let budgetCounts = windows[atSeconds - start]?[objective.actionType] ?? OutcomeCounts()
            guard objective.budgetSpent(budgetCounts) != nil else { continue }
            bases[objective.actionType] = try await judging.eventBudgetBasis(
                of: objective.actionType, window: objective.window, windowStart: start, until: atSeconds)
        }
        return ObjectivesPanelData(
            counts: windows, trend: try await series(step: frame.defaultStepSeconds, groupBy: [.actionType]), budgetBases: bases,
            grantTimes: try await grantTimeCardsData())
    }

    /// ``GrantTimeCardsData`` at the page's time: the charges decided over the widest window, counted as the
    /// alerts read them (without the minutes maintenance leaves out of purchases' budgets).
    private func grantTimeCardsData() async throws -> GrantTimeCardsData? {
        guard let objective = policy.reconciliation.timeToGrant else { return nil }
        let budgetSeconds = atSeconds - objective.objective.window.period(at: atSeconds).startSeconds
        let widest = max(budgetSeconds, ObjectivesPanelData.windows.map(\.seconds).max() ?? 0)
        let judging = alerting()
        guard let times = try await judging.decidedGrantTimes(from: atSeconds - widest, to: atSeconds) else { return nil }
        func counts(last seconds: Int64) async throws -> [Store: OutcomeCounts] {
            try await judging.grantTimeCounts(times, from: atSeconds - seconds, to: atSeconds)
        }
        var windows: [Int64: [Store: OutcomeCounts]] = [:]
        for window in ObjectivesPanelData.windows { windows[window.seconds] = try await counts(last: window.seconds) }
        return GrantTimeCardsData(
            budgetCounts: try await counts(last: budgetSeconds),
            coverage: try await judging.storeCoverage(from: atSeconds - budgetSeconds, to: atSeconds), counts: windows)
    }

    /// One ``BudgetCardData`` per objective.
    func budgetData() async throws -> [BudgetCardData] {
        let judging = alerting()
        return try await policy.objectives.asyncMap { objective in
            let windowStart = objective.window.period(at: atSeconds).startSeconds
            let earliest = objective.window.period(at: atSeconds - Int64(BudgetCardData.burnDownDays) * .secondsPerDay).startSeconds
            let hourly = try await judging.objectiveSeries(
                objective, fromSeconds: earliest - earliest.floorDividedBy(.secondsPerHour).remainder, toSeconds: atSeconds,
                stepSeconds: .secondsPerHour)
            let current = try await judging.objectiveCounts(
                objective, fromSeconds: windowStart, toSeconds: atSeconds, filters: [.actionType: [objective.actionType]])
            return BudgetCardData(
                objective: objective,
                burnDown: BudgetBurnDown(objective: objective, hourly: hourly, at: atSeconds, days: BudgetCardData.burnDownDays, current: current),
                basis: try await judging.eventBudgetBasis(
                    of: objective.actionType, window: objective.window, windowStart: windowStart, until: atSeconds),
                attainment: try await judging.attainment(objective, at: atSeconds, zone: zone))
        }
    }
}
