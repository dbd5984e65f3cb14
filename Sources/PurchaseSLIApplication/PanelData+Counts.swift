public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// A chart's data: the metric's series over the range (one per value of `dimension`, or one), the same
/// hours of the week before when overlaid, and the app versions' releases to mark.
public struct ChartPanelData: Sendable {
    /// The chart's title, or nil for one naming the metric.
    public var title: String?
    /// What is plotted.
    public var metric: DashboardDefinition.ChartMetric
    /// The action plotted, or nil for every event.
    public var actionType: String?
    /// The dimension each line is a value of, or nil for one line.
    public var dimension: EventDimension?
    /// The counts per step of each value (of the one line).
    public var series: StepSeries
    /// The same steps a week before (a chart without `dimension`, overlaid), else nil.
    public var previousWeek: [OutcomeCounts]?
    /// Each app version reaching 1 % of its platform's events over the chart (``ReleaseMarkers``).
    public var releases: [ReleaseMarkers.Reach]
}

/// A table's data: each value's counts per step and over the range.
public struct TablePanelData: Sendable {
    /// The table's title, or nil for one naming the dimension.
    public var title: String?
    /// The dimension of the rows.
    public var dimension: EventDimension
    /// The action counted, or nil for every event.
    public var actionType: String?
    /// How many rows are shown.
    public var limit: Int
    /// Each value's counts per step (its trend).
    public var series: StepSeries
    /// Each value's counts over the range itself (the first step may begin before it).
    public var totals: [[String?]: OutcomeCounts]
}

/// The failure descriptions of the last window and of the window before, with their failures.
public struct TopErrorsPanelData: Sendable {
    /// The action counted, or nil for every event.
    public var actionType: String?
    /// The window's length.
    public var windowSeconds: Int64
    /// How many descriptions are shown.
    public var limit: Int
    /// Failures per description over the last window.
    public var now: [String: Int64]
    /// Failures per description over the window before.
    public var before: [String: Int64]
}

/// Per rate of the signals panel, each action's counts over the spike window and over the same window of
/// the previous days.
public struct SignalsPanelData: Sendable {
    /// One rate's counts.
    public struct Metric: Sendable {
        /// The rate.
        public var metric: RateMetric
        /// Each action's counts over the spike window (ending `unfinishedAfter` ago for unfinished attempts).
        public var current: [String: OutcomeCounts]
        /// Each action's counts over the same window of the previous days, summed.
        public var baseline: [String: OutcomeCounts]
    }

    /// The 409, cancel and unfinished rates, in that order.
    public var metrics: [Metric]
}

/// Each app version's events per step over the range, and the releases to mark.
public struct AdoptionPanelData: Sendable {
    /// Events per step of each app version.
    public var series: StepSeries
    /// Each app version reaching 1 % of its platform's events over the chart.
    public var releases: [ReleaseMarkers.Reach]
}

extension DashboardContext {
    /// ``ChartPanelData`` at `stepSeconds` (by default the range's ``DashboardFrame/defaultStepSeconds``).
    func chartData(
        title: String?, metric: DashboardDefinition.ChartMetric, actionType: String?, by dimension: EventDimension?, stepSeconds: Int64?,
        overlayPreviousWeek: Bool
    ) async throws -> ChartPanelData {
        let step = stepSeconds ?? frame.defaultStepSeconds
        let filters = Self.actionFilter(actionType)
        let series = try await series(step: step, groupBy: dimension.map { [$0] } ?? [], filters: filters)
        var previousWeek: [OutcomeCounts]?
        if overlayPreviousWeek, dimension == nil {
            let week = try await self.series(step: step, groupBy: [], filters: filters, shiftedBy: 7 * .secondsPerDay)
            previousWeek = week.byKey.values.first ?? Array(repeating: OutcomeCounts(), count: series.steps)
        }
        return ChartPanelData(
            title: title, metric: metric, actionType: actionType, dimension: dimension, series: series, previousWeek: previousWeek,
            releases: try await releases(from: series.startSeconds, to: atSeconds))
    }

    /// For each alert of `firing` whose evidence has a chart, its action's metric over the last 6 hours at
    /// 1-minute steps, once per action and metric.
    func alertChartsData(firing: [AlertReport]) async throws -> [ChartPanelData] {
        var recent = self
        recent.rangeSeconds = 6 * .secondsPerHour
        var charted = Set<String>()
        var charts: [ChartPanelData] = []
        for report in firing {
            let action = report.finding.labels.actionType
            // The evidence says what chart shows it (the store's charges are no event series: their text lists them).
            let metric: DashboardDefinition.ChartMetric? =
                switch report.finding.evidence.chartMetric {
                case .rate(let rate): .rate(rate)
                case .events: .events
                case nil: nil
                }
            guard let metric, charted.insert("\(action) \(metric)").inserted else { continue }
            charts.append(
                try await recent.chartData(
                    title: "\(action): the last 6 h", metric: metric, actionType: action, by: nil, stepSeconds: .secondsPerMinute,
                    overlayPreviousWeek: false))
        }
        return charts
    }

