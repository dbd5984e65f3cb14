public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

/// Reads what alert evaluation needs from the store, and adds to each finding the context a person on
/// call needs (top errors, where the failures concentrate, budget left). `alerts` and `serve --notify`
/// both evaluate through it (see `AlertContext+Evaluation.swift`).
public struct AlertContext: Sendable {
    /// Where the counts are read: the app's view of the store when evaluated for one app.
    public let store: any PurchaseStore
    /// The app evaluated (``AppScopedStore``), or nil for every app; each report names it.
    public let app: String?
    /// The store of every app: clients report the events they dropped without naming an app, so the share
    /// dropped is of every app's events.
    private let everyApp: any PurchaseStore
    /// The SLOs and alert rules applied: the app's own objectives in place of the policy's when one app is
    /// evaluated (``PurchaseSLIAnalysis/SLOPolicy/judging(app:)``).
    public let policy: SLOPolicy
    /// The database file the reports' "look next" queries name (`--db`), or nil to leave it out.
    public var databasePath: String?
    /// The address of the page that shows the alerts (`https://…/oncall.html`), to which each report links
    /// with its anchor; nil without a base URL.
    public var alertPageURL: String?
    /// The address of the directory the pages are published in (`https://…`), to which each report's
    /// incident links (`incident-….html`); nil without a base URL.
    public var pagesURL: String?
    /// The alert rules evaluated (``AlertRules/standard(for:)`` unless told).
    public var rules: [any AlertRule]
    /// The stored maintenance windows of every app and, when one app is evaluated, of that app
    /// (``MaintenanceWindowRepository``), as read when the context was made: a context kept for long is
    /// ``reloaded()`` before each use.
    public private(set) var storedMaintenance: [MaintenanceWindow]
    /// The minute series read, kept from one evaluation to the next (`serve`'s each minute) so that each
    /// reads only what changed; nil to read everything each time.
    public var keptSeries: KeptMinuteSeries?

    /// Creates a context reading `store` (only `app`'s series and notifications when given) under
    /// `policy`, evaluating `rules` (by default the standard ones), with the maintenance windows stored now.
    public init(
        store: any PurchaseStore, policy: SLOPolicy, app: String? = nil, databasePath: String? = nil, alertPageURL: String? = nil,
        pagesURL: String? = nil, rules: [any AlertRule]? = nil
    ) async throws {
        self.init(
            store: store, storedMaintenance: try await Self.storedWindows(in: store, seenBy: app), policy: policy, app: app,
            databasePath: databasePath, alertPageURL: alertPageURL, pagesURL: pagesURL, rules: rules)
    }

    /// Creates a context as ``init(store:policy:app:databasePath:alertPageURL:pagesURL:rules:)`` does, with
    /// the stored maintenance windows given (those `app` does not see are left out).
    public init(
        store: any PurchaseStore, storedMaintenance: [MaintenanceWindow], policy: SLOPolicy, app: String? = nil, databasePath: String? = nil,
        alertPageURL: String? = nil, pagesURL: String? = nil, rules: [any AlertRule]? = nil
    ) {
        self.store = app.map { AppScopedStore(store, app: $0) } ?? store
        self.app = app
        self.everyApp = store
        self.policy = policy.judging(app: app)
        self.databasePath = databasePath
        self.alertPageURL = alertPageURL
        self.pagesURL = pagesURL
        self.rules = rules ?? AlertRules.standard(for: self.policy)
        self.storedMaintenance = Self.windows(storedMaintenance, seenBy: app)
    }

    /// The same context with the maintenance windows stored now.
    public func reloaded() async throws -> AlertContext {
        var context = self
        context.storedMaintenance = try await Self.storedWindows(in: everyApp, seenBy: app)
        return context
    }

    /// The windows `store` keeps that `app` sees (``windows(_:seenBy:)``).
    private static func storedWindows(in store: any SQLRecordStore, seenBy app: String?) async throws -> [MaintenanceWindow] {
        windows(try await MaintenanceWindowRepository(store.sql, app: app).windows(), seenBy: app)
    }

    /// Of `windows`, those of every app and of `app`: a window of one app cannot be taken out of every
    /// app's counts, so it is left out only where that app is evaluated alone.
    private static func windows(_ windows: [MaintenanceWindow], seenBy app: String?) -> [MaintenanceWindow] {
        windows.filter { $0.app.isEmpty || $0.app == app }
    }

