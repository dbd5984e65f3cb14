public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

extension WeeklyReport {
    /// Reads the week and the week before from `store`; alert episodes are a 1-minute backtest of the
    /// week under `policy`, or those of `episodes` that overlap the week, cut to it, when given (a
    /// backtest that covers the week, such as the 5-minute one that shades the dashboards' charts).
    /// Only events before the end of the week count. With `app`, only that app's events and store
    /// notifications are read. The maintenance windows are those stored now.
    public init(week: ISOWeek, store: any PurchaseStore, policy: SLOPolicy, app: String? = nil, episodes: [AlertReport]? = nil) async throws {
        try await self.init(week: week, context: try await AlertContext(store: store, policy: policy, app: app), episodes: episodes)
    }

    /// Reads the week as ``init(week:store:policy:app:episodes:)`` does, through `context` (its store, app,
    /// policy and maintenance windows).
    public init(week: ISOWeek, context: AlertContext, episodes: [AlertReport]? = nil) async throws {
        let (store, policy, app) = (context.store, context.policy, context.app)
        let previousWeek = week.previous
        func totals(_ period: ISOWeek, _ groupBy: [EventDimension]) async throws -> [[String?]: OutcomeCounts] {
            try await store.counts(CountQuery(fromSeconds: period.startSeconds, toSeconds: period.endSeconds, groupBy: groupBy))
                .reduce(into: [:]) { $0[$1.key, default: OutcomeCounts()] += $1.counts }
        }
        let thisWeek = try await totals(week, [.actionType])
        let lastWeek = try await totals(previousWeek, [.actionType])
        let objectiveActions = policy.objectives.map(\.actionType)
        let actionNames = Set(thisWeek.keys.compactMap { $0[0] ?? nil }).union(objectiveActions)
            .sorted { (objectiveActions.firstIndex(of: $0) ?? .max, $0) < (objectiveActions.firstIndex(of: $1) ?? .max, $1) }
        var actions = try await actionNames.asyncMap { action in
            let current = thisWeek[[action]] ?? OutcomeCounts()
            let previous = lastWeek[[action]] ?? OutcomeCounts()
            let objective = policy.objectives.first { $0.actionType == action }
            // Weighted by price where the objective says so, and without the minutes of maintenance windows.
            var judged = current
            if let objective {
                judged =
                    try await context.objectiveCounts(
                        objective, fromSeconds: week.startSeconds, toSeconds: week.endSeconds, filters: [.actionType: [action]]) ?? current
            }
            return ActionWeek(
                actionType: action, objective: objective, current: current, previous: previous,
                comparisons: RateMetric.allCases.map {
                    PeriodComparison($0, current: current, previous: previous, minimumTrials: Self.minimumTrials)
                }, judged: judged)
        }
        var slices: [SliceWeek] = []
        // A plan sold as one product has the very same counts as the product: one row, not two (two plans
        // with equal counts are both kept).
        var productCounts = Set<[OutcomeCounts]>()
        for dimension in [EventDimension.productID, .planID] {
            let now = try await totals(week, [.actionType, dimension])
            let before = try await totals(previousWeek, [.actionType, dimension])
            for (key, current) in now.sorted(by: { ($0.key[1] ?? "") < ($1.key[1] ?? "") }) where key[1] != nil {
                let counts = [thisWeek[[key[0]]] ?? OutcomeCounts(), current, before[key] ?? OutcomeCounts()]
                if dimension == .productID { productCounts.insert(counts) } else if productCounts.contains(counts) { continue }
                slices.append(
                    SliceWeek(
                        slice: SeriesLabels(actionType: key[0] ?? "", slice: .init(dimension: dimension, value: key[1])),
                        current: current,
                        successRate: PeriodComparison(
                            .successRate, current: current, previous: before[key] ?? OutcomeCounts(),
                            minimumTrials: Self.minimumTrials)))
            }
        }
        // One correction over every comparison the report makes.
        var all = actions.flatMap(\.comparisons) + slices.map(\.successRate)
        PeriodComparison.correct(&all)
        var cursor = 0
        for index in actions.indices {
            actions[index].comparisons = Array(all[cursor..<cursor + actions[index].comparisons.count])
            cursor += actions[index].comparisons.count
        }
        for index in slices.indices {
            slices[index].successRate = all[cursor]
            cursor += 1
        }
        slices.sort { left, right in
            (left.successRate.change ?? 0, left.slice) < (right.successRate.change ?? 0, right.slice)
        }
        let shownEpisodes: [AlertReport]
        if let episodes {
            shownEpisodes = Self.clipped(episodes, to: week)
        } else {
            shownEpisodes = try await context.episodeReports(from: week.startSeconds, to: week.endSeconds, stepSeconds: .secondsPerMinute)
        }
        await self.init(
            week: week, actions: actions, slices: slices,
            errors: try Self.errors(
                week, store: store,
                validEvents: (thisWeek.values.reduce(0) { $0 + $1.valid }, lastWeek.values.reduce(0) { $0 + $1.valid })),
            conflictTrend: try await Self.conflictTrend(from: previousWeek.startSeconds, to: week.endSeconds, store: store),
            trendStepSeconds: Self.trendStepSeconds,
            episodes: shownEpisodes,
            freshness: try await context.freshness(at: week.endSeconds),
            storeCoverage: try await Self.storeCoverage(of: week, context: context))
        daysWithEvents = (try await Self.daysWithEvents(week, store: store), try await Self.daysWithEvents(previousWeek, store: store))
        overflow = try await CapOverflow.read(from: store, fromSeconds: week.startSeconds, toSeconds: week.endSeconds)
        moneyAtRisk = try await Self.moneyAtRisk(week, store: store, policy: policy, context: context)
        purchasesLost = try await Self.purchasesLost(week, store: store, policy: policy)
        for (period, isCurrent) in [(week, true), (previousWeek, false)] {
            let ledger = try await store.refundLedger(
                fromMillis: period.startSeconds * .millisPerSecond, toMillis: period.endSeconds * .millisPerSecond, rule: policy.reconciliation)
            let tally = RefundTally(ledger.refundCauses(rule: policy.reconciliation))
            if isCurrent { refunds.current = tally } else { refunds.previous = tally }
        }
        if let objective = policy.reconciliation.timeToGrant,
            let times = try await context.grantTimes(from: previousWeek.startSeconds, to: week.endSeconds)
        {
            grantTimes = GrantTimesWeek(
                objective: objective,
                rows: times.breakdown(
                    from: week.startSeconds * .millisPerSecond, to: week.endSeconds * .millisPerSecond, at: week.endSeconds * .millisPerSecond),
                previous: times.summaries(
                    from: previousWeek.startSeconds * .millisPerSecond, to: week.startSeconds * .millisPerSecond,
                    at: week.startSeconds * .millisPerSecond
                ) {
                    $0.store
                })
        }
        attainmentHistory = try await policy.objectives.asyncMap {
            ($0.actionType, try await context.attainment($0, at: week.endSeconds, zone: week.zone))
        }
        maintenance = try await context.maintenance().bands(from: week.startSeconds, to: week.endSeconds).asyncMap { band in
            let actions = objectiveActions.filter(band.window.covers(action:))
            let leftOut =
                actions.isEmpty
                ? OutcomeCounts()
                : try await store.counts(
                    CountQuery(
                        fromSeconds: band.range.lowerBound, toSeconds: band.range.upperBound, filters: [.actionType: Set(actions.map { $0 })])
                ).reduce(into: OutcomeCounts()) { $0 += $1.counts }
            return MaintenanceWeek(band: band, leftOut: leftOut)
        }
        // The kept record of each incident (its figures as last taken), else the one taken with its alerts.
        let book = IncidentBook(context: context)
        for report in self.episodes {
            guard let incident = report.incident, incidentRecords[incident.id] == nil else { continue }
            if let record = try await book.record(id: incident.id) ?? report.incidentRecord {
                incidentRecords[incident.id] = record
            } else {
                incidentRecords[incident.id] = try await context.record(of: incident, at: week.endSeconds)
            }
        }
        self.app = app
    }

