public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

extension StoreRecordStore where Self: SQLRecordStore {
    /// The notifications of `kinds` that happened in `[fromMillis, toMillis)` and were received by
    /// `receivedBy` (when given), joined with what the app's events reported about each transaction and
    /// account token over the span around each charge that ``ChargeLedger`` matches. O(n log n + the reports of that span).
    public func ledger(
        kinds: Set<StoreEventKind>, fromMillis: Int64, toMillis: Int64, receivedBy: Int64? = nil, rule: SLOPolicy.ReconciliationRule
    ) async throws -> ChargeLedger {
        var notifications = try await self.notifications(kinds: kinds, fromMillis: fromMillis, toMillis: toMillis)
        if let receivedBy { notifications.removeAll { $0.receivedMillis > receivedBy } }
        return try await ledger(of: notifications, fromMillis: fromMillis, toMillis: toMillis, rule: rule)
    }

    /// `notifications`, those of `[fromMillis, toMillis)` read, joined with what the app's events reported
    /// about them: see ``ledger(kinds:fromMillis:toMillis:receivedBy:rule:)``.
    public func ledger(
        of notifications: [ReceivedNotification], fromMillis: Int64, toMillis: Int64, rule: SLOPolicy.ReconciliationRule
    ) async throws -> ChargeLedger {
        var keys = Set<ClientReport.Key>()
        for received in notifications {
            if let id = received.notification.transactionID { keys.insert(.transactionID(id)) }
            if let token = received.notification.appAccountToken { keys.insert(.appAccountToken(token)) }
        }
        let reports = try await clientReports(
            keys, fromMillis: fromMillis - ChargeLedger.reportsBeforeChargeMillis,
            toMillis: toMillis + ChargeLedger.reportsAfterChargeMillis + 1)
        let charged = Set(notifications.lazy.filter { $0.notification.kind == .charge }.compactMap(\.notification.transactionID))
        return ChargeLedger(notifications: notifications, reports: reports, rule: rule, settlements: try await chargeSettlements(naming: charged))
    }

    /// What settled the charges of `transactionIDs` other than a grant, whatever its time (the refunds
    /// naming them, what make-whole delivered and write-offs), by ``ChargeSettlement/key(store:transactionID:)``:
    /// a charge read for any range is owed or settled alike.
    public func chargeSettlements(naming transactionIDs: Set<String>) async throws -> [String: ChargeSettlement] {
        guard !transactionIDs.isEmpty else { return [:] }
        return await ChargeSettlement.byCharge(
            refunds: try notifications(of: .refund, naming: transactionIDs),
            deliveries: try await MakeWholeDeliveryRepository(sql).deliveries(naming: transactionIDs))
    }

    /// The rows `query` counts of the stores' charges and refunds, grants judged by `rule`: what
    /// `query --of charges` and `GET /v1/query?of=charges` answer.
    public func chargeCounts(_ query: ChargeCountQuery, rule: SLOPolicy.ReconciliationRule) async throws -> [ChargeCounts.Row] {
        let ledger = try await ledger(
            kinds: [.charge, .refund], fromMillis: query.fromSeconds * .millisPerSecond, toMillis: query.toSeconds * .millisPerSecond, rule: rule)
        return query.rows(ledger: ledger, rule: rule)
    }

    /// The grants the app's events of `[fromMillis, toMillis)` reported, joined with the charge
    /// notifications naming their transactions, and those of the ``GrantAudit/repeatSpanMillis`` before
    /// them that they may repeat (``GrantAudit``); `ledger` holds the charges of the time around them and
    /// `activity` the stores' charges per product of the week before. Unless `complete`, when no charge is
    /// stored (no grant can be without one) the audit holds only the grants its alerts and lists read:
    /// the repeats, the grants they repeat, and every grant of `rule`'s page window before each repeat
    /// and its ticket lookback after (``repeatAudit(fromMillis:toMillis:ledger:activity:rule:)``).
    /// O(grants log grants).
    public func grantAudit(
        fromMillis: Int64, toMillis: Int64, ledger: ChargeLedger, activity: StoreActivitySeries, rule: SLOPolicy.ReconciliationRule,
        complete: Bool = false
    ) async throws -> GrantAudit {
        let charged = try await holdsCharges()
        guard complete || charged else {
            return try await repeatAudit(fromMillis: fromMillis, toMillis: toMillis, ledger: ledger, activity: activity, rule: rule)
        }
        let grants = try await grants(fromMillis: fromMillis, toMillis: toMillis)
        // Before them, only the grants of their transactions that a repeat can repeat: those of the grants
        // of the span's first ``GrantAudit/repeatSpanMillis`` (a later grant's span lies within the grants read).
        let repeating = grants.prefix { $0.millis - fromMillis < GrantAudit.repeatSpanMillis }.map(\.transactionID)
        let earlier =
            repeating.isEmpty
            ? [] : try await self.grants(fromMillis: fromMillis - GrantAudit.repeatSpanMillis, toMillis: fromMillis, of: .transactions(repeating))
        // Without a charge stored (events alone), no transaction is named to look one up.
        let charges = charged ? try await notifications(of: .charge, naming: Set(grants.map(\.transactionID))) : []
        return GrantAudit(grants: grants, earlier: earlier, charges: charges, ledger: ledger, activity: activity, rule: rule)
    }