    /// The evaluator of the rules.
    public var evaluator: AlertEvaluator { AlertEvaluator(policy: policy, rules: rules) }

    /// Minute series of every action and slice over `[from, to)`; each action's own series reaches back
    /// further, to the day before its last event before `from` (loss of signal lasts until events flow
    /// again), at most ``lossOfSignalReachSeconds`` back. The grants audited are those evaluations from
    /// `grantsEvaluatedFrom` on can alert on (by default from `from`, as every other input).
    public func inputs(from: Int64, to: Int64, grantsEvaluatedFrom: Int64? = nil) async throws -> AlertInputs {
        try await inputs(from: from, to: to, grantsEvaluatedFrom: grantsEvaluatedFrom, everySlice: false)
    }

    /// ``inputs(from:to:grantsEvaluatedFrom:)``, with `everySlice` the slices that cannot alert read too:
    /// what evaluation would read without leaving them out, which the tests hold its findings to.
    func inputs(from: Int64, to: Int64, grantsEvaluatedFrom: Int64?, everySlice: Bool) async throws -> AlertInputs {
        // One read of the minute buckets for the action and every slice dimension, from a whole minute.
        let from = from - from.floorDividedBy(.secondsPerMinute).remainder
        let actionsFrom = try await activityStart(before: from)
        let groupings = [[EventDimension.actionType]] + policy.slices.map { [.actionType, $0] }
        let readable = everySlice ? [:] : try await slicesThatCanAlert(from: from, to: to)
        // Events without a value of a slice dimension are no slice: not read. Nor is a slice that cannot alert.
        let queries = groupings.enumerated().map { index, grouping in
            CountQuery(
                fromSeconds: index == 0 ? actionsFrom : from, toSeconds: to, step: TimeStep(seconds: .secondsPerMinute), groupBy: grouping,
                filters: grouping.count > 1 ? readable[grouping[1]].map { [grouping[1]: $0] } ?? [:] : [:],
                requiredValues: Set(grouping.dropFirst()))
        }
        var answers: [CountSeries]
        if let keptSeries {
            answers = try await keptSeries.series(queries, from: store)
        } else {
            answers = try await store.series(queries)
        }
        // The answers handed over whole, so that the inputs' running sums are written over their counts.
        let overall = answers.removeFirst()
        var slices: [EventDimension: CountSeries] = [:]
        for (dimension, answer) in zip(policy.slices, answers) where slices[dimension] == nil { slices[dimension] = answer }
        answers.removeAll()
        var inputs = AlertInputs(startSeconds: from, endSeconds: to, overall: consume overall, slices: consume slices)
        inputs.weightedActions = try await weightedActions(from: actionsFrom, to: to)
        (inputs.charges, inputs.storeActivity) = try await storeRecord(from: from, to: to)
        inputs.grants = try await grantAudit(
            from: max(from, grantsEvaluatedFrom ?? from), to: to, ledger: inputs.charges, activity: inputs.storeActivity)
        // The audit holds the grants that evaluations from a hold before its start alert on.
        inputs.grantsEvaluableFromSeconds = grantsEvaluatedFrom.map { max(from, $0) - evaluator.longestHoldSeconds }
        if let objective = policy.reconciliation.timeToGrant {
            let chargesFrom = (from - chargeReachSeconds) * .millisPerSecond
            let grants = try await grants(
                granting: inputs.charges, fromMillis: chargesFrom - ChargeLedger.reportsBeforeChargeMillis, toMillis: to * .millisPerSecond)
            inputs.grantTimeSeries = GrantTimes(ledger: inputs.charges, grants: grants, withinSeconds: objective.withinSeconds)
                .series(startSeconds: from - chargeReachSeconds, endSeconds: to)
        }
        inputs.leaveOut(maintenance())
        return inputs
    }

