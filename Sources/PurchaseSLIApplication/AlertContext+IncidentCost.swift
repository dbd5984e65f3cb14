public import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIStorage

/// An incident's figures read at a time: its cost, when each loss of it happened, and the charges it
/// left that are still owed (nil when it is not about charges).
public struct IncidentFigures: Sendable, Hashable {
    /// What it cost (``AlertContext/figures(of:at:)``).
    public var cost: AlertCost
    /// When each loss of ``cost`` happened.
    public var losses: LossTimeline
    /// The charges not granted in time that are still owed.
    public var owed: ChargeTally?
}

extension AlertContext {
    /// The record of `incident` read at `time`: its figures (``figures(of:at:)``) and the status they give.
    public func record(of incident: Incident, at time: Int64) async throws -> IncidentRecord {
        let figures = try await figures(of: IncidentCostScope(incident), at: time)
        return IncidentRecord(
            incident: incident, app: app, readAtSeconds: time, cost: figures.cost, losses: figures.losses, owed: figures.owed)
    }

    /// What an incident of `scope` cost from its first bad minute to its end (or `time`, while it goes on),
    /// each loss counted once however many of its alerts saw it, and when each loss happened: per action,
    /// the successes lost by the events its alerts were about, spread over the quarter hours as their
    /// failures were; the charges of the products its ChargedNotGranted alerts named that were taken in it,
    /// not granted within the grace, and by `time` neither granted nor made whole (still owed, refunded or
    /// written off), in full at their charge (and taken out of the purchases lost, when the app reported
    /// the attempt failed); the transactions its retry alerts' events retried and never granted, each once at
    /// its product's price (``retriedNotGranted(filters:from:until:at:purchasesEstimated:counted:)``); the refunds of the products its refund alerts named, from a refund window
    /// before its first bad minute (what the alert counted), but those of charges never granted (counted as
    /// charges not granted), in full at their refund;
    /// and the grants its DoubleGrant and GrantedWithoutCharge alerts named that were made in it, in full
    /// at their grant. What is known at `time` only: a later grant, refund or settlement changes them.
    public func figures(of scope: IncidentCostScope, at time: Int64) async throws -> IncidentFigures {
        let from = scope.fromSeconds
        let until = scope.until(at: time)
        var cost = AlertCost()
        var losses = LossTimeline()
        var owed: ChargeTally?
        var ledger: ChargeLedger?
        func readLedger() async throws -> ChargeLedger {
            if let ledger { return ledger }
            let read = try await store.ledger(
                kinds: [.charge, .refund], fromMillis: from * .millisPerSecond, toMillis: until * .millisPerSecond, rule: policy.reconciliation)
            ledger = read
            return read
        }
        for (action, events) in scope.lostSuccesses.sorted(by: { $0.key < $1.key }) {
            let target = policy.objectives.first { $0.actionType == action }?.target
            if let lost = try await lostPurchases(of: action, from: from, until: until, filters: events.filters(of: action), target: target) {
                cost.lost[action] = lost
            }
        }
        var countedCharges = Set<Int64>()
        if !scope.ungrantedCharges.isEmpty {
            let grace = policy.reconciliation.graceSeconds * .millisPerSecond
            let ungranted = try await readLedger().expectedCharges.filter { charge in
                scope.ungrantedCharges.contains(.init(store: charge.notification.store.rawValue, product: charge.productID))
                    && charge.eventMillis + grace <= until * .millisPerSecond && charge.receivedMillis <= time * .millisPerSecond
                    && !charge.isGranted(by: time * .millisPerSecond)
                    && charge.settlement(by: time * .millisPerSecond)?.kind != .madeWhole
            }
            cost.ungranted = ChargeTally(ungranted)
            owed = ChargeTally(ungranted.filter { $0.isOwed(at: time * .millisPerSecond) })
            for charge in ungranted { losses.addCounted(atMillis: charge.eventMillis, worth: ChargeTally([charge]).worth) }
            countedCharges = Set(ungranted.compactMap { $0.notification.transactionID.map { ClientReportBlob.hash(of: .transactionID($0)) } })
            // A charge whose attempt the app reported failed is among the failures the estimate counts.
            for (action, charges) in Dictionary(
                grouping: ungranted.filter { [.cancel, .failure].contains($0.report?.lastResult) }, by: { $0.report?.actionType ?? "" })
            {
                if let lost = cost.lost[action] { cost.lost[action] = lost.removing(charges.count, worth: ChargeTally(charges).worth) }
            }
        }
        let retry = ActionType.retry.rawValue
        if let events = scope.lostSuccesses[retry],
            let retried = try await retriedNotGranted(
                filters: events.filters(of: retry), from: from, until: until, at: time,
                purchasesEstimated: cost.lost[ActionType.purchase.rawValue] != nil, counted: countedCharges)
        {
            cost.retriedNotGranted = retried.tally
            for transaction in retried.transactions {
                losses.addCounted(
                    atMillis: transaction.firstFailureMillis, worth: transaction.price.map { [$0.currency: $0.price] } ?? [:],
                    isPriced: transaction.price != nil)
            }
        }
        // In one order, so that the same losses sum to the same figures to the last digit.
        for (action, lost) in cost.lost.sorted(by: { $0.key < $1.key }) {
            guard let events = scope.lostSuccesses[action] else { continue }
            // Lost retries are not priced; their transactions are, when counted (each once, above).
            let unpriced =
                action == ActionType.purchase.rawValue ? lost.unpriced : action == retry && cost.retriedNotGranted != nil ? 0 : lost.purchases
            await losses.spread(
                lostSuccesses: lost.purchases, worth: lost.worth, unpriced: unpriced,
                by: try failuresByQuarterHour(from: from, until: until, filters: events.filters(of: action)))
        }
        if !scope.refunds.isEmpty {
            // A refund alert counts the refunds of its window, which starts a window before it fires: so does
            // its cost. A refund of a charge never granted gave back money counted already as a charge taken
            // and not granted (by this incident's or another's ChargedNotGranted alert): counted once, there.
            let counted = try await countedRefunds(from: from - policy.reconciliation.refundWindowSeconds, until: until) {
                scope.refunds.contains(.init(store: $0.notification.store.rawValue, product: $0.productID))
            }
            cost.refunded = ChargeTally(counted.refunds)
            cost.refundsOfChargesNeverGranted = counted.ofChargesNeverGranted
            for refund in counted.refunds { losses.addCounted(atMillis: refund.eventMillis, worth: ChargeTally([refund]).worth) }
        }
        if let given = try await givenAway(by: scope, from: from, until: until, at: time) {
            cost.givenAway = given.tally
            for grant in given.grants {
                losses.addCounted(atMillis: grant.grant.record.millis, worth: grant.worth.map { [$0.currency: $0.amount] } ?? [:])
            }
        }
        return IncidentFigures(cost: cost, losses: losses, owed: owed)
    }