    /// The audit of ``grantAudit(fromMillis:toMillis:ledger:activity:rule:complete:)`` without charges to
    /// join, from the grants' fingerprints first (``GrantFingerprint/repeating(_:fromMillis:spanMillis:)``):
    /// whole grants are read only of the transactions that may repeat (over the span before each such
    /// grant) and of the windows around those grants that a DoubleGrant alert counts (every grant of the
    /// page window before an evaluation that finds one, which can be up to the ticket lookback after it).
    /// Its repeats and its grants of those windows are those of the complete audit.
    private func repeatAudit(
        fromMillis: Int64, toMillis: Int64, ledger: ChargeLedger, activity: StoreActivitySeries, rule: SLOPolicy.ReconciliationRule
    ) async throws -> GrantAudit {
        let span = GrantAudit.repeatSpanMillis
        let found = GrantFingerprint.repeating(
            try await grantFingerprints(fromMillis: fromMillis - span, toMillis: toMillis), fromMillis: fromMillis, spanMillis: span)
        guard let firstTime = found.times.first else {
            return GrantAudit(grants: [], charges: [], ledger: ledger, activity: activity, rule: rule)
        }
        let transactions = try await grants(fromMillis: firstTime - span, toMillis: toMillis, of: .fingerprints(found.fingerprints))
        var windows: [Range<Int64>] = []
        for time in found.times {
            let window =
                max(
                    fromMillis, time - rule.pageWindowSeconds * .millisPerSecond)..<min(
                    toMillis, time + rule.ticketLookbackSeconds * .millisPerSecond)
            if let last = windows.last, window.lowerBound <= last.upperBound {
                windows[windows.count - 1] = last.lowerBound..<max(last.upperBound, window.upperBound)
            } else {
                windows.append(window)
            }
        }
        var grants: [GrantRecord] = []
        for window in windows { grants += try await self.grants(fromMillis: window.lowerBound, toMillis: window.upperBound) }
        // The transactions' grants outside the windows (those inside were read with them); both by time.
        var window = 0
        grants += transactions.filter { grant in
            while window < windows.count, windows[window].upperBound <= grant.millis { window += 1 }
            return grant.millis >= fromMillis && !(window < windows.count && windows[window].contains(grant.millis))
        }
        return GrantAudit(
            grants: grants, earlier: transactions.filter { $0.millis < fromMillis }, charges: [], ledger: ledger, activity: activity, rule: rule)
    }

}

extension StoreRecordStore {
    /// The refunds (and revocations, voided purchases) that happened in `[fromMillis, toMillis)`, with the
    /// charges of their transactions whatever their time, joined with what the app reported about each:
    /// what ``ChargeLedger/refundCauses(rule:)`` reads.
    public func refundLedger(fromMillis: Int64, toMillis: Int64, rule: SLOPolicy.ReconciliationRule) async throws -> ChargeLedger {
        let refunds = try await notifications(kinds: [.refund], fromMillis: fromMillis, toMillis: toMillis)
        let charges = try await notifications(of: .charge, naming: Set(refunds.compactMap(\.notification.transactionID)))
        var keys = Set<ClientReport.Key>()
        var earliest = fromMillis
        for received in charges {
            if let id = received.notification.transactionID { keys.insert(.transactionID(id)) }
            if let token = received.notification.appAccountToken { keys.insert(.appAccountToken(token)) }
            earliest = min(earliest, received.notification.eventMillis)
        }
        let reports = try await clientReports(
            keys, fromMillis: earliest - ChargeLedger.reportsBeforeChargeMillis, toMillis: toMillis + ChargeLedger.reportsAfterChargeMillis + 1)
        return ChargeLedger(notifications: refunds + charges, reports: reports, rule: rule)
    }
}

extension StoreRecordStore {
    /// The answers the ledger supports to the App Store `CONSUMPTION_REQUEST` notifications received in
    /// `[fromMillis, toMillis)` (``ConsumptionAnswer/drafts(requests:reports:rule:)``), from what the app
    /// reported about each purchase by then.
    public func consumptionAnswers(fromMillis: Int64, toMillis: Int64, rule: SLOPolicy.ReconciliationRule) async throws -> [ConsumptionAnswer] {
        // Signed before it was received, by up to Apple's last retry (72 hours): read from 4 days before.
        let requests = try await notifications(kinds: [.other], fromMillis: fromMillis - 4 * .millisPerDay, toMillis: toMillis).filter {
            $0.notification.type == ConsumptionAnswer.requestType && $0.receivedMillis >= fromMillis && $0.receivedMillis < toMillis
        }
        var keys = Set<ClientReport.Key>()
        var earliest = fromMillis
        for received in requests {
            if let id = received.notification.transactionID { keys.insert(.transactionID(id)) }
            if let token = received.notification.appAccountToken { keys.insert(.appAccountToken(token)) }
            earliest = min(earliest, received.notification.purchaseMillis ?? received.notification.signedMillis)
        }
        let reports = try await clientReports(
            keys, fromMillis: earliest - ChargeLedger.reportsBeforeChargeMillis, toMillis: toMillis + ChargeLedger.reportsAfterChargeMillis + 1)
        return ConsumptionAnswer.drafts(requests: requests, reports: reports, rule: rule)
    }
}