    /// Per slice dimension of the policy, the values whose slices a rule may need over `[from, to)`
    /// (``PurchaseSLIAnalysis/AlertRule/readsSlice(_:totals:)``, for any action), from one read of the span's
    /// totals (mostly hour and day rollups).
    func slicesThatCanAlert(from: Int64, to: Int64) async throws -> [EventDimension: Set<String?>] {
        let dimensions = Array(Set(policy.slices)).sorted { $0.rawValue < $1.rawValue }
        let totals = try await store.counts(
            dimensions.map { CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.actionType, $0], requiredValues: [$0]) })
        var readable: [EventDimension: Set<String?>] = [:]
        for (dimension, rows) in zip(dimensions, totals) {
            readable[dimension] = Set(
                rows.filter { row in rules.contains { $0.readsSlice(dimension, totals: row.counts) } }.map { $0.key[1] })
        }
        return readable
    }

    /// Where `action`'s failures over `[from, to)` concentrate (``PurchaseSLIAnalysis/SliceShare/concentration(of:among:)``),
    /// among its slices of every dimension of the policy, counted by the store: the slices that cannot
    /// alert, which evaluation does not read minute by minute, count as much as the others.
    func failureConcentration(in action: String, from: Int64, to: Int64) async throws -> [SliceShare] {
        let dimensions = Array(Set(policy.slices)).sorted { $0.rawValue < $1.rawValue }
        let filters: [EventDimension: Set<String?>] = [.actionType: [action]]
        let answers = try await store.counts(
            [CountQuery(fromSeconds: from, toSeconds: to, filters: filters)]
                + dimensions.map { CountQuery(fromSeconds: from, toSeconds: to, groupBy: [$0], filters: filters, requiredValues: [$0]) })
        let slices = zip(dimensions, answers.dropFirst()).flatMap { dimension, rows in
            rows.map { (labels: SeriesLabels(actionType: action, slice: .init(dimension: dimension, value: $0.key[0])), counts: $0.counts) }
        }
        return SliceShare.concentration(
            of: answers[0].first?.counts ?? OutcomeCounts(),
            among: slices.sorted { $0.labels < $1.labels }.compactMap { entry in entry.labels.slice.map { ($0, entry.counts) } })
    }

    /// The maintenance windows in force: the policy's and the stored ones, each for every app or for the
    /// app evaluated (a window of one app cannot be taken out of every app's counts, so it is left out only
    /// where that app is evaluated alone).
    public func maintenance() -> MaintenanceCalendar {
        Self.maintenance(policy: policy, stored: storedMaintenance, app: app)
    }

    /// The maintenance windows in force for `app` (nil: every app): `policy`'s and those of `stored`, each
    /// for every app or for `app`.
    public static func maintenance(policy: SLOPolicy, stored: [MaintenanceWindow], app: String?) -> MaintenanceCalendar {
        MaintenanceCalendar(windows(policy.maintenance, seenBy: app) + windows(stored, seenBy: app))
    }

    /// `read` over `[from, to)` less `read` over each stretch of it that maintenance leaves out of
    /// `action`'s budget: what an objective is judged on.
    func leavingOutMaintenance<Key: Hashable>(
        of action: String, from: Int64, to: Int64, _ read: (Int64, Int64) async throws -> [Key: OutcomeCounts]
    ) async throws -> [Key: OutcomeCounts] {
        var counts = try await read(from, to)
        for range in maintenance().excludedRanges(of: action, from: from, to: to) {
            for (key, excluded) in try await read(range.lowerBound, range.upperBound) {
                counts[key, default: OutcomeCounts()] = counts[key, default: OutcomeCounts()] - excluded
            }
        }
        return counts
    }

    /// The revenue weights of the policy's objectives weighted by revenue, or nil when it has none (or no
    /// price is known to weigh by).
    func revenueWeights() async throws -> RevenueWeights? {
        guard policy.objectives.contains(where: { $0.weight == .revenue }) else { return nil }
        // The events' prices alone: what weighs an event is the same whatever time an evaluation reads.
        return RevenueWeights(prices: try await store.prices(), policy: policy)
    }

    /// The revenue-weighted minute series of each action whose objective weighs by revenue, over
    /// `[from, to)`: one read of its minutes per product and plan.
    private func weightedActions(from: Int64, to: Int64) async throws -> [String: MinuteSeries] {
        let actions = policy.objectives.filter { $0.weight == .revenue }.map(\.actionType)
        guard !actions.isEmpty, let weights = try await revenueWeights() else { return [:] }
        let series = try await store.series([
            CountQuery(
                fromSeconds: from, toSeconds: to, step: TimeStep(seconds: .secondsPerMinute), groupBy: [.actionType, .productID, .planID],
                filters: [.actionType: Set(actions)])
        ])[0]
        var products: [String: [LostPurchases.Product: StepCounts]] = [:]
        for (key, counts) in zip(series.keys, series.columns) {
            products[key[0] ?? "", default: [:]][LostPurchases.Product(productID: key[1], planID: key[2])] = counts
        }
        let minuteCount = Int(max(0, (to - series.startSeconds) / .secondsPerMinute))
        return Dictionary(
            uniqueKeysWithValues: products.map { action, products in
                (
                    action,
                    weights.weightedSeries(
                        labels: SeriesLabels(actionType: action), startSeconds: series.startSeconds, minuteCount: minuteCount, products: products)
                )
            })
    }

    /// The counts `objective` is judged on over `[fromSeconds, toSeconds)` (the events of `filters`):
    /// weighted by revenue when the objective says so and prices are known, else the events; the minutes
    /// maintenance windows leave out of its action's budget not counted; nil without any event.
    public func objectiveCounts(
        _ objective: SLOPolicy.Objective, fromSeconds: Int64, toSeconds: Int64, filters: [EventDimension: Set<String?>]
    ) async throws
        -> OutcomeCounts?
    {
        guard objective.weight == .revenue, let weights = try await revenueWeights() else {
            return try await leavingOutMaintenance(of: objective.actionType, from: fromSeconds, to: toSeconds) { from, to in
                try await store.counts(CountQuery(fromSeconds: from, toSeconds: to, filters: filters)).first.map { [0: $0.counts] } ?? [:]
            }[0]
        }
        let counts = try await leavingOutMaintenance(of: objective.actionType, from: fromSeconds, to: toSeconds) { from, to in
            try await countsByProduct(from: from, to: to, filters: filters)
        }
        return counts.isEmpty ? nil : weights.weighted(counts).counts
    }

    /// The counts `objective` is judged on per `stepSeconds` step (aligned to the epoch) of `[from, to)`,
    /// by step start: its action's events, weighted by price when it weighs revenue, without the minutes
    /// maintenance windows leave out of its budget.
    public func objectiveSeries(
        _ objective: SLOPolicy.Objective, fromSeconds: Int64, toSeconds: Int64, stepSeconds: Int64
    ) async throws -> [Int64: OutcomeCounts] {
        let filters: [EventDimension: Set<String?>] = [.actionType: [objective.actionType]]
        let weights = objective.weight == .revenue ? try await revenueWeights() : nil
        let counts = try await leavingOutMaintenance(of: objective.actionType, from: fromSeconds, to: toSeconds) { from, to in
            try await store.counts(
                CountQuery(
                    fromSeconds: from, toSeconds: to, step: TimeStep(seconds: stepSeconds), groupBy: weights == nil ? [] : [.productID, .planID],
                    filters: filters)
            )
            .reduce(into: [StepProduct: OutcomeCounts]()) { counts, row in
                let product = weights == nil ? nil : LostPurchases.Product(productID: row.key[0], planID: row.key[1])
                counts[StepProduct(step: row.timeSeconds ?? from, product: product), default: OutcomeCounts()] += row.counts
            }
        }
        guard let weights else {
            return counts.reduce(into: [:]) { $0[$1.key.step, default: OutcomeCounts()] += $1.value }
        }
        return Dictionary(grouping: counts, by: \.key.step).mapValues { products in
            weights.weighted(Dictionary(products.compactMap { entry in entry.key.product.map { ($0, entry.value) } }, uniquingKeysWith: +)).counts
        }
    }

    /// A step of a series and, weighted by revenue, a product and plan.
    private struct StepProduct: Hashable {
        var step: Int64
        var product: LostPurchases.Product?
    }

    /// The counts of the events of `filters` over `[from, to)` per product and plan.
    private func countsByProduct(
        from: Int64, to: Int64, filters: [EventDimension: Set<String?>]
    ) async throws -> [LostPurchases.Product: OutcomeCounts] {
        try await store.counts(CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.productID, .planID], filters: filters))
            .reduce(into: [:]) { $0[LostPurchases.Product(productID: $1.key[0], planID: $1.key[1]), default: OutcomeCounts()] += $1.counts }
    }

    /// What evaluations in `[from, to)` read of the stores' notifications, from one read of them: the
    /// charges and refunds they can alert on (charged up to the alert lookback and the longest hold before
    /// `from`) joined with what the app reported about them, and the hourly charges and refunds that refund
    /// spikes compare (back to the first baseline window of the earliest evaluation, held findings
    /// included), counted as ``PurchaseSLIStorage/StoreRecordStore/storeActivity(fromMillis:toMillis:stepSeconds:)`` counts them.
    public func storeRecord(from: Int64, to: Int64) async throws -> (charges: ChargeLedger, activity: StoreActivitySeries) {
        let rule = policy.reconciliation
        let start = from - evaluator.longestHoldSeconds - Int64(rule.refundBaselineDays) * .secondsPerDay - rule.refundWindowSeconds - .secondsPerHour
        let hourStart = start - start.floorDividedBy(.secondsPerHour).remainder
        let (activityFrom, chargesFrom, toMillis) = (
            hourStart * .millisPerSecond, (from - chargeReachSeconds) * .millisPerSecond, to * .millisPerSecond
        )
        let read = try await store.notifications(kinds: [.charge, .refund], fromMillis: min(activityFrom, chargesFrom), toMillis: toMillis)
        func since(_ millis: Int64) -> [ReceivedNotification] {
            millis <= min(activityFrom, chargesFrom) ? read : read.filter { $0.notification.eventMillis >= millis }
        }
        let activity = await StoreActivitySeries(
            rows: try store.storeActivity(of: since(activityFrom), fromMillis: activityFrom, toMillis: toMillis, stepSeconds: .secondsPerHour),
            startSeconds: hourStart, endSeconds: to, environments: rule.environments)
        return (try await store.ledger(of: since(chargesFrom), fromMillis: chargesFrom, toMillis: toMillis, rule: rule), activity)
    }

    /// How far before an evaluation's first minute the charges it reads reach: the alert lookback and the
    /// longest hold (the time-to-grant series start there too, whole minutes).
    private var chargeReachSeconds: Int64 { policy.reconciliation.alertLookbackSeconds + evaluator.longestHoldSeconds }

    /// The app's grants that evaluations in `[from, to)` can alert on (made up to the longest hold and the
    /// ticket lookback, or the page window after the wait when longer, before `from`, and the grants a
    /// repeat repeats), joined with the charges of their transactions; `ledger` tells when the stores'
    /// notifications arrived, `activity` which products they charged (``storeRecord(from:to:)``). Every
    /// grant of the span when `complete`, else perhaps only those the alerts read
    /// (``PurchaseSLIStorage/StoreRecordStore/grantAudit(fromMillis:toMillis:ledger:activity:rule:complete:)``).
    public func grantAudit(
        from: Int64, to: Int64, ledger: ChargeLedger, activity: StoreActivitySeries, complete: Bool = false
    ) async throws -> GrantAudit {
        let rule = policy.reconciliation
        let reach = max(rule.ticketLookbackSeconds, rule.chargeWaitSeconds + rule.pageWindowSeconds) + evaluator.longestHoldSeconds
        return try await store.grantAudit(
            fromMillis: (from - reach) * .millisPerSecond, toMillis: to * .millisPerSecond, ledger: ledger, activity: activity, rule: rule,
            complete: complete)
    }

    /// How far back a loss of signal is followed: the 35 days of minute buckets a store keeps by default.
    public static let lossOfSignalReachSeconds: Int64 = 35 * .secondsPerDay

    /// Where the actions' series start for inputs from `from`: a day and a loss-of-signal window before the
    /// oldest of the actions' newest events before `from`, or before `from`.
    private func activityStart(before from: Int64) async throws -> Int64 {
        let oldestNewest = try await freshness(at: from).newestEventSeconds.values.min() ?? from
        return min(from, oldestNewest) - .secondsPerDay - policy.lossOfSignalWindowSeconds
    }

    /// The newest event of each action before `time`, searched ``lossOfSignalReachSeconds`` back: the
    /// days that hold events first, then the minutes of each action's last such day.
    public func freshness(at time: Int64) async throws -> DataFreshness {
        let day: Int64 = .secondsPerDay
        let days = try await store.series([
            CountQuery(
                fromSeconds: time - Self.lossOfSignalReachSeconds, toSeconds: time, step: TimeStep(seconds: day),
                groupBy: [.actionType])
        ])[0]
        // The minutes of each action's last day with events, in one read.
        var actions: [String] = []
        var minuteQueries: [CountQuery] = []
        for (key, counts) in zip(days.keys, days.columns) {
            guard let action = key[0], let last = counts.steps.last else { continue }
            let dayStart = days.startSeconds(ofStep: last)
            actions.append(action)
            minuteQueries.append(
                CountQuery(
                    fromSeconds: dayStart, toSeconds: min(time, dayStart + day), step: TimeStep(seconds: .secondsPerMinute),
                    groupBy: [.actionType], filters: [.actionType: [action]]))
        }
        var newest: [String: Int64] = [:]
        for (action, minutes) in await zip(actions, try store.series(minuteQueries)) {
            if let lastMinute = minutes.columns.first?.steps.last { newest[action] = minutes.startSeconds(ofStep: lastMinute) }
        }
        let dropped = try await everyApp.clientDroppedEvents(fromMillis: (time - day) * .millisPerSecond, toMillis: time * .millisPerSecond)
        let counted = dropped > 0 ? try await everyApp.counts(CountQuery(fromSeconds: time - day, toSeconds: time)).first?.counts.total ?? 0 : 0
        return DataFreshness(
            atSeconds: time, newestEventSeconds: newest, staleAfterSeconds: policy.lossOfSignalWindowSeconds, clientDroppedEvents: dropped,
            countedEvents: counted)
    }

    /// The report of a finding (or of an episode when `endsAt` is given, whose first finding says when the
    /// trouble showed: `firstBadSeconds`), read at `time`.
    func report(
        _ finding: AlertFinding, startsAt: Int64, endsAt: Int64? = nil, firstBadSeconds: Int64? = nil, severityChanges: [SeverityChange] = [],
        at time: Int64, inputs: AlertInputs
    ) async throws -> AlertReport {
        let evidence = finding.evidence
        let window = evidence.windowSeconds
        let until = endsAt ?? time
        var filters: [EventDimension: Set<String?>] = [.actionType: [finding.labels.actionType]]
        if let slice = finding.labels.slice { filters[slice.dimension] = [slice.value] }
        var report = AlertReport(
            finding: finding, startsAt: startsAt, endsAt: endsAt,
            concentration: evidence.namesConcentration
                ? try await failureConcentration(in: finding.labels.actionType, from: until - window, to: until) : [],
            severityChanges: severityChanges)
        report.firstBadSeconds = firstBadSeconds ?? evidence.firstBadSeconds(of: finding)
        if let reason = evidence.explainedBy {
            var reasonFilters = filters
            reasonFilters[.resultType] = [reason.rawValue]
            let errors = try await store.errorCounts(
                CountQuery(fromSeconds: report.countedFromSeconds, toSeconds: until, groupBy: [.errorDescription], filters: reasonFilters))
            report.topErrors = errors.prefix(3).map { (description: $0.key[0] ?? "", events: $0.events) }
        }
        (report.budgetRemaining, report.budgetBasis) = try await budget(
            of: evidence.objective, labels: finding.labels, until: until, filters: filters)
        let judged = evidence.objective?.weight == .revenue && finding.labels.slice == nil
        if endsAt == nil, let series = judged ? inputs.judgedSeries(of: finding.labels.actionType) : inputs.series(finding.labels) {
            let seconds = policy.recoveryWindowSeconds
            report.current = evidence.current(series.counts(last: seconds, before: time), over: seconds, of: finding)
        }
        let objective = policy.objectives.first { $0.actionType == finding.labels.actionType }
        report.cost = try await cost(of: finding, from: min(startsAt, report.firstBadSeconds ?? startsAt), until: until, filters: filters)
        report.owner = evidence.objective?.owner ?? objective?.owner
        report.runbookURL = evidence.objective?.runbookURL ?? objective?.runbookURL
        report.databasePath = databasePath
        report.app = app
        report.pageURL = alertPageURL.map { "\($0)#\(finding.identity.anchor)" }
        return report
    }

    /// Previous days whose same hours give the usual success rate a cost is measured against.
    public static let costBaselineDays = 7

    /// What an alert cost from `from` (its first bad minute) to `until`, as its evidence counts it
    /// (``AlertEvidence/costMeasure``): the successes its action and slice (`filters`) lost, the charges it
    /// names in full, or the refunds of its product over its window. Nil when nothing can be told.
    private func cost(of finding: AlertFinding, from: Int64, until: Int64, filters: [EventDimension: Set<String?>]) async throws -> AlertCost? {
        switch finding.evidence.costMeasure {
        case .lostSuccesses:
            return try await lostPurchases(
                of: finding.labels.actionType, from: from, until: until, filters: filters, target: finding.evidence.objective?.target
            )
            .map { AlertCost(lost: [finding.labels.actionType: $0]) }
        case .ungrantedCharges(let tally):
            return AlertCost(ungranted: tally)
        case .unpaidGrants(let tally):
            return AlertCost(givenAway: tally)
        case .refunds:
            // As an incident counts them (``figures(of:at:)``): a refund of a charge never granted is counted
            // as that charge, not again.
            let counted = try await countedRefunds(from: finding.time - finding.evidence.windowSeconds, until: until) {
                $0.notification.store.rawValue == finding.labels.store && $0.productID == finding.labels.slice?.value
            }
            var cost = AlertCost(refunded: ChargeTally(counted.refunds))
            cost.refundsOfChargesNeverGranted = counted.ofChargesNeverGranted
            return cost
        case nil:
            return nil
        }
    }

    /// What the failures of `action`'s events of `filters` (its slice) cost over `[from, until)`, per
    /// product and plan against the action's usual rate: that of the same hours of the
    /// ``costBaselineDays`` previous days (whole days further back for a stretch longer than a day, so
    /// that no baseline overlaps it; the days without events not counted), or the objective's `target`
    /// when those hold too few events. Priced for purchases only (a restore or a retry grants what was
    /// bought before).
    package func lostPurchases(
        of action: String, from: Int64, until: Int64, filters: [EventDimension: Set<String?>], target: Double?
    ) async throws -> LostPurchases? {
        guard until > from else { return nil }
        let shift = (until - from + 86_399) / .secondsPerDay * .secondsPerDay
        var baseline: [LostPurchases.Product: OutcomeCounts] = [:]
        var daysWithEvents = 0
        for day in 1...Int64(Self.costBaselineDays) {
            let earlier = try await countsByProduct(from: from - day * shift, to: until - day * shift, filters: [.actionType: [action]])
            if earlier.values.contains(where: { $0.valid > 0 }) { daysWithEvents += 1 }
            baseline.merge(earlier, uniquingKeysWith: +)
        }
        let window = try await countsByProduct(from: from, to: until, filters: filters)
        // Store charges price only what the events do not: read only when a product of the window needs them.
        let prices =
            action == ActionType.purchase.rawValue
            ? try await store.knownPrices(before: until * .millisPerSecond, for: Set(window.keys.map(\.productID))) : nil
        return LostPurchases.estimate(
            window: window, baseline: baseline, baselineDays: daysWithEvents * Int(shift / .secondsPerDay), target: target, prices: prices)
    }

    /// 1 − failures / (error budget × valid) over the objective's window before `until` (for a calendar
    /// month, the month so far against the budget of its valid events so far), and how much of the window
    /// holds its data: days with events, or for a store's time to grant the stretches its notifications cover.
    private func budget(
        of objective: SLOPolicy.Objective?, labels: SeriesLabels, until: Int64, filters: [EventDimension: Set<String?>]
    ) async throws -> (remaining: Double?, basis: BudgetBasis?) {
        guard let objective else { return (nil, nil) }
        let start = objective.window.period(at: until).startSeconds
        if let name = labels.store, let store = Store(rawValue: name) {
            let remaining = try await grantTimeBudgetRemaining(of: store, until: until)
            let basis = try await storeCoverage(from: start, to: until).budgetBasis(of: store, window: objective.window, windowStart: start)
            return (remaining, remaining == nil ? nil : basis)
        }
        let counts = try await objectiveCounts(objective, fromSeconds: start, toSeconds: until, filters: filters)
        guard let remaining = counts.flatMap(objective.budgetSpent).map({ 1 - $0 }) else { return (nil, nil) }
        return (remaining, try await eventBudgetBasis(of: labels.actionType, window: objective.window, windowStart: start, until: until))
    }
}
