public import PurchaseSLIAnalysis
import PurchaseSLICore

/// The rollout panel's data: the verdict for the candidate with its inputs, or why there is none.
public enum RolloutPanelData: Sendable {
    /// Only one app version has events in the range: nothing to compare.
    case noCandidate
    /// The candidate cannot be compared (``RolloutQuery/Failure``), with the reason.
    case unavailable(candidate: String, reason: String)
    /// The verdict, with the hours it compared.
    case compared(RolloutReport, RolloutInputs)
}

/// The reconciliation panel's data: the last day's charges against the grants, and the grants no charge
/// paid for.
public struct ReconciliationPanelData: Sendable {
    /// How far the panel reads before the day, in steps of 15 minutes.
    public static let stepSeconds: Int64 = 900

    /// The day's charges (and the lookback before it) as received by the page's time.
    public var ledger: ChargeLedger
    /// What the day's notifications cover; nil without a charge.
    public var coverage: StoreCoverage?
    /// The day's charges per store, product and granting app version by time to grant; nil without a charge
    /// or the time-to-grant objective.
    public var grantTimes: [GrantTimes.Row]?
    /// The grants of the lookback that no charge paid for as of the page's time.
    public var unpaidGrants: [GrantListRow]
}

extension DashboardContext {
    /// ``RolloutPanelData`` for the candidate (default: the newest version in the range) against the
    /// baseline (default: the busiest other version), from the candidate's first hour in the range.
    func rolloutData(candidate: String?, baseline: String?) async throws -> RolloutPanelData {
        let query = RolloutQuery(store: store)
        let newest = candidate == nil ? try await query.newestVersion(from: fromSeconds, to: atSeconds) : nil
        guard let candidate = candidate ?? newest else { return .noCandidate }
        do {
            let inputs = try await query.inputs(candidate: candidate, baseline: baseline, since: nil, end: atSeconds)
            var report = await RolloutEvaluator(policy: policy).evaluate(inputs, freshness: try alerting().freshness(at: atSeconds))
            report.app = app
            report.actions = report.own(records.rolloutActions)
            report.incidents = try await IncidentBook(context: alerting()).records(
                naming: candidate, from: report.fromSeconds, to: atSeconds + .secondsPerMinute)
            return .compared(report, inputs)
        } catch let failure as RolloutQuery.Failure {
            return .unavailable(candidate: candidate, reason: failure.description)
        }
    }

    /// ``ReconciliationPanelData`` over the day before the page's time.
    func reconciliationData() async throws -> ReconciliationPanelData {
        let rule = policy.reconciliation
        let step = ReconciliationPanelData.stepSeconds
        let start = (atSeconds - .secondsPerDay).floorDividedBy(step).quotient * step
        let ledger = try await store.ledger(
            kinds: [.charge], fromMillis: (start - rule.ticketLookbackSeconds) * .millisPerSecond, toMillis: atSeconds * .millisPerSecond,
            receivedBy: atSeconds * .millisPerSecond, rule: rule)
        let judging = alerting()
        let unpaid = try await judging.unpaidGrantList(from: atSeconds - rule.ticketLookbackSeconds, to: atSeconds, at: atSeconds)
        guard !ledger.charges.isEmpty else { return ReconciliationPanelData(ledger: ledger, coverage: nil, grantTimes: nil, unpaidGrants: unpaid) }
        let times = try await judging.grantTimes(from: atSeconds - .secondsPerDay, to: atSeconds)
        return ReconciliationPanelData(
            ledger: ledger, coverage: try await judging.storeCoverage(from: atSeconds - .secondsPerDay, to: atSeconds),
            grantTimes: times?.breakdown(
                from: (atSeconds - .secondsPerDay) * .millisPerSecond, to: atSeconds * .millisPerSecond, at: atSeconds * .millisPerSecond),
            unpaidGrants: unpaid)
    }
}