    /// The refunds of `[from, until)` that `isCounted` keeps, as a refund alert's cost counts them: those of
    /// charges never granted left out (counted as charges taken and not granted) and their number, nil for
    /// none.
    func countedRefunds(
        from: Int64, until: Int64, where isCounted: (ChargeLedger.Charge) -> Bool
    ) async throws -> (refunds: [ChargeLedger.Charge], ofChargesNeverGranted: Int?) {
        let seen = try await store.refundLedger(fromMillis: from * .millisPerSecond, toMillis: until * .millisPerSecond, rule: policy.reconciliation)
            .refundCauses(rule: policy.reconciliation).filter { isCounted($0.refund) }
        let refunds = seen.filter { $0.cause != .neverGranted }.map(\.refund)
        return (refunds, seen.count > refunds.count ? seen.count - refunds.count : nil)
    }

    /// The failures and cancels of the events of `filters` in each quarter hour of `[from, until)`: what
    /// lost successes are spread by.
    private func failuresByQuarterHour(
        from: Int64, until: Int64, filters: [EventDimension: Set<String?>]
    ) async throws -> [(startSeconds: Int64, weight: Double)] {
        guard until > from else { return [] }
        let step = LossTimeline.stepSeconds
        let series = try await store.series([
            CountQuery(fromSeconds: from, toSeconds: until, step: TimeStep(seconds: step), groupBy: [], filters: filters)
        ]
        )[0]
        return (series.columns.isEmpty ? [] : series.dense(0)).enumerated().map { index, counts in
            (max(from, series.startSeconds + Int64(index) * step), Double(counts.failure + counts.cancel))
        }
    }

    /// The grants made in `[from, until)` that `scope`'s grant alerts count (repeats of the products its
    /// DoubleGrant alerts named, grants without a charge at `time` of those its GrantedWithoutCharge alerts
    /// named), each once, and their tally; nil without such alerts.
    private func givenAway(
        by scope: IncidentCostScope, from: Int64, until: Int64, at time: Int64
    ) async throws -> (tally: ChargeTally, grants: [GrantEvidence.Example])? {
        guard !scope.doubleGrants.isEmpty || !scope.grantsWithoutCharge.isEmpty else { return nil }
        let read = try await storeRecord(from: from, to: time)
        let audit = try await grantAudit(from: from, to: time, ledger: read.charges, activity: read.activity)
        func key(_ grant: GrantAudit.Grant) -> IncidentCostScope.ChargeKey { .init(store: grant.store?.rawValue, product: grant.record.productID) }
        var grants = audit.repeats(from: from * .millisPerSecond, through: until * .millisPerSecond - 1).filter {
            scope.doubleGrants.contains(key($0.grant))
        }
        .map { GrantEvidence.Example(grant: $0.grant, first: $0.first) }
        if !scope.grantsWithoutCharge.isEmpty {
            grants += audit.withoutCharge(from: from * .millisPerSecond, through: until * .millisPerSecond - 1, at: time * .millisPerSecond).filter {
                scope.grantsWithoutCharge.contains(key($0))
            }
            .map { GrantEvidence.Example(grant: $0, first: nil) }
        }
        // A grant both granted again and without a charge counts once.
        var seen = Set<String>()
        let counted = grants.filter { seen.insert($0.grant.record.eventID).inserted }
        var worth: [String: Double] = [:]
        for grant in counted { if let price = grant.worth { worth[price.currency, default: 0] += price.amount } }
        return (ChargeTally(count: counted.count, worth: worth), counted)
    }
}