    /// How many of `week`'s days (in its zone) hold at least one event, from one read of its hourly totals.
    private static func daysWithEvents(_ week: ISOWeek, store: any PurchaseStore) async throws -> Int {
        let hour: Int64 = .secondsPerHour
        let series = try await store.series([
            CountQuery(fromSeconds: week.startSeconds, toSeconds: week.endSeconds, step: TimeStep(seconds: hour), groupBy: [])
        ])[0]
        var days = Set<Int64>()
        for step in series.columns.first?.steps ?? [] {
            let start = series.startSeconds(ofStep: step)
            if start >= week.startSeconds, start < week.endSeconds { days.insert((start - week.startSeconds) / .secondsPerDay) }
        }
        return days.count
    }

    /// What the stores' notifications cover of `week` and of the week before, from one read, as known at
    /// the week's end.
    private static func storeCoverage(of week: ISOWeek, context: AlertContext) async throws -> (current: StoreCoverage, previous: StoreCoverage) {
        let previous = week.previous
        let both = try await context.storeCoverage(from: previous.startSeconds, to: week.endSeconds)
        return (
            both.restricted(from: week.startSeconds, to: week.endSeconds), both.restricted(from: previous.startSeconds, to: previous.endSeconds)
        )
    }

    /// The dimensions whose values ``purchasesLost`` ranks.
    static let lossDimensions: [EventDimension] = [.productID, .planID, .offerID, .appVersion]

