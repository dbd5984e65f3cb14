public import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIStorage

extension AlertContext {
    /// Which stretches of `[from, to)` the stores' notifications (of the policy's environments, of the app
    /// evaluated) cover, as known at `readAt` (by default `to`): what every store figure of that range rests
    /// on (``PurchaseSLIAnalysis/StoreCoverage``). Two reads of the notifications' counts: per day over the
    /// reach, for the stores set up, and per hour around the range.
    public func storeCoverage(from: Int64, to: Int64, readAt: Int64? = nil) async throws -> StoreCoverage {
        let read = readAt ?? to
        let environments = policy.reconciliation.environments
        let kept = try await store.storeActivity(
            fromMillis: (from - StoreCoverage.reachSeconds) * .millisPerSecond, toMillis: read * .millisPerSecond, stepSeconds: .secondsPerDay)
        let storesKept = Set(kept.filter { environments.contains($0.environment) }.map(\.store))
        var hours: [Store: [Int64]] = [:]
        if !storesKept.isEmpty {
            let gap = StoreCoverage.bridgedGapSeconds + .secondsPerHour
            let rows = try await store.storeActivity(
                fromMillis: (from - gap) * .millisPerSecond, toMillis: min(read, max(from, to) + gap) * .millisPerSecond, stepSeconds: .secondsPerHour
            )
            for row in rows where environments.contains(row.environment) { hours[row.store, default: []].append(row.timeSeconds) }
        }
        return StoreCoverage(fromSeconds: from, toSeconds: to, readSeconds: read, hours: hours, storesKept: storesKept)
    }

    /// How much of `action`'s error budget window before `until` (starting at `windowStart`) holds its
    /// events: the days of it with at least one event of the action, each counted for the part of it in
    /// the window. One read of the action's daily counts.
    public func eventBudgetBasis(of action: String, window: SLOWindow, windowStart: Int64, until: Int64) async throws -> BudgetBasis {
        let day: Int64 = .secondsPerDay
        let series = try await store.series([
            CountQuery(
                fromSeconds: windowStart, toSeconds: until, step: TimeStep(seconds: day), groupBy: [], filters: [.actionType: [action]])
        ])[0]
        var dataSeconds: Int64 = 0
        for step in series.columns.first?.steps ?? [] {
            let start = series.startSeconds(ofStep: step)
            dataSeconds += max(0, min(start + day, until) - max(start, windowStart))
        }
        return BudgetBasis(window: window, windowSeconds: until - windowStart, dataSeconds: dataSeconds)
    }
}
