public import PurchaseSLIAnalysis
public import PurchaseSLICore

extension AlertContext {
    /// How long the charges made in `[from, to)` took to be granted, with the app versions that granted
    /// them (grants read from a day before the charges to 7 days after, as ``ChargeLedger`` matches them),
    /// or nil when the policy has no time-to-grant objective.
    public func grantTimes(from: Int64, to: Int64) async throws -> GrantTimes? {
        guard let objective = policy.reconciliation.timeToGrant else { return nil }
        let ledger = try await store.ledger(
            kinds: [.charge], fromMillis: from * .millisPerSecond, toMillis: to * .millisPerSecond, rule: policy.reconciliation)
        let grants = try await grants(
            granting: ledger, fromMillis: from * .millisPerSecond - ChargeLedger.reportsBeforeChargeMillis,
            toMillis: to * .millisPerSecond + ChargeLedger.reportsAfterChargeMillis)
        return GrantTimes(ledger: ledger, grants: grants, withinSeconds: objective.withinSeconds)
    }

    /// The grants of `[fromMillis, toMillis)` naming the charges of `ledger` that the app granted, by
    /// time: where ``GrantTimes`` finds the app version that granted each (the others are not read).
    func grants(granting ledger: ChargeLedger, fromMillis: Int64, toMillis: Int64) async throws -> [GrantRecord] {
        let granted = ledger.expectedCharges.compactMap { $0.grantedMillis == nil ? nil : $0.notification.transactionID }
        return granted.isEmpty ? [] : try await store.grants(fromMillis: fromMillis, toMillis: toMillis, of: .transactions(granted))
    }

    /// The charges whose outcome may become known from `from` to `to` (charged from the objective's time
    /// and an hour of notification delay before `from`), without app versions: what the objective's counts
    /// over `[from, to)` read (``GrantTimes/decidedCounts(from:to:)``). Nil without the objective.
    public func decidedGrantTimes(from: Int64, to: Int64) async throws -> GrantTimes? {
        guard let objective = policy.reconciliation.timeToGrant else { return nil }
        let ledger = try await store.ledger(
            kinds: [.charge], fromMillis: (from - objective.withinSeconds - .secondsPerHour) * .millisPerSecond, toMillis: to * .millisPerSecond,
            rule: policy.reconciliation)
        return GrantTimes(ledger: ledger, grants: [GrantRecord](), withinSeconds: objective.withinSeconds)
    }

    /// The share of the time-to-grant objective's error budget left for `chargingStore` at `until`: its
    /// charges whose outcome was known in the objective's window so far.
    func grantTimeBudgetRemaining(of chargingStore: Store, until: Int64) async throws -> Double? {
        guard let objective = policy.reconciliation.timeToGrant else { return nil }
        let start = objective.objective.window.period(at: until).startSeconds
        guard let times = try await decidedGrantTimes(from: start, to: until) else { return nil }
        let counts = try await grantTimeCounts(times, from: start, to: until)[chargingStore]
        return counts.flatMap(objective.objective.budgetSpent).map { 1 - $0 }
    }

    /// The time-to-grant objective's counts per store over `[from, to)` (``GrantTimes/decidedCounts(from:to:)``),
    /// without the minutes maintenance windows leave out of purchases' budgets: what its budget is judged on.
    public func grantTimeCounts(_ times: GrantTimes, from: Int64, to: Int64) async throws -> [Store: OutcomeCounts] {
        try await leavingOutMaintenance(of: ActionType.purchase.rawValue, from: from, to: to) { from, to in
            times.decidedCounts(from: from * .millisPerSecond, to: to * .millisPerSecond)
        }
    }
}
