import PurchaseSLICore

extension AlertEvaluator {
    /// AlreadyGrantedSpike (409s per valid event) and CancelRateSpike (cancels per valid event or cancel) of one action
    /// against the same window of the previous days, and CancelRateSpike of each of its products against
    /// the product's own previous days. When a product spikes, the action's own cancel alert is left out.
    /// `significance` is already divided by the number of tests made at this time.
    func spikes(of action: String, at time: Int64, dataSince: Int64, significance: Double, inputs: AlertInputs) -> [AlertFinding] {
        guard let overall = inputs.actions[action] else { return [] }
        let window = policy.spikes.windowSeconds
        let total = overall.counts(last: window, before: time)
        var findings: [AlertFinding] = []
        if let spike = spike(
            .alreadyGrantedSpike, overall.labels, total, previousDays(overall, at: time, dataSince: dataSince),
            Self.measure(.conflictRate), significance, time) {
            findings.append(spike)
        }
        var productSpikes: [AlertFinding] = []
        for series in inputs.slices[action] ?? [] where series.labels.slice?.dimension == .productID {
            if let spike = spike(
                .cancelRateSpike, series.labels, series.counts(last: window, before: time),
                previousDays(series, at: time, dataSince: dataSince), Self.measure(.cancelRate), significance, time) {
                productSpikes.append(spike)
            }
        }
        if productSpikes.isEmpty, let spike = spike(
            .cancelRateSpike, overall.labels, total, previousDays(overall, at: time, dataSince: dataSince),
            Self.measure(.cancelRate), significance, time) {
            productSpikes.append(spike)
        }
        // Attempts of the window that ended `unfinishedAfter` ago with fewer terminal events than starts.
        let settled = time - policy.spikes.unfinishedAfterSeconds
        let settledWindow = overall.counts(last: window, before: settled)
        let (unfinished, attempts) = RateMetric.unfinishedRate.badEvents(settledWindow)
        if Double(unfinished) >= policy.spikes.unfinishedMinimumShare * Double(attempts), let spike = spike(
            .unfinishedPurchases, overall.labels, settledWindow,
            previousDays(overall, at: settled, dataSince: dataSince), Self.measure(.unfinishedRate), significance, time) {
            findings.append(spike)
        }
        return findings + productSpikes
    }

    /// AlreadyGrantedSpike of each app version: its 409s (of every action) per successful purchase against
    /// the other versions' over the same window. Phased releases make a new version's counts grow daily,
    /// so rates are compared; a version whose purchases each bring a 409 is named even when the total 409
    /// count barely moves.
    func versionSpikes(at time: Int64, significance: Double, inputs: AlertInputs) -> [AlertFinding] {
        let window = policy.spikes.windowSeconds
        var perVersion: [String: OutcomeCounts] = [:]
        for (action, slices) in inputs.slices {
            for series in slices where series.labels.slice?.dimension == .appVersion {
                guard let version = series.labels.slice?.value else { continue }
                let counts = series.counts(last: window, before: time)
                var measured = OutcomeCounts(conflicts: counts.conflicts)
                if action == ActionType.purchase.rawValue { measured.success = counts.success + counts.alreadyGranted }
                perVersion[version, default: OutcomeCounts()] += measured
            }
        }
        let all = perVersion.values.reduce(OutcomeCounts(), +)
        return perVersion.keys.sorted().compactMap { version in
            let now = perVersion[version]!
            return spike(
                .alreadyGrantedSpike,
                SeriesLabels(actionType: ActionType.purchase.rawValue, slice: .init(dimension: .appVersion, value: version)),
                now, ([all - now], "the other app versions over the same window"), Self.conflictsPerPurchase, significance, time)
        }
    }

    /// What a spike test counts: (events, exposure, the rate's name).
    typealias SpikeMeasure = @Sendable (OutcomeCounts) -> (Int64, Int64, String)
    /// A metric's bad events and trials, as rollouts, dashboards and the review count them.
    static func measure(_ metric: RateMetric) -> SpikeMeasure {
        { counts in
            let (count, trials) = metric.badEvents(counts)
            return (count, trials, metric.definition)
        }
    }
    /// 409s per successful purchase: an app version's double-sent receipts, whatever its share of traffic.
    static let conflictsPerPurchase: SpikeMeasure = { ($0.conflicts, $0.success, "409s (already granted) per successful purchase") }

    /// The same window on each of the previous `baselineDays` days; empty (so nothing is tested) until the
    /// data covers all of them.
    private func previousDays(_ series: MinuteSeries, at time: Int64, dataSince: Int64) -> ([OutcomeCounts], String) {
        let days = max(1, policy.spikes.baselineDays), window = policy.spikes.windowSeconds
        guard time - Int64(days) * 86_400 - window >= dataSince else { return ([], "") }
        let windows = (1...days).map { day in series.counts(last: window, before: time - Int64(day) * 86_400) }
        return (windows, "the same window on the previous \(days) day\(days == 1 ? "" : "s")")
    }

