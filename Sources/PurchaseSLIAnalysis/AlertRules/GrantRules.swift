public import PurchaseSLICore

extension AlertFinding.Kind {
    /// Transactions the grant server granted again: goods delivered twice for one payment.
    public static let doubleGrant = AlertFinding.Kind(rawValue: "DoubleGrant")
    /// Grants no store charge names: revenue given away, or a replayed or forged receipt.
    public static let grantedWithoutCharge = AlertFinding.Kind(rawValue: "GrantedWithoutCharge")
}

/// DoubleGrant per store and product: a ticket while any transaction granted within the ticket lookback
/// was granted before (within ``GrantAudit/repeatSpanMillis``); a page when, of the product's grants of
/// the page window, at least `pageMinimum` and more than `pageShare` were repeats (a bug that grants
/// every purchase twice). O(log n + grants in the lookback).
public struct DoubleGrantRule: AlertRule {
    /// The policy it applies.
    public let policy: SLOPolicy

    /// The rule of `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    public var kind: AlertFinding.Kind { .doubleGrant }
    public var shortName: String { "double grant" }
    /// It lasts while a repeat is within the lookback, no longer.
    public var holdSeconds: Int64 { 0 }
    /// It reads the grant audit, not the minute series.
    public var reachSeconds: Int64 { 0 }
    /// No slice of the events (it reads the grants and the ledger).
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool { false }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        let audit = context.allInputs.grants
        let rule = policy.reconciliation
        let now = time * .millisPerSecond
        // Grants of [now − lookback, now): what `grants --from --to` lists for the same range.
        let found = audit.repeats(from: now - rule.ticketLookbackSeconds * .millisPerSecond, through: now - 1)
        guard !found.isEmpty else { return AlertRuleOutcome() }
        let windowStart = now - rule.pageWindowSeconds * .millisPerSecond
        let builder = GrantFindingBuilder(
            kind: kind, problem: .doubleGrant, rule: rule, time: time, windowGrants: audit.grants(from: windowStart, through: now - 1),
            windowStart: windowStart)
        return AlertRuleOutcome(findings: builder.findings(found.map { GrantEvidence.Example(grant: $0.grant, first: $0.first) }))
    }

    /// Repeats of a product go with its 409s and its app version's changes.
    public func causes(of finding: AlertFinding) -> Set<IncidentCause> { GrantFindingBuilder.causes(of: finding) }
}

/// GrantedWithoutCharge per store and product: a ticket while any grant of the ticket lookback is without
/// a charge (``GrantAudit/withoutCharge(from:through:at:)``); a page when, of the product's
/// grants whose wait ended within the page window, at least `pageMinimum` and more than `pageShare` are
/// (receipts replayed at scale). O(log n + grants in the lookback).
public struct GrantedWithoutChargeRule: AlertRule {
    /// The policy it applies.
    public let policy: SLOPolicy

    /// The rule of `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    public var kind: AlertFinding.Kind { .grantedWithoutCharge }
    public var shortName: String { "no charge" }
    /// It lasts while such a grant is within the lookback, no longer.
    public var holdSeconds: Int64 { 0 }
    /// It reads the grant audit, not the minute series.
    public var reachSeconds: Int64 { 0 }
    /// No slice of the events (it reads the grants and the ledger).
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool { false }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        let audit = context.allInputs.grants
        let rule = policy.reconciliation
        guard !audit.uncharged.isEmpty else { return AlertRuleOutcome() }
        let now = time * .millisPerSecond
        let found = audit.withoutCharge(from: now - rule.ticketLookbackSeconds * .millisPerSecond, through: now - 1, at: now)
        guard !found.isEmpty else { return AlertRuleOutcome() }
        let windowEnd = now - rule.chargeWaitSeconds * .millisPerSecond
        let windowStart = windowEnd - rule.pageWindowSeconds * .millisPerSecond
        let builder = GrantFindingBuilder(
            kind: kind, problem: .withoutCharge(waitSeconds: rule.chargeWaitSeconds), rule: rule, time: time,
            windowGrants: audit.grants(from: windowStart, through: windowEnd - 1), windowStart: windowStart)
        return AlertRuleOutcome(findings: builder.findings(found.map { GrantEvidence.Example(grant: $0, first: nil) }))
    }

    /// Grants of a product without a charge go with the product's other troubles.
    public func causes(of finding: AlertFinding) -> Set<IncidentCause> { GrantFindingBuilder.causes(of: finding) }
}

