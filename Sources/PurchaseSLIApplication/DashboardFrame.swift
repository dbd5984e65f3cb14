public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// What a page shows, without the store: the policy, the app, the page's time and range, the zone and
/// the records read for it. Panels are rendered from a frame and the data loaded for them
/// (``DashboardPageData``), never from a store.
public struct DashboardFrame: Sendable {
    /// Objectives, alert rules, rollout thresholds, as the app shown is judged
    /// (``PurchaseSLIAnalysis/SLOPolicy/judging(app:)``).
    public var policy: SLOPolicy { everyAppPolicy.judging(app: app) }
    /// The policy of every app, with each app's own objectives: what a context judging another app starts
    /// from.
    public let everyAppPolicy: SLOPolicy
    /// The app the page shows, or nil for every app.
    public var app: String?
    /// The page's time: only events before it count (minute-aligned seconds since the epoch).
    public let atSeconds: Int64
    /// How far back the charts and tables reach.
    public var rangeSeconds: Int64
    /// The zone times are written in (steps stay aligned to UTC, as the store aligns them).
    public var zone: TimeZoneOffsets
    /// Every app's stored maintenance windows and rollout actions, as read when the context was made: each
    /// page shows those of its app (``maintenance()``, ``rolloutActions(from:)``).
    public let records: DashboardRecords

    /// Creates a frame.
    public init(policy: SLOPolicy, app: String?, atSeconds: Int64, rangeSeconds: Int64, zone: TimeZoneOffsets, records: DashboardRecords) {
        self.everyAppPolicy = policy
        self.app = app
        self.atSeconds = atSeconds
        self.rangeSeconds = rangeSeconds
        self.zone = zone
        self.records = records
    }

    /// Start of the range.
    public var fromSeconds: Int64 { atSeconds - rangeSeconds }

    /// A step giving one to three hundred points over the range: 5 min up to a day, 15 min up to three
    /// days, an hour up to two weeks, else a day.
    public var defaultStepSeconds: Int64 {
        rangeSeconds <= .secondsPerDay
            ? 300 : rangeSeconds <= 3 * .secondsPerDay ? 900 : rangeSeconds <= 14 * .secondsPerDay ? .secondsPerHour : .secondsPerDay
    }

    /// The step-aligned start of the range for `step`, so that every step is whole.
    public func alignedStart(step: Int64) -> Int64 {
        fromSeconds.floorDividedBy(step).quotient * step
    }

    /// The number of whole steps of `step` from ``alignedStart(step:)`` to the page's time.
    public func stepCount(step: Int64) -> Int {
        Int((atSeconds - alignedStart(step: step) + step - 1) / step)
    }

    /// What was done to the releases of the app shown (every app's when none is) from `fromSeconds` to
    /// the page's time, oldest first.
    public func rolloutActions(from fromSeconds: Int64) -> [RolloutAction] {
        records.rolloutActions.filter { action in
            action.timeSeconds >= fromSeconds && action.timeSeconds < atSeconds && (app.map { action.app == $0 } ?? true)
        }
    }

    /// The maintenance windows in force for the app shown, as alert evaluation reads them
    /// (``AlertContext/maintenance(policy:stored:app:)``).
    public func maintenance() -> MaintenanceCalendar {
        AlertContext.maintenance(policy: policy, stored: records.maintenance, app: app)
    }
}
