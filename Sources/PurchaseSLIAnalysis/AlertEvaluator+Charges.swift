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
        let keyCount = ledger.productKeys.count
        /// A product's charges not granted: how many, the oldest 10, the amounts per currency position,
        /// those Play refunds within a day.
        struct Ungranted {
            var count = 0
            var oldest: [ChargeLedger.Charge] = []
            var amounts: [(amount: Double, charges: Int)]
            var refundedSoon = 0
        }
        // Counted on the ledger's flat facts, without copying or hashing a charge: an incident leaves
        // thousands ungranted, and walking an alert back evaluates every minute.
        var ungranted = [Ungranted](
            repeating: Ungranted(amounts: Array(repeating: (0, 0), count: ledger.currencies.count)), count: keyCount)
        let lookback = rule.ticketLookbackSeconds * 1000
        let playAcknowledgeMillis = SLOPolicy.ReconciliationRule.playAcknowledgeSeconds * 1000
        let earliest = now - max(lookback, playAcknowledgeMillis)
        let overdue = ChargeLedger.slice(ledger.overdueCharges, from: earliest, through: graceEnded).indices
        var firingCount = 0
        for index in overdue {
            let facts = ledger.overdueFacts[index]
            guard facts.receivedMillis <= now, !facts.isGranted(by: now),
                  facts.eventMillis >= now - (facts.isGoogle ? max(lookback, playAcknowledgeMillis) : lookback)
            else { continue }
            firingCount += 1
            ungranted[facts.product].count += 1
            if ungranted[facts.product].oldest.count < 10 { ungranted[facts.product].oldest.append(ledger.overdueCharges[index]) }
            if facts.isGoogle, now - facts.eventMillis >= playAcknowledgeMillis - 86_400_000 { ungranted[facts.product].refundedSoon += 1 }
            if facts.currency >= 0 {
                ungranted[facts.product].amounts[facts.currency].amount += facts.price
                ungranted[facts.product].amounts[facts.currency].charges += 1
            }
        }
        guard firingCount > 0 else { return [] }
        var windowCharges = [(charges: Int, ungranted: Int)](repeating: (0, 0), count: keyCount)
        var storeWindow: [Store: (charges: Int, ungranted: Int)] = [:]
        for index in ChargeLedger.slice(ledger.expectedCharges, from: windowStart, through: graceEnded).indices {
            let facts = ledger.expectedFacts[index]
            guard facts.receivedMillis <= now else { continue }
            let missing = facts.isGranted(by: now) ? 0 : 1
            windowCharges[facts.product].charges += 1
            windowCharges[facts.product].ungranted += missing
            storeWindow[ledger.productKeys[facts.product].store, default: (0, 0)].charges += 1
            storeWindow[ledger.productKeys[facts.product].store, default: (0, 0)].ungranted += missing
        }
        func breaches(_ counts: (charges: Int, ungranted: Int)) -> Bool {
            counts.ungranted >= rule.pageMinimum && Double(counts.ungranted) > rule.pageShare * Double(counts.charges)
        }
        let firing = ungranted.indices.filter { ungranted[$0].count > 0 }.sorted { ledger.productKeys[$0] < ledger.productKeys[$1] }
        return firing.map { position in
            let found = ungranted[position], key = ledger.productKeys[position]
            let window = windowCharges[position], store = storeWindow[key.store] ?? (0, 0)
            let pages = breaches(window) || (window.ungranted > 0 && breaches(store)) || found.refundedSoon > 0
            let evidence = ChargeEvidence(
                store: key.store, graceSeconds: rule.graceSeconds, lookbackSeconds: rule.ticketLookbackSeconds, ungranted: found.count,
                amounts: found.amounts.indices.filter { found.amounts[$0].charges > 0 }
                    .map { ChargeEvidence.Amount(currency: ledger.currencies[$0], amount: found.amounts[$0].amount, charges: found.amounts[$0].charges) }
                    .sorted { ($0.amount, $1.currency) > ($1.amount, $0.currency) },
                oldest: found.oldest,
                windowSeconds: rule.pageWindowSeconds, windowCharges: window.charges, windowUngranted: window.ungranted,
                storeWindowCharges: store.charges, storeWindowUngranted: store.ungranted, refundedWithinADay: found.refundedSoon)
            return AlertFinding(
                kind: .chargedNotGranted, severity: pages ? .page : .ticket,
                labels: SeriesLabels(
                    actionType: ActionType.purchase.rawValue, store: key.store.rawValue, slice: .init(dimension: .productID, value: key.productID)),
                time: time, charges: evidence)
        }
    }

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
