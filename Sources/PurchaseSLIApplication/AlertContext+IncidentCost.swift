public import PurchaseSLIAnalysis
import PurchaseSLICore

extension AlertContext {
    /// What `incident` cost from its first bad minute to its end (or `time`, while it goes on), each loss
    /// counted once however many of its alerts saw it: per action, the successes lost by the events its
    /// alerts were about (the union of their slices when all of one dimension, else the whole action),
    /// the charges its ChargedNotGranted alerts named that were taken in it and not granted by `time`, in
    /// full (and taken out of the purchases lost, when the app reported the attempt failed), and the
    /// refunds of the products its refund alerts named, in full, and the grants its DoubleGrant and
    /// GrantedWithoutCharge alerts named that were made in it, in full.
    public func cost(of incident: Incident, at time: Int64) throws -> AlertCost {
        let from = incident.firstBadSeconds
        let until = min(time, incident.endsAt ?? time)
        let findings = incident.episodes.flatMap { [$0.first, $0.peak, $0.latest] }
        var cost = AlertCost()
        var ledger: ChargeLedger?
        func readLedger() throws -> ChargeLedger {
            if let ledger { return ledger }
            let read = try store.ledger(kinds: [.charge, .refund], fromMillis: from * 1000, toMillis: until * 1000, rule: policy.reconciliation)
            ledger = read
            return read
        }
        for (action, filters) in Self.eventScopes(of: incident) {
            let target = policy.objectives.first { $0.actionType == action }?.target
            if let lost = try lostPurchases(of: action, from: from, until: until, filters: filters, target: target) { cost.lost[action] = lost }
        }
        let ungrantedKeys = Set(
            findings.compactMap { finding -> String? in
                guard case .ungrantedCharges = finding.evidence.costMeasure else { return nil }
                return Self.chargeKey(store: finding.labels.store, product: finding.labels.slice?.value)
            })
        var ungrantedTransactions = Set<String>()
        if !ungrantedKeys.isEmpty {
            let grace = policy.reconciliation.graceSeconds * 1000
            let ungranted = try readLedger().expectedCharges.filter { charge in
                ungrantedKeys.contains(Self.chargeKey(store: charge.notification.store.rawValue, product: charge.productID))
                    && charge.eventMillis + grace <= until * 1000 && charge.receivedMillis <= time * 1000 && charge.isOwed(at: time * 1000)
            }
            cost.ungranted = ChargeTally(ungranted)
            ungrantedTransactions = Set(ungranted.compactMap(\.notification.transactionID))
            // A charge whose attempt the app reported failed is among the failures the estimate counts.
            for (action, charges) in Dictionary(
                grouping: ungranted.filter { [.cancel, .failure].contains($0.report?.lastResult) }, by: { $0.report?.actionType ?? "" })
            {
                if let lost = cost.lost[action] { cost.lost[action] = lost.removing(charges.count, worth: ChargeTally(charges).worth) }
            }
        }
        let refundKeys = Set(
            findings.compactMap { finding -> String? in
                finding.evidence.costMeasure == .refunds ? Self.chargeKey(store: finding.labels.store, product: finding.labels.slice?.value) : nil
            })
        if !refundKeys.isEmpty {
            // A refund of a charge already counted as taken and not granted gave that money back: counted once.
            cost.refunded = ChargeTally(
                try readLedger().refunds.filter {
                    refundKeys.contains(Self.chargeKey(store: $0.notification.store.rawValue, product: $0.productID))
                        && !ungrantedTransactions.contains($0.notification.transactionID ?? "")
                })
        }
        cost.givenAway = try givenAway(by: findings, from: from, until: until, at: time)
        return cost
    }

    /// The grants made in `[from, until)` that the grant alerts among `findings` count (repeats of the
    /// products their DoubleGrant alerts named, grants without a charge at `time` of those their
    /// GrantedWithoutCharge alerts named), each once; nil without such alerts.
    private func givenAway(by findings: [AlertFinding], from: Int64, until: Int64, at time: Int64) throws -> ChargeTally? {
        var keys: [AlertFinding.Kind: Set<String>] = [:]
        for finding in findings {
            guard case .unpaidGrants = finding.evidence.costMeasure else { continue }
            keys[finding.kind, default: []].insert(Self.chargeKey(store: finding.labels.store, product: finding.labels.slice?.value))
        }
        guard !keys.isEmpty else { return nil }
        let read = try storeRecord(from: from, to: time)
        let audit = try grantAudit(from: from, to: time, ledger: read.charges, activity: read.activity)
        func named(_ grant: GrantAudit.Grant, by kind: AlertFinding.Kind) -> Bool {
            keys[kind]?.contains(Self.chargeKey(store: grant.store?.rawValue, product: grant.record.productID)) ?? false
        }
        var grants = audit.repeats(from: from * 1000, through: until * 1000 - 1).filter { named($0.grant, by: .doubleGrant) }
            .map { GrantEvidence.Example(grant: $0.grant, first: $0.first) }
        if keys[.grantedWithoutCharge] != nil {
            grants += audit.withoutCharge(from: from * 1000, through: until * 1000 - 1, at: time * 1000).filter {
                named($0, by: .grantedWithoutCharge)
            }
            .map { GrantEvidence.Example(grant: $0, first: nil) }
        }
        // A grant both granted again and without a charge counts once.
        let counted = Dictionary(grants.map { ($0.grant.record.eventID, $0) }, uniquingKeysWith: { first, _ in first }).values
        var worth: [String: Double] = [:]
        for grant in counted { if let price = grant.worth { worth[price.currency, default: 0] += price.amount } }
        return ChargeTally(count: counted.count, worth: worth)
    }

    /// The events each action's alerts of `incident` were about (those whose cost is lost successes): the
    /// union of their slices when all are of one dimension, else the whole action.
    static func eventScopes(of incident: Incident) -> [String: [EventDimension: Set<String?>]] {
        let findings = incident.episodes.flatMap { [$0.first, $0.peak, $0.latest] }.filter { $0.evidence.costMeasure == .lostSuccesses }
        return Dictionary(grouping: findings, by: \.labels.actionType).mapValues { alerts in
            let slices = Set(alerts.map(\.labels.slice))
            var filters: [EventDimension: Set<String?>] = [.actionType: [alerts[0].labels.actionType]]
            if let dimension = slices.first??.dimension, slices.allSatisfy({ $0?.dimension == dimension }) {
                filters[dimension] = Set(slices.compactMap { $0?.value })
            }
            return filters
        }
    }

    /// A store and product, as charges are matched to the alerts that name them.
    private static func chargeKey(store: String?, product: String?) -> String { "\(store ?? "")\u{1F}\(product ?? "")" }
}
