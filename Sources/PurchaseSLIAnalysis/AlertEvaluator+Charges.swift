import PurchaseSLICore

extension AlertEvaluator {
    /// ChargedNotGranted per store and product at `time`: a ticket while any charge the policy expects a
    /// grant for is past its grace with no grant (charged within the ticket lookback, and known to the
    /// store's notifications by then); a page when, among the charges whose grace ended within the page
    /// window, more than `pageShare` of the product's, or of all the store's, are ungranted, and at
    /// least `pageMinimum` of them. A Play charge stays ticketed until Play refunds it (3 days unless the
    /// purchase is acknowledged, which a grant does) and pages in its last day.
    /// O(charges in the page window + overdue charges in the lookback).
    func chargedNotGranted(at time: Int64, ledger: ChargeLedger) -> [AlertFinding] {
        guard !ledger.overdueCharges.isEmpty else { return [] }
        let rule = policy.reconciliation
        let now = time * 1000
        let graceEnded = now - rule.graceSeconds * 1000
        let windowStart = graceEnded - rule.pageWindowSeconds * 1000
        struct Key: Hashable, Comparable {
            var store: Store
            var productID: String
            static func < (lhs: Key, rhs: Key) -> Bool { (lhs.store, lhs.productID) < (rhs.store, rhs.productID) }
        }
        var ungranted: [Key: [ChargeLedger.Charge]] = [:]
        let lookback = rule.ticketLookbackSeconds * 1000
        let earliest = now - max(lookback, Self.playAcknowledgeMillis)
        for charge in ChargeLedger.slice(ledger.overdueCharges, from: earliest, through: graceEnded)
        where charge.receivedMillis <= now && !charge.isGranted(by: now)
            && charge.eventMillis >= now - (charge.notification.store == .google ? max(lookback, Self.playAcknowledgeMillis) : lookback) {
            ungranted[Key(store: charge.notification.store, productID: charge.productID), default: []].append(charge)
        }
        guard !ungranted.isEmpty else { return [] }
        var windowCharges: [Key: (charges: Int, ungranted: Int)] = [:]
        var storeWindow: [Store: (charges: Int, ungranted: Int)] = [:]
        for charge in ChargeLedger.slice(ledger.expectedCharges, from: windowStart, through: graceEnded) where charge.receivedMillis <= now {
            let key = Key(store: charge.notification.store, productID: charge.productID)
            let missing = charge.isGranted(by: now) ? 0 : 1
            windowCharges[key, default: (0, 0)].charges += 1
            windowCharges[key, default: (0, 0)].ungranted += missing
            storeWindow[key.store, default: (0, 0)].charges += 1
            storeWindow[key.store, default: (0, 0)].ungranted += missing
        }
        func breaches(_ counts: (charges: Int, ungranted: Int)) -> Bool {
            counts.ungranted >= rule.pageMinimum && Double(counts.ungranted) > rule.pageShare * Double(counts.charges)
        }
        return ungranted.keys.sorted().map { key in
            let charges = ungranted[key]!
            let window = windowCharges[key] ?? (0, 0), store = storeWindow[key.store] ?? (0, 0)
            let refundedSoon = charges.filter { $0.notification.store == .google && now - $0.eventMillis >= Self.playAcknowledgeMillis - 86_400_000 }.count
            let pages = breaches(window) || (window.ungranted > 0 && breaches(store)) || refundedSoon > 0
            var amounts: [String: ChargeEvidence.Amount] = [:]
            for charge in charges {
                guard let price = charge.notification.price, let currency = charge.notification.currency else { continue }
                amounts[currency, default: ChargeEvidence.Amount(currency: currency, amount: 0, charges: 0)].amount += price
                amounts[currency]!.charges += 1
            }
            let evidence = ChargeEvidence(
                store: key.store, graceSeconds: rule.graceSeconds, lookbackSeconds: rule.ticketLookbackSeconds, ungranted: charges.count,
                amounts: amounts.values.sorted { ($0.amount, $1.currency) > ($1.amount, $0.currency) }, oldest: Array(charges.prefix(10)),
                windowSeconds: rule.pageWindowSeconds, windowCharges: window.charges, windowUngranted: window.ungranted,
                storeWindowCharges: store.charges, storeWindowUngranted: store.ungranted, refundedWithinADay: refundedSoon)
            return AlertFinding(
                kind: .chargedNotGranted, severity: pages ? .page : .ticket,
                labels: SeriesLabels(
                    actionType: ActionType.purchase.rawValue, store: key.store.rawValue, slice: .init(dimension: .productID, value: key.productID)),
                time: time, charges: evidence)
        }
    }

    /// How long Play waits for a purchase to be acknowledged before it refunds it: 3 days.
    static let playAcknowledgeMillis: Int64 = 3 * 86_400_000

    /// RefundSpike per store and product at `time`: refunds and revocations per charge over the last
    /// `refundWindow` of whole hours against the same window on each of the `refundBaselineDays` previous
    /// days, with the exact rate test the other spikes use (Bonferroni over the products tested). Nothing
    /// is tested until the activity covers every baseline window. O(products).
    func refundSpikes(at time: Int64, activity: StoreActivitySeries) -> [AlertFinding] {
        let rule = policy.reconciliation
        let end = time - time.floorDividedBy(3600).remainder, window = rule.refundWindowSeconds
        let days = max(1, rule.refundBaselineDays)
        guard end - Int64(days) * 86_400 - window >= activity.startSeconds else { return [] }
        let keys = activity.keys
        let significance = policy.spikes.significance / Double(max(1, keys.count))
        return keys.compactMap { key in
            let now = activity.counts(key, from: end - window, to: end)
            let baseline = (1...days).map { day in
                let shifted = end - Int64(day) * 86_400
                let counts = activity.counts(key, from: shifted - window, to: shifted)
                return RateSample(observed: counts.refunds, exposure: counts.charges)
            }
            return rateSpike(
                .refundSpike,
                SeriesLabels(actionType: ActionType.purchase.rawValue, store: key.store.rawValue, slice: .init(dimension: .productID, value: key.productID)),
                now: RateSample(observed: now.refunds, exposure: now.charges),
                baseline: (baseline, "the same \(TimeStep(seconds: window)) on the previous \(days) day\(days == 1 ? "" : "s")"),
                measure: "\(key.store.displayName) refunds and revocations per charge", windowSeconds: window,
                minimumCount: Int64(rule.refundMinimumCount), significance: significance, time: time)
        }
    }
}