    /// A spike of `now` against the baseline's windows (the previous days, or the other versions): at least
    /// the minimum count, `minimumRatio` times the rate of each window (so that one previous day with an
    /// incident of its own, an outage's retries failing rather than answering 409, cannot make an ordinary
    /// day look like a spike), and the exact test against the windows summed below `significance`.
    private func spike(
        _ kind: AlertFinding.Kind, _ labels: SeriesLabels, _ now: OutcomeCounts, _ baseline: ([OutcomeCounts], String),
        _ measure: SpikeMeasure, _ significance: Double, _ time: Int64
    ) -> AlertFinding? {
        let (observed, exposure, name) = measure(now)
        let windows = baseline.0.map { window in
            let (observed, exposure, _) = measure(window)
            return RateSample(observed: observed, exposure: exposure)
        }
        var finding = rateSpike(
            kind, labels, now: RateSample(observed: observed, exposure: exposure), baseline: (windows, baseline.1), measure: name,
            windowSeconds: policy.spikes.windowSeconds, minimumCount: Int64(policy.spikes.minimumCount), significance: significance,
            time: time)
        finding?.longWindow = now
        return finding
    }

    /// A count and its exposure over one window.
    struct RateSample {
        var observed: Int64
        var exposure: Int64
    }

    /// A spike of `now` against the baseline's windows: at least `minimumCount`, `minimumRatio` times the
    /// rate of each window that has an exposure, and the exact test against the windows summed below
    /// `significance`.
    func rateSpike(
        _ kind: AlertFinding.Kind, _ labels: SeriesLabels, now: RateSample, baseline: ([RateSample], String), measure: String,
        windowSeconds: Int64, minimumCount: Int64, significance: Double, time: Int64
    ) -> AlertFinding? {
        let rule = policy.spikes
        let baselineObserved = baseline.0.reduce(0) { $0 + $1.observed }, baselineExposure = baseline.0.reduce(0) { $0 + $1.exposure }
        guard now.observed >= minimumCount, now.exposure > 0, baselineExposure > 0 else { return nil }
        let rate = Double(now.observed) / Double(now.exposure)
        let aboveEveryWindow = baseline.0.allSatisfy { window in
            window.exposure == 0 || rate >= rule.minimumRatio * Double(window.observed) / Double(window.exposure)
        }
        guard aboveEveryWindow else { return nil }
        let pValue = RateTest.poissonRateExcess(
            observed: now.observed, exposure: now.exposure, baselineObserved: baselineObserved, baselineExposure: baselineExposure)
        guard pValue < significance else { return nil }
        return AlertFinding(
            kind: kind, severity: rule.severity, labels: labels, time: time,
            spike: AlertFinding.Spike(
                measure: measure, windowSeconds: windowSeconds, observed: now.observed, exposure: now.exposure,
                baselineObserved: baselineObserved, baselineExposure: baselineExposure, baseline: baseline.1, pValue: pValue))
    }

    /// A page while an action sends no event at all, from the first minute at which its silence was
    /// unexpected until events flow again, however long that takes. The silence shows once the
    /// loss-of-signal window holds no event; it is unexpected at a minute when both the same window a day
    /// earlier and the average window of the day before held at least the policy's minimum (so a burst
    /// yesterday does not make today's quiet look like an outage, and a quiet night is not one). Both fall
    /// into the silence a day after it began, so only that first day is searched. Reads the series from a
    /// day before its last event; O(minutes of that day).
    func lossOfSignal(_ series: MinuteSeries, at time: Int64) -> AlertFinding? {
        let window = policy.lossOfSignalWindowSeconds
        guard let lastEvent = series.lastEvent(before: time) else { return nil }
        let silentSince = lastEvent + 60
        for moment in stride(from: silentSince + window, through: min(time, silentSince + window + 86_400), by: 60) {
            let dayEarlier = series.counts(last: window, before: moment - 86_400).total
            let averageWindow = series.counts(last: 86_400, before: moment - window).total * window / 86_400
            let expected = min(dayEarlier, averageWindow)
            guard expected >= policy.lossOfSignalMinimumExpected else { continue }
            return AlertFinding(
                kind: .noEvents, severity: .page, labels: series.labels, time: time,
                longWindow: series.counts(last: window, before: time), expectedEvents: expected,
                silentSeconds: time - silentSince, firingSince: moment)
        }
        return nil
    }
}
