public import PurchaseSLICore

/// How an incident went in one series of events: its worst stretch and when it recovered. Pure: a
/// function of the series, the incident's span and the rate the series usually meets.
public struct IncidentCourse: Sendable, Hashable {
    /// The length of the stretches compared: 15 minutes, as the recovery window.
    public let stretchSeconds: Int64
    /// The start of its worst stretch (the fewest successes per attempt, or per valid event where the
    /// events count no attempts, among those holding enough), or nil when none holds enough.
    public var peakSeconds: Int64?
    /// The counts of that stretch.
    public var peakCounts: OutcomeCounts
    /// The first minute after the peak from which a whole stretch met `usualRate` again, or nil when none
    /// did by the end of the span.
    public var recoverySeconds: Int64?

    /// The course of `series` over `[from, until)`: stretches of `stretchSeconds` each holding at least
    /// `minimumValid` valid events, a stretch recovered when its success rate is at least `usualRate`.
    /// O(minutes of the span).
    public init(series: MinuteSeries, from: Int64, until: Int64, usualRate: Double, minimumValid: Int64, stretchSeconds: Int64 = 900) {
        self.stretchSeconds = stretchSeconds
        peakCounts = OutcomeCounts()
        var worst: (rate: Double, start: Int64, counts: OutcomeCounts)?
        let first = from - from.floorDividedBy(.secondsPerMinute).remainder
        for start in stride(from: first, through: until - stretchSeconds, by: .secondsPerMinute) {
            let counts = series.counts(from: start, to: start + stretchSeconds)
            guard let rate = Self.rate(counts, minimumTrials: minimumValid) else { continue }
            if rate < worst?.rate ?? .infinity { worst = (rate, start, counts) }
        }
        guard let worst else { return }
        peakSeconds = worst.start
        peakCounts = worst.counts
        for start in stride(from: worst.start + .secondsPerMinute, through: until - stretchSeconds, by: .secondsPerMinute) {
            let counts = series.counts(from: start, to: start + stretchSeconds)
            if let rate = Self.rate(counts, minimumTrials: minimumValid), rate >= usualRate {
                recoverySeconds = start
                return
            }
        }
    }

    /// Successes per attempt (a cancel is a lost success too), or per valid event where the events count
    /// no attempts; nil below `minimumTrials`.
    public static func rate(_ counts: OutcomeCounts, minimumTrials: Int64) -> Double? {
        if counts.attempts > 0 { return counts.attempts >= minimumTrials ? counts.successRatePerAttempt : nil }
        return counts.valid >= minimumTrials ? counts.successRate : nil
    }
}
