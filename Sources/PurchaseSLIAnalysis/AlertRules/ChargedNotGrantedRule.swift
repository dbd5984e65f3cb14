public import PurchaseSLICore

extension AlertFinding.Kind {
    /// Store charges that no grant event named within the grace time (money taken, nothing delivered).
    public static let chargedNotGranted = AlertFinding.Kind(rawValue: "ChargedNotGranted")
}

/// ChargedNotGranted: the stores' charges that the app's events never granted (``ChargeLedger``), per
/// store and product.
public struct ChargedNotGrantedRule: AlertRule {
    /// The policy it applies.
    public let policy: SLOPolicy

    /// The rule of `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    public var kind: AlertFinding.Kind { .chargedNotGranted }
    public var shortName: String { "not granted" }
    /// It lasts while new charges go ungranted (or a Play charge awaits its refund), no longer.
    public var holdSeconds: Int64 { 0 }
    /// It reads the ledger, not the minute series.
    public var reachSeconds: Int64 { 0 }
    /// No slice of the events (its own series are the store's or the ledger's).
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool { false }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        AlertRuleOutcome(findings: findings(at: time, ledger: context.allInputs.charges))
    }

    /// Charges of a product left ungranted go with the product's cancels (the payment detour) and with its
    /// purchases failing (a grant server down after the store charged).
    public func causes(of finding: AlertFinding) -> Set<IncidentCause> {
        Set([IncidentCause.outage(of: finding.labels.actionType)] + (finding.labels.slice.map { [IncidentCause.slice($0)] } ?? []))
    }

    /// ChargedNotGranted per store and product at `time`: it fires while charges keep going ungranted,
    /// that is while a charge the policy expects a grant for became owed within the page window (its grace
    /// ended then, or its notification came then) and has no grant; it counts every charge of the ticket
    /// lookback still owed. Once no new charge goes ungranted it resolves: the charges still owed stay
    /// owed (the ledger's facts, the incident's record), not alerted on. A page when, among the charges
    /// whose grace ended within the page window, more than `pageShare` of the product's, or of all the
    /// store's, are ungranted, and at least `pageMinimum` of them. A Play charge is different: Play
    /// refunds it 3 days after the charge unless the purchase is acknowledged (which a grant does), so
    /// each keeps its product's ticket firing until then and pages in its last day.
    /// O(charges in the page window + overdue charges in the lookback).
    private func findings(at time: Int64, ledger: ChargeLedger) -> [AlertFinding] {
        guard !ledger.overdueCharges.isEmpty else { return [] }
        let rule = policy.reconciliation
        let now = time * .millisPerSecond
        let graceEnded = now - rule.graceSeconds * .millisPerSecond
        let windowStart = graceEnded - rule.pageWindowSeconds * .millisPerSecond
        let keyCount = ledger.productKeys.count
        /// A product's charges not granted: how many, how many became owed within the page window (their
        /// grace ended, or their notification came, then), the oldest 10, the amounts per currency position,
        /// those Play refunds within a day.
        struct Ungranted {
            var count = 0
            var newlyOwed = 0
            var oldest: [ChargeLedger.Charge] = []
            var amounts: [(amount: Double, charges: Int)]
            var refundedSoon = 0
        }
        // Counted on the ledger's flat facts, without copying or hashing a charge: an incident leaves
        // thousands ungranted, and walking an alert back evaluates every minute.
        var ungranted = [Ungranted](
            repeating: Ungranted(amounts: Array(repeating: (0, 0), count: ledger.currencies.count)), count: keyCount)
        let lookback = rule.ticketLookbackSeconds * .millisPerSecond
        let playAcknowledgeMillis = SLOPolicy.ReconciliationRule.playAcknowledgeSeconds * .millisPerSecond
        let earliest = now - max(lookback, playAcknowledgeMillis)
        let overdue = ChargeLedger.slice(ledger.overdueCharges, from: earliest, through: graceEnded).indices
        let newSince = now - rule.pageWindowSeconds * .millisPerSecond
        let graceMillis = rule.graceSeconds * .millisPerSecond
        var firingCount = 0
        for index in overdue {
            let facts = ledger.overdueFacts[index]
            guard facts.receivedMillis <= now, facts.isOwed(at: now),
                facts.eventMillis >= now - (facts.isGoogle ? max(lookback, playAcknowledgeMillis) : lookback)
            else { continue }
            firingCount += 1
            ungranted[facts.product].count += 1
            if max(facts.eventMillis + graceMillis, facts.receivedMillis) > newSince { ungranted[facts.product].newlyOwed += 1 }
            if ungranted[facts.product].oldest.count < 10 { ungranted[facts.product].oldest.append(ledger.overdueCharges[index]) }
            if facts.isGoogle, now - facts.eventMillis >= playAcknowledgeMillis - .millisPerDay { ungranted[facts.product].refundedSoon += 1 }
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
            let missing = facts.isOwed(at: now) ? 1 : 0
            windowCharges[facts.product].charges += 1
            windowCharges[facts.product].ungranted += missing
            storeWindow[ledger.productKeys[facts.product].store, default: (0, 0)].charges += 1
            storeWindow[ledger.productKeys[facts.product].store, default: (0, 0)].ungranted += missing
        }
        func breaches(_ counts: (charges: Int, ungranted: Int)) -> Bool {
            counts.ungranted >= rule.pageMinimum && Double(counts.ungranted) > rule.pageShare * Double(counts.charges)
        }
        let firing = ungranted.indices
            .filter { ungranted[$0].newlyOwed > 0 || (ungranted[$0].count > 0 && ledger.productKeys[$0].store == .google) }
            .sorted { ledger.productKeys[$0] < ledger.productKeys[$1] }
        return firing.map { position in
            let found = ungranted[position]
            let key = ledger.productKeys[position]
            let window = windowCharges[position]
            let store = storeWindow[key.store] ?? (0, 0)
            let pages = breaches(window) || (window.ungranted > 0 && breaches(store)) || found.refundedSoon > 0
            let evidence = ChargeEvidence(
                store: key.store, graceSeconds: rule.graceSeconds, lookbackSeconds: rule.ticketLookbackSeconds, ungranted: found.count,
                amounts: found.amounts.indices.filter { found.amounts[$0].charges > 0 }
                    .map {
                        ChargeEvidence.Amount(currency: ledger.currencies[$0], amount: found.amounts[$0].amount, charges: found.amounts[$0].charges)
                    }
                    .sorted { ($0.amount, $1.currency) > ($1.amount, $0.currency) },
                oldest: found.oldest,
                pageWindowSeconds: rule.pageWindowSeconds, windowCharges: window.charges, windowUngranted: window.ungranted,
                storeWindowCharges: store.charges, storeWindowUngranted: store.ungranted, refundedWithinADay: found.refundedSoon)
            return AlertFinding(
                kind: kind, severity: pages ? .page : .ticket,
                labels: SeriesLabels(
                    actionType: ActionType.purchase.rawValue, store: key.store.rawValue, slice: .init(dimension: .productID, value: key.productID)),
                time: time, evidence: evidence)
        }
    }
}

