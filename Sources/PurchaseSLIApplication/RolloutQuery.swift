import Foundation
public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

/// Reads what a rollout comparison needs from a store: which versions, since when, and their counts.
public struct RolloutQuery: Sendable {
    /// A rollout that cannot be compared, with the reason.
    public struct Failure: UserFacingError, Sendable {
        /// What is missing.
        public let description: String
    }

    /// How far back the candidate's first event is looked for without an explicit start.
    public static let appearanceLookbackSeconds: Int64 = 400 * .secondsPerDay

    /// The store.
    public let store: any BucketStore

    /// Creates a query over `store`.
    public init(store: any BucketStore) {
        self.store = store
    }

    /// The hourly counts of `candidate` and `baseline` (default: the busiest other version) per action,
    /// product and plan over `[since, end)`, and the phased release as the candidate's share of its
    /// platforms shows it (from `since` when given). `since` defaults to the start of the candidate's
    /// latest release (a re-release after a day or more without it is not mixed with the earlier one).
    /// - Throws: ``Failure`` when the candidate has no events or no other version has any.
    public func inputs(candidate: String, baseline: String?, since: Int64?, end: Int64) async throws -> RolloutInputs {
        let first = try await firstHour(of: candidate, before: end)
        // From --since when given: the release a person names starts there.
        let start = since ?? first
        // The phased release's hours and both versions' hours per action, product and plan in one scan
        // of the buckets from `start`; the compared range starts at the release, within it. Without a
        // named baseline, the busiest other version from `start` (day buckets) is read with the candidate
        // and checked against the busiest from the release's start: read again only when they differ.
        // (Without one there, none is there from the release's start either: that is told below.)
        let guessed = baseline == nil ? try? await busiestOtherVersion(than: candidate, from: start, to: end) : nil
        let guess = baseline ?? guessed
        let series = try await store.series(
            [phaseQuery(from: start, to: end)] + (guess.map { versionQueries(candidate, $0, from: start, to: end) } ?? []))
        let (release, platforms) = Self.phasedRelease(of: candidate, series: series[0])
        let from = since ?? release?.startSeconds ?? first
        // The hours from the one holding `from` (a whole hour unless it is `start` itself).
        let fromHour = from - from.floorDividedBy(.secondsPerHour).remainder
        let baseline = try baseline ?? Self.busiest(than: candidate, events: Self.eventsPerVersion(series[0], from: fromHour), from: from, to: end)
        let versions =
            baseline == guess ? Array(series.dropFirst()) : try await store.series(versionQueries(candidate, baseline, from: from, to: end))
        var inputs = RolloutInputs(
            candidate: candidate, baseline: baseline, fromSeconds: from, toSeconds: end, actions: versions[0],
            slices: [.productID: versions[1], .planID: versions[2]], release: release)
        inputs.platforms = Set(platforms.compactMap { $0 })
        for row in try await store.counts(
            CountQuery(
                fromSeconds: from, toSeconds: end, groupBy: [.actionType, .variant], filters: [.appVersion: [candidate]]))
        {
            inputs.candidateVariants[row.key[0] ?? "", default: [:]][row.key[1], default: OutcomeCounts()] += row.counts
        }
        inputs.prices = try await store.prices()
        return inputs
    }

    /// Every version's events per platform, hour by hour: the phased release's share.
    private func phaseQuery(from: Int64, to end: Int64) -> CountQuery {
        CountQuery(fromSeconds: from, toSeconds: end, step: TimeStep(seconds: .secondsPerHour), groupBy: [.appVersion, .platform])
    }

    /// The two versions' hourly counts per action, per action and product, and per action and plan.
    private func versionQueries(_ candidate: String, _ baseline: String, from: Int64, to end: Int64) -> [CountQuery] {
        [[], [EventDimension.productID], [.planID]].map { dimensions in
            CountQuery(
                fromSeconds: from, toSeconds: end, step: TimeStep(seconds: .secondsPerHour), groupBy: [.appVersion, .actionType] + dimensions,
                filters: [.appVersion: [candidate, baseline]])
        }
    }

