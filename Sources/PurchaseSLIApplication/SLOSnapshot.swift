public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// Where each objective stands at one time, as the SLI series of `/metrics/slo` expose it: per objective
/// its counts over each burn-rate rule's windows and its own window (without the minutes maintenance
/// leaves out, weighted by price where it weighs revenue), the budget left, whether a maintenance window
/// covers it now; and how many alerts of each kind fire at each severity.
public struct SLOSnapshot: Sendable {
    /// One objective's state.
    public struct ObjectiveState: Sendable {
        /// The objective.
        public var objective: SLOPolicy.Objective
        /// Its counts over each window, shortest first, labelled as the policy writes it (`5m`, `28d`).
        public var windows: [(label: String, counts: OutcomeCounts)]
        /// The share of its error budget left over its window (negative: overspent), or nil without events.
        public var budgetRemaining: Double?
        /// Whether a maintenance window leaves its action's last minute out.
        public var inMaintenance: Bool
    }

    /// The time evaluated (a whole minute): only events before it count.
    public var atSeconds: Int64
    /// Each objective of the policy, in its order.
    public var objectives: [ObjectiveState]
    /// Per alert kind of the rules evaluated, the alerts firing at each severity (zero included, so that a
    /// series exists before the first alert).
    public var firing: [(kind: String, severity: Severity, count: Int)]
}

extension AlertContext {
    /// The snapshot at `time` (minute-aligned): the same counts the objectives cards show and the alerts
    /// `alerts --at` finds.
    public func sloSnapshot(at time: Int64) async throws -> SLOSnapshot {
        let calendar = maintenance()
        let windows = Set(policy.rules.flatMap { [$0.longWindowSeconds, $0.shortWindowSeconds] })
        let objectives = try await policy.objectives.asyncMap { objective -> SLOSnapshot.ObjectiveState in
            let filters: [EventDimension: Set<String?>] = [.actionType: [objective.actionType]]
            let own = objective.window.period(at: time)
            var states: [(label: String, counts: OutcomeCounts)] = try await windows.sorted().asyncMap { seconds in
                (
                    TimeStep(seconds: seconds).description,
                    try await objectiveCounts(objective, fromSeconds: time - seconds, toSeconds: time, filters: filters) ?? OutcomeCounts()
                )
            }
            let budgetCounts =
                try await objectiveCounts(objective, fromSeconds: own.startSeconds, toSeconds: time, filters: filters) ?? OutcomeCounts()
            let ownLabel = objective.window == .calendarMonth ? "month" : objective.window.description
            if !states.contains(where: { $0.label == ownLabel }) { states.append((ownLabel, budgetCounts)) }
            return SLOSnapshot.ObjectiveState(
                objective: objective, windows: states, budgetRemaining: objective.budgetSpent(budgetCounts).map { 1 - $0 },
                inMaintenance: !calendar.excludedRanges(of: objective.actionType, from: time - .secondsPerMinute, to: time).isEmpty)
        }
        let reports = try await firingReports(at: time)
        let firing = rules.map(\.kind.rawValue).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.flatMap { kind in
            [Severity.page, .ticket].map { severity in
                (kind, severity, reports.filter { $0.finding.kind.rawValue == kind && $0.severity == severity }.count)
            }
        }
        return SLOSnapshot(atSeconds: time, objectives: objectives, firing: firing)
    }
}
