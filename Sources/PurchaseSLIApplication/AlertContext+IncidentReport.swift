public import PurchaseSLIAnalysis
import PurchaseSLICore

extension AlertContext {
    /// The report of incident `id` (as the alerts show it) read at `time` (``incident(id:at:)``). Throws
    /// ``IncidentLookupError`` for an id not spelled as alerts show them or naming no incident.
    public func incidentReport(id: String, at time: Int64) async throws -> IncidentReport {
        let (incident, inputs) = try await incidentAndInputs(id: id, at: time)
        return try await incidentReport(of: incident, at: time, inputs: inputs)
    }

    /// Incident `id` (as the alerts show it) as an evaluation to `time` finds it: its alerts evaluated from
    /// the minute the id names, a day at first and four times as far while it still fires at the end of
    /// what was read, up to `time`. Throws ``IncidentLookupError`` for an id not spelled as alerts show
    /// them or naming no incident.
    public func incident(id: String, at time: Int64) async throws -> Incident {
        try await incidentAndInputs(id: id, at: time).incident
    }

    /// ``incident(id:at:)`` and the inputs it was found in (which cover it to its end, or to `time`).
    private func incidentAndInputs(id: String, at time: Int64) async throws -> (incident: Incident, inputs: AlertInputs) {
        guard let start = IncidentReport.startSeconds(ofID: id) else {
            throw IncidentLookupError(
                description: "incident \"\(id)\": expected an id as the alerts show it, like 20261112-0703-3fa2c1 "
                    + "(the day, the minute its first alert started, and 6 hex digits)")
        }
        guard start < time else {
            throw IncidentLookupError(
                description: "incident \(id) starts at \(RFC3339.format(seconds: start)), not before the time read "
                    + "(\(RFC3339.format(seconds: time))): give a later --at")
        }
        let evaluator = evaluator
        let grouping = IncidentGrouping(rules: rules)
        var span: Int64 = .secondsPerDay
        while true {
            let end = min(time, start + span)
            // Evaluated through the minute read, as `alerts --at` evaluates it.
            let through = end == time ? time + .secondsPerMinute : end
            var inputs = try await self.inputs(from: start - evaluator.firingHistorySeconds, to: end)
            var (incidents, complete) = evaluator.incidents(from: start, to: through, inputs: inputs, grouping: grouping)
            if !complete {
                inputs = try await self.inputs(from: inputs.startSeconds - 3 * .secondsPerDay, to: end)
                incidents = evaluator.incidents(from: start, to: through, inputs: inputs, grouping: grouping).incidents
            }
            guard let incident = incidents.first(where: { $0.id == id }) else {
                let near = incidents.filter { abs($0.startsAt - start) <= .secondsPerDay }.map(\.id)
                throw IncidentLookupError(
                    description: "no incident \(id) in the events from \(RFC3339.format(seconds: start)) to \(RFC3339.format(seconds: end))"
                        + (app.map { " of app \($0)" } ?? "") + ": "
                        + (near.isEmpty ? "no alert started then" : "incidents then: " + near.joined(separator: ", ")))
            }
            if incident.endsAt == nil, end < time {
                span *= 4
                continue
            }
            return (incident, inputs)
        }
    }

    /// The report of `incident` as an evaluation to `time` found it (a page's or the review's), read at
    /// `time`.
    public func incidentReport(of incident: Incident, at time: Int64) async throws -> IncidentReport {
        let from = min(incident.firstBadSeconds, incident.startsAt)
        let inputs = try await self.inputs(from: from - evaluator.firingHistorySeconds, to: min(time, (incident.endsAt ?? time) + .secondsPerMinute))
        return try await incidentReport(of: incident, at: time, inputs: inputs)
    }