extension ChargeEvidence: AlertEvidence {
    public var windowSeconds: Int64 { lookbackSeconds }
    /// The charges not granted.
    public var pileCount: Int? { ungranted }
    /// The charges not granted, in full.
    public var costMeasure: AlertCostMeasure? {
        .ungrantedCharges(ChargeTally(count: ungranted, worth: Dictionary(amounts.map { ($0.currency, $0.amount) }, uniquingKeysWith: +)))
    }
    /// The minute of the oldest charge not granted.
    public func firstBadSeconds(of alert: AlertFinding) -> Int64? { oldest.first.map { $0.eventMillis / .millisPerMinute * .secondsPerMinute } }

    /// "coins_100: 3 App Store charges (29.97 USD) taken and not granted within 15 min: money charged, nothing delivered".
    public func summary(of alert: AlertFinding) -> AlertText {
        let money =
            amounts.isEmpty ? "" : " (" + AlertText.joined(amounts.map { "\(money: $0.amount, currency: $0.currency)" }, separator: " + ") + ")"
        return "\(alert.labels.slice?.value ?? ""): \(count: ungranted) \(words: store.displayName) \(words: ungranted == 1 ? "charge" : "charges")"
            + money + " taken and not granted within \(duration: graceSeconds): money charged, nothing delivered"
    }

