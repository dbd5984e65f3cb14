/// Limits and retention of a bucket store.
public struct StoreConfiguration: Sendable, Hashable {
    /// Distinct values admitted per dimension per UTC day and app (and apps per day); later values count
    /// under `__other__`.
    public var cardinalityCap: Int
    /// Distinct values admitted per dimension per UTC day across every app together: past it no app admits
    /// a new value of the dimension that day, so that events naming many apps (each with a budget of
    /// ``cardinalityCap``) cannot grow the store without bound.
    public var totalCardinalityCap = 20_000
    /// Distinct series (combinations of dimension values) admitted per UTC day and app; the events of later
    /// ones count in their action's (and app's) `__other__` series.
    public var seriesCap = 20_000
    /// Distinct series admitted per UTC day across every app together: past it no app admits a new series
    /// that day, so that events naming many apps (each with a budget of ``seriesCap``) cannot grow the
    /// store without bound.
    public var totalSeriesCap = 200_000
    /// Per app (its value of the `app` dimension), caps of its own in place of ``seriesCap`` and
    /// ``cardinalityCap``; an app named here is bounded by them alone (``seriesLimits(ofApp:)``).
    public var appCaps: [String: AppCaps] = [:]
    /// How long an eventID is remembered after its day last received an event, in seconds.
    public var dedupHorizonSeconds: Int64
    /// Minute buckets older than this before the newest bucket are dropped, in seconds.
    public var minuteRetentionSeconds: Int64
    /// Hour buckets older than this before the newest bucket are dropped, in seconds.
    public var hourRetentionSeconds: Int64
    /// Day buckets older than this before the newest bucket are dropped; nil keeps them forever.
    public var dayRetentionSeconds: Int64?
    /// Store notifications and the app's reports on transactions older than this (by when they happened,
    /// against the receiving clock) are dropped, in seconds.
    public var storeRecordRetentionSeconds: Int64 = 90 * .secondsPerDay
    /// The app's reports older than this (by when they happened, against the receiving clock) are kept only
    /// when a stored notification names their transaction or account token within the span a charge
    /// reaches (``ClientReport/settleAfterMillis``); their grants stay for ``storeRecordRetentionSeconds``.
    public var reportSettleSeconds: Int64 = ClientReport.settleAfterMillis / .millisPerSecond
    /// SQLite page cache of the writer's connection, in KiB (a reader's is at most
    /// ``readerCacheSizeKiB``).
    public var cacheSizeKiB: Int
    /// SQLite page cache of each reading connection, in KiB: a read scans its buckets once, and the
    /// operating system keeps the file's pages.
    public static let readerCacheSizeKiB = 8 * 1024
    /// Whether each commit is fsynced before it returns (`synchronous = FULL`), so that it survives a
    /// power loss; otherwise (`NORMAL`) a commit survives a crash or kill of the process, not of the machine.
    public var fsyncEachCommit = false
    /// How long a write (or opening the file) waits for another process's write to finish, so that an
    /// `ingest` into the database of a running `serve` takes turns with it instead of failing with
    /// "database is locked". Each transaction holds the lock for one batch only.
    public var busyTimeoutSeconds: Double = 30
    /// How much written work the writer defers before one commit folds it in.
    public var deferral = WriteDeferral()

    /// The defaults: cap 2000, dedup 8 days, minutes 35 days, hours 400 days, days forever.
    public static let `default` = StoreConfiguration(
        cardinalityCap: 2000, dedupHorizonSeconds: 8 * .secondsPerDay, minuteRetentionSeconds: 35 * .secondsPerDay,
        hourRetentionSeconds: 400 * .secondsPerDay, dayRetentionSeconds: nil, cacheSizeKiB: 64 * 1024)

    /// Creates a configuration.
    public init(
        cardinalityCap: Int, dedupHorizonSeconds: Int64, minuteRetentionSeconds: Int64, hourRetentionSeconds: Int64,
        dayRetentionSeconds: Int64?, cacheSizeKiB: Int
    ) {
        self.cardinalityCap = cardinalityCap
        self.dedupHorizonSeconds = dedupHorizonSeconds
        self.minuteRetentionSeconds = minuteRetentionSeconds
        self.hourRetentionSeconds = hourRetentionSeconds
        self.dayRetentionSeconds = dayRetentionSeconds
        self.cacheSizeKiB = cacheSizeKiB
    }
}

/// How much work the single writer defers (see `BucketWriter` and `PendingSeenIDs`): counts added to
/// a minute whose bucket is much larger than the addition, counts not yet in the hour and day buckets,
/// and eventIDs added to event seconds that already hold many. Deferred work is stored in the same
/// commit and read by queries, so nothing is lost or counted twice; folding it in at once rewrites each
/// bucket and second once instead of once per commit.
public struct WriteDeferral: Sendable, Hashable {
    /// Pending rollup rows (one per commit and minute) that make a commit fold them in.
    public var pendingRows = 4096
    /// Bytes of pending rollup rows that make a commit fold them in.
    public var pendingBytes = 2 << 20
    /// Pending eventIDs that make a commit merge them into their seconds' rows.
    public var pendingEventIDs = 262_144

    /// The defaults.
    public init() {}
}