/// Turns a rule's grants with a problem into one finding per store and product.
struct GrantFindingBuilder {
    let kind: AlertFinding.Kind
    let problem: GrantEvidence.Problem
    let rule: SLOPolicy.ReconciliationRule
    let time: Int64
    /// The grants of the page window, of every product.
    let windowGrants: ArraySlice<GrantAudit.Grant>
    /// The page window's first millisecond: problems from it on are the window's.
    let windowStart: Int64

    /// A finding per store and product of `examples` (by time), a page when the product's share of the
    /// window, or the store's share when the product has some in the window, breaches the policy's page
    /// thresholds.
    func findings(_ examples: [GrantEvidence.Example]) -> [AlertFinding] {
        var windowTotals: [ChargeLedger.ProductKey: Int] = [:]
        var storeTotals: [Store: Int] = [:]
        for grant in windowGrants {
            guard let key = grant.key else { continue }
            windowTotals[key, default: 0] += 1
            storeTotals[key.store, default: 0] += 1
        }
        let byKey = Dictionary(grouping: examples.filter { $0.grant.key != nil }, by: { $0.grant.key! })
        var storeProblems: [Store: Int] = [:]
        for (key, found) in byKey { storeProblems[key.store, default: 0] += found.filter { $0.grant.record.millis >= windowStart }.count }
        func breaches(_ problems: Int, of total: Int) -> Bool {
            problems >= rule.pageMinimum && Double(problems) > rule.pageShare * Double(total)
        }
        return byKey.keys.sorted().map { key in
            let found = byKey[key]!
            var worth: [String: (amount: Double, grants: Int)] = [:]
            var versions: [String: Int] = [:]
            for example in found {
                if let price = example.worth {
                    worth[price.currency, default: (0, 0)].amount += price.amount
                    worth[price.currency, default: (0, 0)].grants += 1
                }
                versions[example.grant.record.appVersion ?? "(no version)", default: 0] += 1
            }
            let windowProblems = found.filter { $0.grant.record.millis >= windowStart }.count
            let windowTotal = windowTotals[key] ?? 0
            let pages =
                breaches(windowProblems, of: windowTotal)
                || (windowProblems > 0 && breaches(storeProblems[key.store] ?? 0, of: storeTotals[key.store] ?? 0))
            let evidence = GrantEvidence(
                problem: problem, store: key.store, lookbackSeconds: rule.ticketLookbackSeconds, count: found.count,
                amounts: worth.map { ChargeEvidence.Amount(currency: $0.key, amount: $0.value.amount, charges: $0.value.grants) }
                    .sorted { ($0.amount, $1.currency) > ($1.amount, $0.currency) },
                examples: Array(found.prefix(10)),
                otherProducts: found.filter { example in example.first.map { $0.productID != example.grant.record.productID } ?? false }.count,
                appVersions: versions.map { GrantEvidence.VersionCount(appVersion: $0.key, grants: $0.value) }
                    .sorted { ($0.grants, $1.appVersion) > ($1.grants, $0.appVersion) }.prefix(3).map { $0 },
                pageWindowSeconds: rule.pageWindowSeconds, windowGrants: windowTotal, windowProblems: windowProblems,
                storeWindowGrants: storeTotals[key.store] ?? 0, storeWindowProblems: storeProblems[key.store] ?? 0)
            return AlertFinding(
                kind: kind, severity: pages ? .page : .ticket,
                labels: SeriesLabels(
                    actionType: ActionType.purchase.rawValue, store: key.store.rawValue, slice: .init(dimension: .productID, value: key.productID)),
                time: time, evidence: evidence)
        }
    }

    /// The product, and the app version that made most of the grants when it made them all.
    static func causes(of finding: AlertFinding) -> Set<IncidentCause> {
        var causes = Set(finding.labels.slice.map { [IncidentCause.slice($0)] } ?? [])
        if let evidence = finding.evidence as? GrantEvidence, evidence.appVersions.count == 1, let version = evidence.appVersions.first {
            causes.insert(.slice(.init(dimension: .appVersion, value: version.appVersion)))
        }
        return causes
    }
}