    /// ``TablePanelData`` at the range's default step.
    func tableData(title: String?, by dimension: EventDimension, actionType: String?, limit: Int) async throws -> TablePanelData {
        let filters = Self.actionFilter(actionType)
        let series = try await series(step: frame.defaultStepSeconds, groupBy: [dimension], filters: filters)
        let totals = try await counts(last: rangeSeconds, groupBy: [dimension], filters: filters)
            .reduce(into: [[String?]: OutcomeCounts]()) { $0[$1.key, default: OutcomeCounts()] += $1.counts }
        return TablePanelData(title: title, dimension: dimension, actionType: actionType, limit: limit, series: series, totals: totals)
    }

    /// ``TopErrorsPanelData`` over the last `windowSeconds` and the window before.
    func topErrorsData(actionType: String?, windowSeconds: Int64, limit: Int) async throws -> TopErrorsPanelData {
        var filters = Self.actionFilter(actionType)
        filters[.resultType] = [ResultType.failure.rawValue]
        func errors(before end: Int64) async throws -> [String: Int64] {
            try await store.errorCounts(
                CountQuery(fromSeconds: end - windowSeconds, toSeconds: end, groupBy: [.errorDescription], filters: filters)
            )
            .reduce(into: [:]) { $0[$1.key[0] ?? "", default: 0] += $1.events }
        }
        return TopErrorsPanelData(
            actionType: actionType, windowSeconds: windowSeconds, limit: limit, now: try await errors(before: atSeconds),
            before: try await errors(before: atSeconds - windowSeconds))
    }

    /// ``SignalsPanelData`` over the policy's spike window.
    func signalsData() async throws -> SignalsPanelData {
        let spikes = policy.spikes
        let metrics: [(RateMetric, Int64)] = [(.conflictRate, 0), (.cancelRate, 0), (.unfinishedRate, spikes.unfinishedAfterSeconds)]
        var read: [SignalsPanelData.Metric] = []
        for (metric, delay) in metrics {
            let end = atSeconds - delay
            let current = try await counts(last: spikes.windowSeconds, before: end)
                .reduce(into: [String: OutcomeCounts]()) { $0[$1.key[0] ?? "", default: OutcomeCounts()] += $1.counts }
            var baseline: [String: OutcomeCounts] = [:]
            for day in 1...spikes.baselineDays {
                for row in try await counts(last: spikes.windowSeconds, before: end - Int64(day) * .secondsPerDay) {
                    baseline[row.key[0] ?? "", default: OutcomeCounts()] += row.counts
                }
            }
            read.append(SignalsPanelData.Metric(metric: metric, current: current, baseline: baseline))
        }
        return SignalsPanelData(metrics: read)
    }

    /// ``AdoptionPanelData`` at `stepSeconds` (by default the range's).
    func adoptionData(stepSeconds: Int64?) async throws -> AdoptionPanelData {
        let series = try await series(step: stepSeconds ?? frame.defaultStepSeconds, groupBy: [.appVersion])
        return AdoptionPanelData(series: series, releases: try await releases(from: series.startSeconds, to: atSeconds))
    }

    /// Each app version reaching 1 % of its platform's events in an hour of `[from, to)` after a day below.
    func releases(from: Int64, to: Int64) async throws -> [ReleaseMarkers.Reach] {
        let start = (from - Int64(ReleaseMarkers.quietHours) * .secondsPerHour).floorDividedBy(.secondsPerHour).quotient * .secondsPerHour
        let answer = try await store.series([
            CountQuery(fromSeconds: start, toSeconds: to, step: TimeStep(seconds: .secondsPerHour), groupBy: [.platform, .appVersion])
        ])[0]
        var hours: [Int64: [ReleaseMarkers.PlatformVersion: Int64]] = [:]
        for (key, column) in zip(answer.keys, answer.columns) {
            guard let version = key[1] else { continue }
            let pair = ReleaseMarkers.PlatformVersion(platform: key[0] ?? "", version: version)
            for (step, counts) in zip(column.steps, column.counts) where counts.total > 0 {
                hours[answer.startSeconds(ofStep: step), default: [:]][pair] = counts.total
            }
        }
        return ReleaseMarkers.reaches(hours: hours, from: from, to: to)
    }
}