    /// Per product, plan, offer and app version: the week's purchases that failed beyond the purchase
    /// objective's allowance, priced per product and plan; those beyond chance, most first (none without a
    /// purchase objective).
    private static func purchasesLost(_ week: ISOWeek, store: any PurchaseStore, policy: SLOPolicy) async throws -> [SliceLoss] {
        let purchase = ActionType.purchase.rawValue
        guard let target = policy.objectives.first(where: { $0.actionType == purchase })?.target else { return [] }
        let prices = try await store.knownPrices(before: week.endSeconds * 1000)
        var losses: [SliceLoss] = []
        for dimension in lossDimensions {
            let groupBy = [EventDimension.productID, .planID] + ([.productID, .planID].contains(dimension) ? [] : [dimension])
            let position = groupBy.firstIndex(of: dimension)!
            let rows = try await store.counts(
                CountQuery(fromSeconds: week.startSeconds, toSeconds: week.endSeconds, groupBy: groupBy, filters: [.actionType: [purchase]]))
            var byValue: [String?: [LostPurchases.Product: OutcomeCounts]] = [:]
            for row in rows {
                let product = LostPurchases.Product(productID: row.key[0], planID: row.key[1])
                byValue[row.key[position], default: [:]][product, default: OutcomeCounts()] += row.counts
            }
            for (value, window) in byValue where value != nil {
                // A plan sold as one product is the product's row again.
                let counts = window.values.reduce(OutcomeCounts(), +)
                if dimension == .planID, losses.contains(where: { $0.slice.dimension == .productID && $0.counts == counts }) { continue }
                // Against the objective alone: no baseline, so the estimate is valid events × target − successes.
                guard let lost = LostPurchases.estimate(window: window, baseline: [:], baselineDays: 0, target: target, prices: prices),
                    lost.interval.lowerBound > 0
                else { continue }
                losses.append(
                    SliceLoss(
                        slice: SeriesLabels.Slice(dimension: dimension, value: value), counts: counts, lost: lost))
            }
        }
        return losses.sorted {
            ($0.lost.purchases, $1.slice.dimension.rawValue, $1.slice.value ?? "") > (
                $1.lost.purchases, $0.slice.dimension.rawValue, $0.slice.value ?? ""
            )
        }
    }