    /// The window's share, then each of the oldest charges with what the app reported about it.
    public func details(of alert: AlertFinding) -> [AlertText] {
        var window: AlertText =
            "charges whose grace ended in the last \(duration: pageWindowSeconds): \(count: windowUngranted) of "
            + "\(count: windowCharges) not granted"
        if windowCharges > 0 { window = window + " (\(percent: Double(windowUngranted) / Double(windowCharges)))" }
        var lines = [window + "; all \(words: store.displayName) charges: \(count: storeWindowUngranted) of \(count: storeWindowCharges)"]
        if refundedWithinADay > 0 {
            lines.append(
                "\(count: refundedWithinADay) of them Play refunds automatically within a day: a purchase not acknowledged "
                    + "within 3 days is refunded (grant and acknowledge it now)")
        }
        lines.append("\(words: oldest.count < ungranted ? "the oldest \(oldest.count)" : "each"), with what the app last reported:")
        return lines + oldest.map(line)
    }

    /// "2000000123 charged 2026-11-19T16:01:09Z, 4.99 USD (ONE_TIME_CHARGE): the app reported cancel
    /// "payment cancelled" 43 s before, by appAccountToken: the payment-detour pattern".
    private func line(_ charge: ChargeLedger.Charge) -> AlertText {
        let notification = charge.notification
        let charged = notification.eventMillis / .millisPerSecond
        var line: AlertText = "  \(notification.transactionID ?? "(no transaction id)") charged \(time: charged)"
        if let price = notification.price { line = line + ", \(money: price, currency: notification.currency ?? "")" }
        line = line + " (\(notification.type)): "
        if let report = charge.report {
            line = line + "the app reported \(words: report.lastResult.rawValue)"
            if let status = report.lastStatusCode { line = line + " (HTTP \(count: Int64(status)))" }
            if let error = report.lastErrorDescription { line = line + " \"\(String(error.prefix(80)))\"" }
            let offset = (report.lastMillis - notification.eventMillis) / .millisPerSecond
            line = line + " \(seconds: abs(offset)) \(words: offset < 0 ? "before" : "after")"
            if case .appAccountToken = report.key { line = line + ", by appAccountToken" }
            let meaning: String =
                switch report.lastResult {
                case .cancel: ": the payment-detour pattern (the store charged after the app saw a cancel)"
                case .start: " and nothing since: a crash or kill after the charge?"
                case .pending: ": approved later (Ask to Buy); the app must grant it from Transaction.updates"
                case .failure: ": the grant failed and was not retried"
                case .success, .alreadyGranted: ", without naming this transaction"
                }
            line = line + "\(words: meaning)"
        } else {
            line =
                line + "no event of the app names it (by transactionID or appAccountToken): the attempt was never reported, "
                + "or the app does not send these ids"
        }
        if notification.store == .google {
            line = line + "; Play refunds it at \(time: charged + SLOPolicy.ReconciliationRule.playAcknowledgeSeconds) unless acknowledged"
        }
        return line
    }

    /// The command that lists the charges the alert counts (the lookback before its time, judged then), and
    /// where the store shows each one.
    public func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand {
        LookNextCommand(
            "charges",
            [
                "--from", RFC3339.format(seconds: alert.time - lookbackSeconds), "--to", RFC3339.format(seconds: alert.time), "--at",
                RFC3339.format(seconds: alert.time),
                "--store", store.rawValue, "--product=\(alert.labels.slice?.value ?? "")", "--ungranted",
            ],
            note: store == .apple
                ? "each id: App Store Server API GET /inApps/v1/transactions/{transactionId}"
                : "each token: Play Developer API purchases.products.get or purchases.subscriptionsv2.get")
    }
}