    /// The candidate's latest phased release in the hourly `series` keyed `[appVersion, platform]`: its
    /// events against all events of the platforms it has events on, hour by hour; and those platforms.
    private static func phasedRelease(of candidate: String, series: CountSeries) -> (PhasedRelease?, Set<String?>) {
        let platforms = Set(zip(series.keys, series.columns).filter { key, column in key[0] == candidate && !column.isEmpty }.map { $0.0[1] })
        var hours = (0..<series.stepCount).map {
            PhasedRelease.Hour(startSeconds: series.startSeconds(ofStep: Int32($0)), candidateEvents: 0, platformEvents: 0)
        }
        for (key, column) in zip(series.keys, series.columns) where platforms.contains(key[1]) {
            for (step, counts) in zip(column.steps, column.counts) {
                hours[Int(step)].platformEvents += counts.total
                if key[0] == candidate { hours[Int(step)].candidateEvents += counts.total }
            }
        }
        hours.removeAll { $0.platformEvents == 0 }
        return (PhasedRelease(hours: hours), platforms)
    }

    /// Each version's events in the hourly `series` keyed `[appVersion, …]`, from the step starting at `from`.
    private static func eventsPerVersion(_ series: CountSeries, from: Int64) -> [String?: Int64] {
        let skipped = max(0, Int((from - series.startSeconds) / series.stepSeconds))
        var events: [String?: Int64] = [:]
        for (key, column) in zip(series.keys, series.columns) {
            events[key[0], default: 0] += zip(column.steps, column.counts).reduce(0) { $0 + ($1.0 >= skipped ? $1.1.total : 0) }
        }
        return events
    }

    /// How far back the newest app version is looked for when the candidate is automatic.
    public static let candidateLookbackSeconds: Int64 = 14 * .secondsPerDay

    /// The candidate a person or the configuration names; for nil or `auto`, the newest app version with
    /// events over the 14 days before `end` that one of the stores' `releases` is (the store's word, which
    /// no client can forge), else the newest app version with real traffic (``newestVersion(from:to:)``);
    /// nil when only one version has any.
    public func candidate(_ name: String?, at end: Int64, releases: [StoreRelease] = []) async throws -> String? {
        if let name, name != "auto" { return name }
        let from = end - Self.candidateLookbackSeconds
        if !releases.isEmpty {
            let seen = try await versionsSeen(from: from, to: end).events.keys
            let released = seen.filter { version in releases.contains { $0.isRelease(of: version) } }
            if let newest = released.max(by: { $0.compare($1, options: .numeric) == .orderedAscending }) { return newest }
        }
        return try await newestVersion(from: from, to: end)
    }

    /// The newest app version over `[from, end)` among those with real traffic (at least 1 % of the
    /// events): the one first seen latest after the range's first hour, or, when every such version was
    /// there from the start (the release began before the range), the highest version number. A few
    /// stray events of an old version do not make it the candidate.
    public func newestVersion(from: Int64, to end: Int64) async throws -> String? {
        let (firstSeen, events, start) = try await versionsSeen(from: from, to: end)
        let total = events.values.reduce(0, +)
        let busy = firstSeen.filter { 100 * (events[$0.key] ?? 0) >= total }
        guard busy.count > 1, let start else { return nil }
        let released = busy.filter { $0.value > start }
        guard released.isEmpty else {
            return released.max { $0.value != $1.value ? $0.value < $1.value : $0.key.compare($1.key, options: .numeric) == .orderedAscending }?.key
        }
        return busy.keys.max { $0.compare($1, options: .numeric) == .orderedAscending }
    }

