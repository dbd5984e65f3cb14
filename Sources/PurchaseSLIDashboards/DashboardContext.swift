public import PurchaseSLIAnalysis
import PurchaseSLIApplication
public import PurchaseSLICore
public import PurchaseSLIStorage

/// What every panel of a page reads: the store, the policy, the page's time and range. Queries go
/// through the ``BucketStore`` protocol; analysis gets explicit times, never the clock.
public struct DashboardContext: Sendable {
    /// The store every app writes to.
    public let everyApp: any PurchaseStore
    /// The app the pages show (one app's view of the store: ``AppScopedStore``), or nil for every app.
    public var app: String?
    /// Objectives, alert rules, rollout thresholds.
    public let policy: SLOPolicy
    /// The page's time: only events before it count (minute-aligned seconds since the epoch).
    public let atSeconds: Int64
    /// How far back the charts and tables reach.
    public var rangeSeconds: Int64
    /// The zone times are written in (steps stay aligned to UTC, as the store aligns them).
    public var zone: TimeZoneOffsets
    /// Every app's stored maintenance windows and rollout actions, as read when the context was made: each
    /// page shows those of its app (and the windows of every app: ``alerting()``).
    public let records: DashboardRecords

    /// Creates a context showing `app` (nil: every app) of `store`, with the records it keeps now.
    public init(
        store: any PurchaseStore, policy: SLOPolicy, app: String? = nil, atSeconds: Int64, rangeSeconds: Int64, zone: TimeZoneOffsets = .utc
    ) async throws {
        self.init(
            store: store, records: try await .read(from: store), policy: policy, app: app, atSeconds: atSeconds, rangeSeconds: rangeSeconds,
            zone: zone)
    }

    /// Creates a context as ``init(store:policy:app:atSeconds:rangeSeconds:zone:)`` does, with the records given.
    public init(
        store: any PurchaseStore, records: DashboardRecords, policy: SLOPolicy, app: String? = nil, atSeconds: Int64, rangeSeconds: Int64,
        zone: TimeZoneOffsets = .utc
    ) {
        self.everyApp = store
        self.records = records
        self.app = app
        self.policy = policy
        self.atSeconds = atSeconds
        self.rangeSeconds = rangeSeconds
        self.zone = zone
    }

    /// The alert context of the app shown, judging objectives and alerts as `alerts` does, with the
    /// context's maintenance windows.
    func alerting() -> AlertContext {
        AlertContext(store: everyApp, storedMaintenance: records.maintenance, policy: policy, app: app)
    }

    /// What was done to the releases of the app shown (every app's when none is) from `fromSeconds` to
    /// the page's time, oldest first.
    func rolloutActions(from fromSeconds: Int64) -> [RolloutAction] {
        records.rolloutActions.filter { action in
            action.timeSeconds >= fromSeconds && action.timeSeconds < atSeconds && (app.map { action.app == $0 } ?? true)
        }
    }

    /// Where the panels read: the app's view of the store, or the whole store.
    public var store: any PurchaseStore { app.map { AppScopedStore(everyApp, app: $0) } ?? everyApp }

    /// Start of the range.
    public var fromSeconds: Int64 { atSeconds - rangeSeconds }

    /// A step giving one to three hundred points over the range: 5 min up to a day, 15 min up to three
    /// days, an hour up to two weeks, else a day.
    public var defaultStepSeconds: Int64 {
        rangeSeconds <= .secondsPerDay
            ? 300 : rangeSeconds <= 3 * .secondsPerDay ? 900 : rangeSeconds <= 14 * .secondsPerDay ? .secondsPerHour : .secondsPerDay
    }

    /// The step-aligned start of the range for `step`, so that every step is whole.
    func alignedStart(step: Int64) -> Int64 {
        fromSeconds.floorDividedBy(step).quotient * step
    }

    /// Counts over `[to − window, to)` grouped by `groupBy`, filtered.
    func counts(
        last window: Int64, before to: Int64? = nil, groupBy: [EventDimension] = [.actionType],
        filters: [EventDimension: Set<String?>] = [:]
    ) async throws -> [CountRow] {
        let end = to ?? atSeconds
        return try await store.counts(CountQuery(fromSeconds: end - window, toSeconds: end, groupBy: groupBy, filters: filters))
    }

    /// Per-step counts over the range grouped by `groupBy`: for each key, one `OutcomeCounts` per step.
    /// Steps are whole and aligned to `step`, so the first may begin before the range: for totals over
    /// the range, use ``counts(last:before:groupBy:filters:)``.
    /// With `shift`, the steps are those `shift` seconds earlier (the same hours of the week before), still
    /// given from the range's start.
    func series(
        step: Int64, groupBy: [EventDimension], filters: [EventDimension: Set<String?>] = [:], shiftedBy shift: Int64 = 0
    ) async throws -> (start: Int64, steps: Int, byKey: [[String?]: [OutcomeCounts]]) {
        let start = alignedStart(step: step)
        let steps = Int((atSeconds - start + step - 1) / step)
        let answer = try await store.series([
            CountQuery(
                fromSeconds: start - shift, toSeconds: atSeconds - shift, step: TimeStep(seconds: step), groupBy: groupBy, filters: filters)
        ])[0]
        let byKey = Dictionary(
            zip(
                answer.keys,
                answer.counts.map { counts in
                    Array(counts.prefix(steps)) + Array(repeating: OutcomeCounts(), count: max(0, steps - counts.count))
                }), uniquingKeysWith: { first, _ in first })
        return (start, steps, byKey)
    }

    /// The action filter for an optional action.
    func actionFilter(_ action: String?) -> [EventDimension: Set<String?>] {
        action.map { [.actionType: [$0]] } ?? [:]
    }
}
