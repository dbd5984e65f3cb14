import PurchaseSLICore

/// The numbers of a spike: a count against its exposure, now and in the baseline.
public struct SpikeStatistics: Sendable, Hashable {
    /// What rate was tested, e.g. "cancels per valid event or cancel".
    public var measure: String
    /// What is counted and what it is counted against: ("409", "409s") and ("successful purchase", "successful purchases").
    public var units: (events: CountedNoun, exposure: CountedNoun)
    /// The window tested, in seconds.
    public var windowSeconds: Int64
    /// The events counted in the window.
    public var observed: Int64
    /// The rate's denominator in the window.
    public var exposure: Int64
    /// The events counted in the baseline.
    public var baselineObserved: Int64
    /// The baseline's denominator.
    public var baselineExposure: Int64
    /// What the baseline is: "the same window on the previous 3 days" or "the other app versions over the
    /// same window".
    public var baseline: String
    /// One-sided p-value of the exact conditional test (before correcting for the slices tested).
    public var pValue: Double

    /// The window's rate.
    public var rate: Double { exposure > 0 ? Double(observed) / Double(exposure) : 0 }
    /// The baseline's rate.
    public var baselineRate: Double { baselineExposure > 0 ? Double(baselineObserved) / Double(baselineExposure) : 0 }

    public static func == (lhs: SpikeStatistics, rhs: SpikeStatistics) -> Bool {
        (lhs.measure, lhs.units.events, lhs.units.exposure, lhs.windowSeconds, lhs.observed, lhs.exposure)
            == (rhs.measure, rhs.units.events, rhs.units.exposure, rhs.windowSeconds, rhs.observed, rhs.exposure)
            && (lhs.baselineObserved, lhs.baselineExposure, lhs.baseline, lhs.pValue)
                == (rhs.baselineObserved, rhs.baselineExposure, rhs.baseline, rhs.pValue)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(measure)
        hasher.combine(observed)
        hasher.combine(exposure)
        hasher.combine(baselineObserved)
        hasher.combine(baselineExposure)
    }

    /// "coins_500: cancels per valid event or cancel at 37.8 %, 5.9× the same window on the previous 3 days
    /// (6.40 %)"; against a baseline with none, "… where the other app versions over the same window had none".
    func summary(_ scope: AlertText) -> AlertText {
        let now: AlertText = "\(scope): \(words: measure) at \(percent: rate), "
        guard baselineRate > 0 else { return now + "where \(words: baseline) had none (0 of \(count: baselineExposure))" }
        return now + "\(decimal: rate / baselineRate)× \(words: baseline) (\(percent: baselineRate))"
    }

    /// "last 15 min: 3 409s and 40 valid events (7.50 %): still above the baseline" for the counts of the
    /// last minutes, as `measure` counts them.
    func current(_ counts: OutcomeCounts, over seconds: Int64, measure: RateSpikeTest.Measure) -> AlertText {
        let (observed, exposure) = measure(counts)
        guard exposure > 0 else { return "last \(duration: seconds): no \(words: units.exposure.many)" }
        let rate = Double(observed) / Double(exposure)
        let state = rate <= 2 * baselineRate ? "back near the baseline" : "still above the baseline"
        return "last \(duration: seconds): \(count: observed, of: units.events) and \(count: exposure, of: units.exposure) "
            + "(\(percent: rate)): \(words: state) (\(percent: baselineRate))"
    }

    /// "last 1 h: 19 409s and 18 successful purchases; the baseline: 3 and 2,000; exact one-sided test p = 1.7e-05".
    var countsLine: AlertText {
        "last \(duration: windowSeconds): \(count: observed, of: units.events) and \(count: exposure, of: units.exposure); "
            + "the baseline: \(count: baselineObserved) and \(count: baselineExposure); exact one-sided test \(pValue: pValue)"
    }
}

/// The exact test of a rate spike: a count against its exposure now, against the same window on previous
/// days or against other series over the same window. Shared by the spike rules.
struct RateSpikeTest: Sendable {
    /// The policy in force.
    let policy: SLOPolicy

    /// What a spike test counts: (events, exposure).
    typealias Measure = @Sendable (OutcomeCounts) -> (Int64, Int64)

    /// A count and its exposure over one window.
    struct Sample {
        var observed: Int64
        var exposure: Int64
    }

    /// A metric's bad events and trials, as rollouts, dashboards and the review count them.
    static func measure(_ metric: RateMetric) -> Measure {
        { counts in metric.badEvents(counts) }
    }

