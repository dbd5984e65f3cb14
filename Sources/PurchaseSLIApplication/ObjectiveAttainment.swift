public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// An objective's success rate over one ISO week or calendar month (in a zone), against its target: the
/// service-level report's row.
public struct AttainmentPeriod: Sendable, Hashable {
    /// "2026-W46" or "2026-11".
    public var label: String
    /// The period's start, and its end or the evaluation time when that comes first.
    public var startSeconds: Int64
    public var endSeconds: Int64
    /// Whether it is still going on at the evaluation time (its figure is so far).
    public var isPartial: Bool
    /// What the objective is judged on over it (price-weighted for a revenue objective), nil without events.
    public var counts: OutcomeCounts?
    /// The objective's target.
    public var target: Double

    /// Whether the period met the objective, nil without valid events.
    public var met: Bool? { counts?.successRate.map { $0 >= target } }
}

extension AlertContext {
    /// The last `weeks` ISO weeks and `months` calendar months up to `time`, their boundaries in `zone`, each
    /// newest first, weeks before months: the current ones so far.
    public func attainment(
        _ objective: SLOPolicy.Objective, at time: Int64, weeks: Int = 4, months: Int = 3, zone: TimeZoneOffsets = .utc
    ) async throws -> [AttainmentPeriod] {
        var periods: [(label: String, start: Int64, end: Int64)] = []
        var week = ISOWeek(containing: time - 1, in: zone)
        for _ in 0..<weeks {
            periods.append((week.description, week.startSeconds, week.endSeconds))
            week = week.previous
        }
        for back in 0..<months {
            let start = zone.startOfMonth(-back, monthsAfter: time - 1)
            periods.append((zone.month(start), start, zone.startOfMonth(1 - back, monthsAfter: time - 1)))
        }
        return try await periods.asyncMap { period in
            let end = min(period.end, time)
            let counts = try await objectiveCounts(
                objective, fromSeconds: period.start, toSeconds: end, filters: [.actionType: [objective.actionType]])
            return AttainmentPeriod(
                label: period.label, startSeconds: period.start, endSeconds: end, isPartial: period.end > time, counts: counts,
                target: objective.target)
        }
    }
}