    /// How `report`'s candidate's events over its range arrived: all of them, and those that came through
    /// the HTTP API an hour or more late.
    public func arrivals(of report: RolloutReport) async throws -> RolloutReport.Arrivals {
        let (from, to) = (report.fromSeconds, report.toSeconds)
        let events = try await store.counts(CountQuery(fromSeconds: from, toSeconds: to, filters: [.appVersion: [report.candidate]]))
            .reduce(0) { $0 + $1.counts.total }
        let candidateSeries = Set(try await store.series([.appVersion]).filter { $0.values[0] == report.candidate }.map(\.id))
        // The hours that hold the range: a late event of the range's first hour counts in full.
        let late = try await store.lateArrivals(fromSeconds: from.floorDividedBy(.secondsPerHour).quotient * .secondsPerHour, toSeconds: to).reduce(
            Int64(0)
        ) {
            $0 + (candidateSeries.contains($1.series) ? $1.events : 0)
        }
        return RolloutReport.Arrivals(events: events, late: late)
    }

    /// The app versions with events over `[from, end)`: the hour each was first seen, its events, and the
    /// first hour with any event (nil: none).
    private func versionsSeen(from: Int64, to end: Int64) async throws -> (firstSeen: [String: Int64], events: [String: Int64], start: Int64?) {
        let rows = try await store.counts(
            CountQuery(fromSeconds: from, toSeconds: end, step: TimeStep(seconds: .secondsPerHour), groupBy: [.appVersion]))
        var firstSeen: [String: Int64] = [:]
        var events: [String: Int64] = [:]
        for row in rows where !row.counts.isEmpty {
            guard let version = row.key[0] ?? nil, let time = row.timeSeconds else { continue }
            firstSeen[version] = min(firstSeen[version] ?? time, time)
            events[version, default: 0] += row.counts.total
        }
        return (firstSeen, events, rows.first?.timeSeconds)
    }

    /// The start of the first hour with an event of `version` before `end`: the first day with one from
    /// the day buckets, then its hours.
    private func firstHour(of version: String, before end: Int64) async throws -> Int64 {
        let lookback = end - Self.appearanceLookbackSeconds
        let filters: [EventDimension: Set<String?>] = [.appVersion: [version]]
        let days = try await store.counts(
            CountQuery(fromSeconds: lookback, toSeconds: end, step: TimeStep(seconds: .secondsPerDay), filters: filters))
        guard let day = days.first(where: { !$0.counts.isEmpty })?.timeSeconds else {
            throw Failure(description: "no events of app version \(version) before \(RFC3339.format(seconds: end))")
        }
        let dayStart = max(day, lookback)
        let hours = try await store.counts(
            CountQuery(
                fromSeconds: dayStart, toSeconds: min(day + .secondsPerDay, end), step: TimeStep(seconds: .secondsPerHour), filters: filters))
        let first = hours.first { !$0.counts.isEmpty }?.timeSeconds ?? dayStart
        return max(first, lookback)
    }

    /// The other app version with the most events over the range (day buckets mostly).
    private func busiestOtherVersion(than candidate: String, from: Int64, to end: Int64) async throws -> String {
        var events: [String?: Int64] = [:]
        for row in try await store.counts(CountQuery(fromSeconds: from, toSeconds: end, groupBy: [.appVersion])) {
            events[row.key[0], default: 0] += row.counts.total
        }
        return try Self.busiest(than: candidate, events: events, from: from, to: end)
    }

    /// The other app version with the most `events`, the first in version order among equals.
    private static func busiest(than candidate: String, events: [String?: Int64], from: Int64, to end: Int64) throws -> String {
        let others = events.compactMap { version, events in version.flatMap { $0 == candidate || events == 0 ? nil : ($0, events) } }
        guard let busiest = others.sorted(by: { $0.0 < $1.0 }).max(by: { $0.1 < $1.1 })?.0 else {
            throw Failure(
                description: "no other app version has events from \(RFC3339.format(seconds: from)) "
                    + "to \(RFC3339.format(seconds: end)); name one with --baseline")
        }
        return busiest
    }
}