    /// Per store and product with charges not granted, refunds or grants no charge paid for in `week` or
    /// the week before: each week's charges and grants judged at its own end (a charge never granted counts
    /// in the week it was charged, a grant in the week it was made).
    private static func moneyAtRisk(_ week: ISOWeek, store: any PurchaseStore, policy: SLOPolicy, context: AlertContext) async throws -> [MoneyAtRisk]
    {
        let rule = policy.reconciliation
        let previousWeek = week.previous
        let ledger = try await store.ledger(
            kinds: [.charge, .refund], fromMillis: previousWeek.startSeconds * .millisPerSecond, toMillis: week.endSeconds * .millisPerSecond,
            receivedBy: week.endSeconds * .millisPerSecond, rule: rule)
        func rows(_ period: ISOWeek) -> [[String?]: ChargeCounts.Row] {
            Dictionary(
                ChargeCounts.rows(
                    ledger: ledger, rule: rule, fromSeconds: period.startSeconds, toSeconds: period.endSeconds, stepSeconds: nil,
                    groupBy: [.store, .productID], atSeconds: period.endSeconds
                ).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        }
        // Both weeks' grants granted again or without a charge, from one read of the store.
        let unpaid = try await context.unpaidGrantLists(of: [week, previousWeek].map { $0.startSeconds..<$0.endSeconds }).map { list in
            Dictionary(grouping: list, by: { [$0.grant.store?.rawValue, $0.grant.record.productID] }).mapValues(UnpaidGrants.init)
                .filter { $0.value.total > 0 }
        }
        let now = rows(week)
        let before = rows(previousWeek)
        let (unpaidNow, unpaidBefore) = (unpaid[0], unpaid[1])
        var result: [MoneyAtRisk] = []
        for key in Set(now.keys).union(before.keys).union(unpaidNow.keys).union(unpaidBefore.keys) {
            guard let store = key[0].flatMap(Store.init(rawValue:)), let product = key[1] ?? nil else { continue }
            let empty = ChargeCounts.Row(timeSeconds: nil, key: key)
            var row = MoneyAtRisk(store: store, productID: product, current: now[key] ?? empty, previous: before[key] ?? empty)
            (row.unpaid, row.previousUnpaid) = (unpaidNow[key] ?? UnpaidGrants(), unpaidBefore[key] ?? UnpaidGrants())
            let atRisk: Int64 =
                row.current.ungranted + row.current.refunds + row.previous.ungranted + row.previous.refunds + row.unpaid.total
                + row.previousUnpaid.total
            if atRisk > 0 { result.append(row) }
        }
        /// Most charges not granted, refunds and grants not paid for first.
        func weight(_ row: MoneyAtRisk) -> Int64 { row.current.ungranted + row.current.refunds + row.unpaid.total }
        return result.sorted { weight($0) != weight($1) ? weight($0) > weight($1) : $0.productID < $1.productID }
    }

    /// The episodes that overlap `week`, cut to it: one that began before starts with the week, one
    /// still firing at its end has no end.
    private static func clipped(_ episodes: [AlertReport], to week: ISOWeek) -> [AlertReport] {
        episodes.filter { $0.startsAt < week.endSeconds && ($0.endsAt ?? .max) > week.startSeconds }.map { episode in
            var clipped = episode
            clipped.startsAt = max(episode.startsAt, week.startSeconds)
            if let end = episode.endsAt, end > week.endSeconds { clipped.endsAt = nil }
            return clipped
        }
    }

    /// Step of the 409 trend over the two weeks.
    static let trendStepSeconds: Int64 = 6 * .secondsPerHour

    /// The failure reasons of the week: those that rose beyond chance against the week before (per valid
    /// event, `validEvents` of each week) first, most significant first, then the most frequent; 10 in all.
    private static func errors(_ week: ISOWeek, store: any PurchaseStore, validEvents: (Int64, Int64)) async throws -> [ErrorWeek] {
        func count(_ period: ISOWeek) async throws -> [String: Int64] {
            try await store.errorCounts(
                CountQuery(
                    fromSeconds: period.startSeconds, toSeconds: period.endSeconds, groupBy: [.errorDescription],
                    filters: [.resultType: [ResultType.failure.rawValue]])
            )
            .reduce(into: [:]) { $0[$1.key[0] ?? "", default: 0] += $1.events }
        }
        let now = try await count(week)
        let before = try await count(week.previous)
        var reasons = now.map { ErrorWeek(description: $0.key, current: $0.value, previous: before[$0.key] ?? 0) }
        if validEvents.1 > 0 {
            let pValues = RiseTest.adjustedPValues(reasons.map { ($0.current, $0.previous) }, trials: validEvents)
            for index in reasons.indices { reasons[index].risePValue = pValues[index] }
        }
        return reasons.sorted { left, right in
            if left.roseSignificantly != right.roseSignificantly { return left.roseSignificantly }
            if left.roseSignificantly, left.risePValue != right.risePValue { return left.risePValue! < right.risePValue! }
            return left.current != right.current ? left.current > right.current : left.description < right.description
        }.prefix(10).map { $0 }
    }

    private static func conflictTrend(from: Int64, to: Int64, store: any PurchaseStore) async throws -> [(actionType: String, values: [Double?])] {
        let steps = Int((to - from) / trendStepSeconds)
        // The store aligns steps to UTC; a week of a zone starts at its midnight: read steps that divide
        // both (whole hours, or quarter hours for a zone such as +05:30) and add them up from `from`.
        let readStep: Int64 = from % .secondsPerHour == 0 ? .secondsPerHour : 900
        var byAction: [String: [OutcomeCounts]] = [:]
        for row in try await store.counts(
            CountQuery(fromSeconds: from, toSeconds: to, step: TimeStep(seconds: readStep), groupBy: [.actionType]))
        {
            guard let time = row.timeSeconds, time >= from else { continue }
            let index = Int((time - from) / trendStepSeconds)
            guard index >= 0, index < steps else { continue }
            byAction[row.key[0] ?? "", default: Array(repeating: OutcomeCounts(), count: steps)][index] += row.counts
        }
        return byAction.sorted { $0.key < $1.key }.map { (actionType: $0.key, values: $0.value.map(RateMetric.conflictRate.rate)) }
    }
}
