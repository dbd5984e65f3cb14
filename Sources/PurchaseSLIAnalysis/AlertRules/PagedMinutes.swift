import PurchaseSLICore

/// The minutes at which each series burned at a page rate, each found once for one evaluation run (a
/// live evaluation, a walk back to an alert's start, a backtest): budget an incident spent while it was
/// paged is taken out of the windows of a ticket. Whether a page rule fires at a minute depends only on
/// the minutes before it, so the answer is the same whenever it is asked.
final class PagedMinutes {
    private let test: BurnRateTest
    private let reach: Int64
    private let series: [SeriesLabels: MinuteSeries]
    private var records: [SeriesLabels: Record] = [:]

    /// The minutes of one series evaluated so far, `[lower, upper)`, and those at which a page rule
    /// fired, in order, with the rule's short window.
    private struct Record {
        var lower: Int64
        var upper: Int64
        var minutes: [Int64] = []
        var shortWindows: [Int64] = []
    }

    /// Reads the series of `inputs`, whole: a page rule at a minute reads the hours before it, which may
    /// lie before the window a caller evaluates.
    convenience init(test: BurnRateTest, inputs: AlertInputs, reach: Int64) {
        self.init(
            test: test, series: inputs.actions.keys.compactMap { inputs.judgedSeries(of: $0) } + Array(inputs.slices.values.joined()), reach: reach)
    }

    /// Reads `series` whole (each with its own labels).
    init(test: BurnRateTest, series: [MinuteSeries], reach: Int64) {
        self.test = test
        self.reach = reach
        self.series = Dictionary(series.map { ($0.labels, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The counts of `slice` over the minutes of `[from, to)` that a page covered: for each minute M up to
    /// `to` at which a page rule fired for the series or its action, the rule's short window before M.
    func excludedCounts(
        of slice: MinuteSeries, action: MinuteSeries, objective: SLOPolicy.Objective, from: Int64, to: Int64
    ) -> OutcomeCounts {
        guard let whole = series[slice.labels] else { return OutcomeCounts() }
        var spans = pagedSpans(slice.labels, action: action.labels, objective: objective, from: from, to: to)
        if slice.labels != action.labels {
            spans += pagedSpans(action.labels, action: action.labels, objective: objective, from: from, to: to)
        }
        var total = OutcomeCounts()
        var coveredUntil = from
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let lower = max(span.lowerBound, coveredUntil)
            let upper = min(span.upperBound, to)
            guard upper > lower else { continue }
            total += whole.counts(from: lower, to: upper)
            coveredUntil = upper
        }
        return total
    }

    /// The spans `[M − short window, M)` of the minutes M in `[from, to]` at which a page rule fired for
    /// `labels`. O(new minutes × page rules + paged minutes in the range).
    private func pagedSpans(
        _ labels: SeriesLabels, action: SeriesLabels, objective: SLOPolicy.Objective, from: Int64, to: Int64
    ) -> [Range<Int64>] {
        guard let target = series[labels], let actionSeries = series[action] else { return [] }
        var record = records[labels] ?? Record(lower: from, upper: from)
        if from < record.lower {
            let earlier = evaluate(target, action: actionSeries, objective: objective, from: from, to: record.lower)
            record.minutes = earlier.minutes + record.minutes
            record.shortWindows = earlier.shortWindows + record.shortWindows
            record.lower = from
        }
        if to >= record.upper {
            let later = evaluate(target, action: actionSeries, objective: objective, from: record.upper, to: to + .secondsPerMinute)
            record.minutes += later.minutes
            record.shortWindows += later.shortWindows
            record.upper = to + .secondsPerMinute
        }
        records[labels] = record
        var index = firstIndex(in: record.minutes, notBefore: from)
        var spans: [Range<Int64>] = []
        while index < record.minutes.count, record.minutes[index] <= to {
            let minute = record.minutes[index]
            spans.append(minute - record.shortWindows[index]..<minute)
            index += 1
        }
        return spans
    }

    /// The minutes of `[from, to)` at which a page rule fires for `target`, with the rule's short window.
    private func evaluate(
        _ target: MinuteSeries, action: MinuteSeries, objective: SLOPolicy.Objective, from: Int64, to: Int64
    ) -> (minutes: [Int64], shortWindows: [Int64]) {
        var result: (minutes: [Int64], shortWindows: [Int64]) = ([], [])
        for minute in stride(from: from, to: to, by: .secondsPerMinute) {
            guard let dataSince = action.firstEvent(from: minute - reach, to: minute),
                let rule = test.burn(
                    target, action: target.labels == action.labels ? nil : action, objective: objective, at: minute,
                    dataSince: dataSince, pagesOnly: true)?.rule
            else { continue }
            result.minutes.append(minute)
            result.shortWindows.append(rule.shortWindowSeconds)
        }
        return result
    }

    private func firstIndex(in sorted: [Int64], notBefore value: Int64) -> Int {
        var lower = 0
        var upper = sorted.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if sorted[middle] < value { lower = middle + 1 } else { upper = middle }
        }
        return lower
    }
}
