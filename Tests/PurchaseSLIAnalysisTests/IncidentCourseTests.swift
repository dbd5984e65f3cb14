import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// A minute of `attempts` starts, `good` of them succeeding and the rest failing.
private func minute(attempts: Int64, good: Int64) -> OutcomeCounts {
    var counts = OutcomeCounts()
    counts.start = attempts
    counts.success = good
    counts.failure = attempts - good
    return counts
}

@Suite struct IncidentCourseTests {
    /// An hour at 10 of 10, 20 minutes at 2 of 10 with a worse stretch of 5 minutes at 0 of 10 inside, then
    /// an hour at 10 of 10 again: the worst 15 minutes are the first that lie wholly in the bad 20, and
    /// recovery is the first minute from which 15 whole minutes meet the usual rate: the outage's end.
    @Test func theWorstStretchAndTheRecoveryAreWhereTheSeriesSaysSo() {
        let start: Int64 = 1_800_000_000 - 1_800_000_000 % 3600
        let minutes =
            Array(repeating: minute(attempts: 10, good: 10), count: 60) + Array(repeating: minute(attempts: 10, good: 2), count: 10)
            + Array(repeating: minute(attempts: 10, good: 0), count: 5) + Array(repeating: minute(attempts: 10, good: 2), count: 5)
            + Array(repeating: minute(attempts: 10, good: 10), count: 60)
        let series = MinuteSeries(labels: SeriesLabels(actionType: "purchase"), startSeconds: start, minutes: minutes)
        let course = IncidentCourse(series: series, from: start + 3600, until: start + 2 * 3600 + 40 * 60, usualRate: 0.99, minimumValid: 20)
        // Every 15 minutes inside the 20 bad ones hold 20 successes of 150: the first of them is the peak.
        #expect(course.peakSeconds == start + 3600)
        #expect(course.peakCounts.success == 20 && course.peakCounts.attempts == 150)
        #expect(course.recoverySeconds == start + 3600 + 20 * 60)
        // Never meeting the usual rate again: no recovery.
        let never = IncidentCourse(series: series, from: start + 3600, until: start + 3600 + 30 * 60, usualRate: 0.99, minimumValid: 20)
        #expect(never.recoverySeconds == nil)
    }

    /// Successes per attempt when the events count attempts (a cancel loses a success), per valid event
    /// otherwise, and nothing below the minimum.
    @Test func theRateCountsAttemptsWhereThereAreAny() {
        var cancelled = minute(attempts: 10, good: 8)
        cancelled.failure = 0
        cancelled.cancel = 2
        #expect(IncidentCourse.rate(cancelled, minimumTrials: 10) == 0.8)
        var noStarts = cancelled
        noStarts.start = 0
        #expect(IncidentCourse.rate(noStarts, minimumTrials: 8) == 1)
        #expect(IncidentCourse.rate(cancelled, minimumTrials: 11) == nil)
    }
}
