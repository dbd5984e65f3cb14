public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIStorage

/// What a page's data is read from: the store and the page's frame (policy, app, time, range, zone,
/// records). It loads each panel's data (``load(_:firing:)``); the panels are rendered from that data and
/// the ``frame``, never from the store.
public struct DashboardContext: Sendable {
    /// The store every app writes to.
    public let everyApp: any PurchaseStore
    /// The page's policy, app, time, range, zone and records.
    public var frame: DashboardFrame

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
        self.frame = DashboardFrame(policy: policy, app: app, atSeconds: atSeconds, rangeSeconds: rangeSeconds, zone: zone, records: records)
    }

    /// The app shown, or nil for every app.
    public var app: String? {
        get { frame.app }
        set { frame.app = newValue }
    }
    /// Objectives, alert rules, rollout thresholds.
    public var policy: SLOPolicy { frame.policy }
    /// The page's time.
    public var atSeconds: Int64 { frame.atSeconds }
    /// How far back the charts and tables reach.
    public var rangeSeconds: Int64 {
        get { frame.rangeSeconds }
        set { frame.rangeSeconds = newValue }
    }
    /// Start of the range.
    public var fromSeconds: Int64 { frame.fromSeconds }
    /// The zone times are written in.
    public var zone: TimeZoneOffsets { frame.zone }
    /// Every app's stored maintenance windows and rollout actions.
    public var records: DashboardRecords { frame.records }

    /// The alert context of the app shown, judging objectives and alerts as `alerts` does, with the
    /// context's maintenance windows.
    public func alerting() -> AlertContext {
        AlertContext(store: everyApp, storedMaintenance: records.maintenance, policy: frame.everyAppPolicy, app: app)
    }

    /// Where the panels' data is read: the app's view of the store, or the whole store.
    var store: any PurchaseStore { app.map { AppScopedStore(everyApp, app: $0) } ?? everyApp }

    /// Counts over `[to − window, to)` grouped by `groupBy`, filtered.
    func counts(
        last window: Int64, before to: Int64? = nil, groupBy: [EventDimension] = [.actionType],
        filters: [EventDimension: Set<String?>] = [:]
    ) async throws -> [CountRow] {
        let end = to ?? atSeconds
        return try await store.counts(CountQuery(fromSeconds: end - window, toSeconds: end, groupBy: groupBy, filters: filters))
    }

    /// Per-step counts over the range grouped by `groupBy` (``StepSeries``). With `shift`, the steps are
    /// those `shift` seconds earlier (the same hours of the week before), still given from the range's start.
    func series(
        step: Int64, groupBy: [EventDimension], filters: [EventDimension: Set<String?>] = [:], shiftedBy shift: Int64 = 0
    ) async throws -> StepSeries {
        let start = frame.alignedStart(step: step)
        let steps = frame.stepCount(step: step)
        let answer = try await store.series([
            CountQuery(
                fromSeconds: start - shift, toSeconds: atSeconds - shift, step: TimeStep(seconds: step), groupBy: groupBy, filters: filters)
        ])[0]
        let byKey = Dictionary(zip(answer.keys, answer.columns.map { $0.dense(stepCount: steps) }), uniquingKeysWith: { first, _ in first })
        return StepSeries(startSeconds: start, stepSeconds: step, steps: steps, byKey: byKey)
    }

    /// The action filter for an optional action.
    static func actionFilter(_ action: String?) -> [EventDimension: Set<String?>] {
        action.map { [.actionType: [$0]] } ?? [:]
    }
}

/// Per-step counts over a page's range: for each key, one ``OutcomeCounts`` per step. Steps are whole and
/// aligned to the step, so the first may begin before the range: totals over the range are read apart.
public struct StepSeries: Sendable {
    /// The first step's start.
    public var startSeconds: Int64
    /// The step.
    public var stepSeconds: Int64
    /// How many steps.
    public var steps: Int
    /// Each key's counts, one per step.
    public var byKey: [[String?]: [OutcomeCounts]]
}