    /// The report of `incident` from `inputs` (which cover it to its end, or to `time` while it goes on),
    /// read at `time` (grants and refunds by then).
    func incidentReport(of incident: Incident, at time: Int64, inputs: AlertInputs) async throws -> IncidentReport {
        let alerts = try await reports(of: [incident], at: time, inputs: inputs).episodes
        let from = incident.firstBadSeconds
        let until = incident.endsAt.map { min($0, time) } ?? time
        // Its alerts' reports carry its record, taken at `time`.
        var record: IncidentRecord
        if let taken = alerts.first?.incidentRecord { record = taken } else { record = try await self.record(of: incident, at: time) }
        record.acknowledgement = try await IncidentBook(context: self).record(id: incident.id)?.acknowledgement
        let cost = record.cost
        var impacts: [IncidentReport.ActionImpact] = []
        var timeline = incidentMoments(incident)
        for (action, events) in IncidentCostScope(incident).lostSuccesses.sorted(by: { ActionType.isListedBefore($0.key, $1.key) }) {
            let scope = events.filters(of: action)
            // One slice is shown as such; several are shown as the whole action.
            let slice = scope.first { $0.key != .actionType }.flatMap {
                $0.value.count == 1 ? SeriesLabels.Slice(dimension: $0.key, value: $0.value.first!) : nil
            }
            let filters = slice == nil ? [.actionType: [action]] : scope
            let counts = try await store.counts(CountQuery(fromSeconds: from, toSeconds: until, filters: filters)).first?.counts ?? OutcomeCounts()
            var errorFilters = filters
            errorFilters[.resultType] = [ResultType.failure.rawValue, ResultType.cancel.rawValue]
            let errors = try await store.errorCounts(
                CountQuery(fromSeconds: from, toSeconds: until, groupBy: [.resultType, .errorDescription], filters: errorFilters))
            var impact = IncidentReport.ActionImpact(
                actionType: action, scope: slice, counts: counts,
                concentration: try await failureConcentration(in: action, from: from, to: until),
                topErrors: errors.prefix(5).map { (result: $0.key[0] ?? "", description: $0.key[1] ?? "", events: $0.events) })
            if let series = inputs.series(SeriesLabels(actionType: action, slice: slice)) {
                timeline += courseMoments(of: series, from: from, until: until, lost: cost.lost[action], counts: counts)
                // About 60 steps from a quarter of its span (at least 30 minutes) before it to as long after.
                let pad: Int64 = max(1800, (until - from) / 4)
                let step: Int64 = max(60, ((until - from + 2 * pad) / 60 + 59) / 60 * 60)
                let start: Int64 = max(series.startSeconds, (from - pad) - (from - pad).floorDividedBy(step).remainder)
                let end: Int64 = min(time, until + pad)
                impact.trendStartSeconds = start
                impact.trendStepSeconds = step
                impact.trend = stride(from: start, to: end, by: Int(step)).map { (stepStart: Int64) -> Double? in
                    IncidentCourse.rate(series.counts(from: stepStart, to: min(stepStart + step, end)), minimumTrials: 1)
                }
            }
            impacts.append(impact)
        }
        let (lateCharges, refunds) = try await charges(of: incident, from: from, until: until, at: time)
        return IncidentReport(
            incident: incident, app: app, readAtSeconds: time,
            // By time; at one minute, in the order found (the first bad minute before the first alert).
            timeline: timeline.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }.map(\.element),
            impacts: impacts, record: record, lateCharges: lateCharges, refunds: refunds, alerts: alerts,
            storeCoverage: try await storeCoverage(from: from, to: until, readAt: time))
    }

    /// The first bad minute, each alert's start, severity changes and end, the first page and the end.
    private func incidentMoments(_ incident: Incident) -> [IncidentReport.Moment] {
        var moments = [
            IncidentReport.Moment(seconds: incident.firstBadSeconds, label: "first bad minute", text: "the trouble first shows in the events")
        ]
        let episodes = incident.episodes.sorted { ($0.startsAt, $0.first.identity) < ($1.startsAt, $1.first.identity) }
        let firstPage = episodes.flatMap(\.severityChanges).filter { $0.severity == .page }.map(\.atSeconds).min()
        for (index, episode) in episodes.enumerated() {
            let alert: AlertText = "\(words: episode.first.kind.rawValue) \(scope: episode.first.labels)"
            for (number, change) in episode.severityChanges.enumerated() {
                let label = index == 0 && number == 0 ? "first alert" : change.atSeconds == firstPage && change.severity == .page ? "page" : "alert"
                let verb = number == 0 ? "fires as" : "becomes"
                moments.append(
                    IncidentReport.Moment(
                        seconds: change.atSeconds, label: label, text: alert + " \(words: verb) \(words: change.severity.rawValue.uppercased())"))
            }
            if let end = episode.endsAt {
                let last = end == incident.endsAt && !episodes.contains { ($0.endsAt ?? .max) > end }
                moments.append(IncidentReport.Moment(seconds: end, label: last ? "resolved" : "alert", text: alert + " stops firing"))
            }
        }
        return moments
    }

    /// The worst stretch of `action`'s events and when a stretch met its usual rate again (the lower of
    /// the rate its cost was measured against and its objective).
    private func courseMoments(
        of series: MinuteSeries, from: Int64, until: Int64, lost: LostPurchases?, counts: OutcomeCounts
    ) -> [IncidentReport.Moment] {
        let target = policy.objectives.first { $0.actionType == series.labels.actionType }?.target
        let trials = Double(counts.attempts > 0 ? counts.attempts : counts.valid)
        let usual = lost.map { trials > 0 ? (Double(counts.good) + $0.purchases) / trials : 1 }
        guard let rate = [usual, target].compactMap({ $0 }).min() else { return [] }
        let course = IncidentCourse(series: series, from: from, until: until, usualRate: rate, minimumValid: Int64(policy.minimumValidEvents))
        var moments: [IncidentReport.Moment] = []
        let action = series.labels.actionType
        if let peak = course.peakSeconds, let worst = IncidentCourse.rate(course.peakCounts, minimumTrials: 1) {
            let per = course.peakCounts.attempts > 0 ? "attempts" : "valid events"
            moments.append(
                IncidentReport.Moment(
                    seconds: peak, label: "peak",
                    text: "\(words: action): the worst \(duration: course.stretchSeconds) from here, \(percent: worst) success of "
                        + "\(count: course.peakCounts.attempts > 0 ? course.peakCounts.attempts : course.peakCounts.valid) \(words: per)"))
        }
        if let recovery = course.recoverySeconds {
            moments.append(
                IncidentReport.Moment(
                    seconds: recovery, label: "recovery",
                    text: "\(words: action): from here \(duration: course.stretchSeconds) at \(percent: rate) success or better"))
        }
        return moments
    }

    /// The charges of the products its ChargedNotGranted alerts named, taken in `[from, until)` and still
    /// ungranted when their grace ended (granted since, or not, by `time`); and the refunds, within
    /// ``IncidentReport/refundHorizonSeconds`` of their charge and by `time`, of the charges taken in
    /// `[from, until)` of the products its alerts named (of every product when they name none).
    private func charges(
        of incident: Incident, from: Int64, until: Int64, at time: Int64
    ) async throws -> (late: [ChargeLedger.Charge], refunds: [ChargeLedger.RefundCausation]) {
        let findings = incident.episodes.flatMap { [$0.first, $0.peak, $0.latest] }
        var named = Set<String>()
        var ungrantedProducts = Set<String>()
        for finding in findings {
            guard let slice = finding.labels.slice, slice.dimension == .productID, let product = slice.value else { continue }
            named.insert(product)
            if case .ungrantedCharges = finding.evidence.costMeasure { ungrantedProducts.insert(product) }
        }
        let horizon = min(time, until + IncidentReport.refundHorizonSeconds)
        let ledger = try await store.ledger(
            kinds: [.charge, .refund], fromMillis: from * .millisPerSecond, toMillis: horizon * .millisPerSecond, rule: policy.reconciliation)
        let during = ledger.charges.filter { $0.eventMillis < until * .millisPerSecond && (named.isEmpty || named.contains($0.productID)) }
        let late = ledger.overdueCharges.filter { $0.eventMillis < until * .millisPerSecond && ungrantedProducts.contains($0.productID) }
            .map { charge in
                var charge = charge
                if !charge.isGranted(by: time * .millisPerSecond) { charge.grantedMillis = nil }
                charge.settlement = charge.settlement(by: time * .millisPerSecond)
                return charge
            }
        var chargedAt: [String: Int64] = [:]
        for charge in during { if let id = charge.notification.transactionID { chargedAt[id] = charge.eventMillis } }
        let refunds = ledger.refundCauses(rule: policy.reconciliation).filter { causation in
            guard let id = causation.refund.notification.transactionID, let charged = chargedAt[id] else { return false }
            return causation.refund.eventMillis <= charged + IncidentReport.refundHorizonSeconds * .millisPerSecond
        }
        return (late, refunds)
    }
}