    /// How long a spike alert holds: keepFiringFor and its window, so that an alert about an hour's rate
    /// holds until an hour without evidence has passed and a thin spike that tests positive on and off is one alert.
    var holdSeconds: Int64 { policy.keepFiringForSeconds + policy.spikes.windowSeconds }

    /// How far back a spike test reads: its widest window on each baseline day.
    var reachSeconds: Int64 { Int64(max(1, policy.spikes.baselineDays)) * .secondsPerDay + Self.widestWindows * policy.spikes.windowSeconds }

    /// At most this many spike windows are read on thin traffic (``window(exposure:)``).
    static let widestWindows: Int64 = 4

    /// The window to test: the policy's, reaching back by whole windows (to at most ``widestWindows``)
    /// while the exposure it holds (`exposure(window)`) is under the minimum count, so that a spike that goes
    /// on through a night lull is still seen (4 409s an hour cannot reach 10; the last 3 hours can), as a
    /// burn's short window reaches back on thin traffic. Traffic as usual keeps the policy's window.
    func window(exposure: (Int64) -> Int64) -> Int64 {
        let base = policy.spikes.windowSeconds
        var window = base
        while window < Self.widestWindows * base, exposure(window) < Int64(policy.spikes.minimumCount) { window += base }
        return window
    }

    /// The same `window` on each of the previous `baselineDays` days; empty (so nothing is tested) until the
    /// data covers all of them.
    func previousDays(_ series: MinuteSeries, at time: Int64, dataSince: Int64, window: Int64) -> ([OutcomeCounts], String) {
        let days = max(1, policy.spikes.baselineDays)
        guard time - Int64(days) * .secondsPerDay - window >= dataSince else { return ([], "") }
        let windows = (1...days).map { day in series.counts(last: window, before: time - Int64(day) * .secondsPerDay) }
        return (windows, "the same window on the previous \(days) day\(days == 1 ? "" : "s")")
    }

    /// A spike of `now` against the baseline's windows (the previous days, or the other versions), counted
    /// by `measure` over the policy's spike window. The baseline is read only when `now` holds the minimum
    /// count a spike needs (most series at most minutes do not).
    func spike(
        _ now: OutcomeCounts, against readBaseline: @autoclosure () -> ([OutcomeCounts], String), measure: Measure, named name: String,
        units: (events: CountedNoun, exposure: CountedNoun), window: Int64, significance: Double
    ) -> SpikeStatistics? {
        let (observed, exposure) = measure(now)
        guard observed >= Int64(policy.spikes.minimumCount), exposure > 0 else { return nil }
        let baseline = readBaseline()
        let windows = baseline.0.map { window in
            let (observed, exposure) = measure(window)
            return Sample(observed: observed, exposure: exposure)
        }
        return spike(
            Sample(observed: observed, exposure: exposure), against: (windows, baseline.1), named: name, units: units,
            windowSeconds: window, minimumCount: Int64(policy.spikes.minimumCount), significance: significance)
    }

    /// A spike of `now` against the baseline's windows: at least `minimumCount`, `minimumRatio` times the
    /// rate of each window that has an exposure (so that one previous day with an incident of its own, an
    /// outage's retries failing rather than answering 409, cannot make an ordinary day look like a spike),
    /// and the exact test against the windows summed below `significance`.
    func spike(
        _ now: Sample, against baseline: ([Sample], String), named name: String, units: (events: CountedNoun, exposure: CountedNoun),
        windowSeconds: Int64, minimumCount: Int64, significance: Double
    ) -> SpikeStatistics? {
        let baselineObserved = baseline.0.reduce(0) { $0 + $1.observed }
        let baselineExposure = baseline.0.reduce(0) { $0 + $1.exposure }
        guard now.observed >= minimumCount, now.exposure > 0, baselineExposure > 0 else { return nil }
        let rate = Double(now.observed) / Double(now.exposure)
        let aboveEveryWindow = baseline.0.allSatisfy { window in
            window.exposure == 0 || rate >= policy.spikes.minimumRatio * Double(window.observed) / Double(window.exposure)
        }
        guard aboveEveryWindow else { return nil }
        let pValue = RateTest.poissonRateExcess(
            observed: now.observed, exposure: now.exposure, baselineObserved: baselineObserved, baselineExposure: baselineExposure)
        guard pValue < significance else { return nil }
        return SpikeStatistics(
            measure: name, units: units, windowSeconds: windowSeconds, observed: now.observed, exposure: now.exposure,
            baselineObserved: baselineObserved, baselineExposure: baselineExposure, baseline: baseline.1, pValue: pValue)
    }
}
