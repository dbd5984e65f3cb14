public import PurchaseSLICore

/// One app's view of a store that several apps write to: its queries see only the series whose events
/// named `app` (their `app` field) and the store notifications of that bundle id or package name, so
/// that alerts, pages and the weekly review read as if the app had a store of its own. Writes, prices,
/// client reports (matched to charges by transaction) and pruning pass through to the store beneath.
public struct AppScopedStore: PurchaseStore {
    /// The store read.
    public let base: any PurchaseStore
    /// The app seen: the value of the events' `app` and of the notifications' app id.
    public let app: String

    /// The view of `app` in `base`.
    public init(_ base: any PurchaseStore, app: String) {
        self.base = base
        self.app = app
    }

    // MARK: Buckets

    /// Counts the events, whatever app they name: the view filters what is read, not what is written.
    public func record(_ batches: [PreparedEvents], receivedAtMillis: Int64) async throws -> RecordOutcome {
        try await base.record(batches, receivedAtMillis: receivedAtMillis)
    }

    /// The stored series of the app (narrowed once per state of the series beneath, ``CatalogMemo``).
    public func seriesTable(_ dimensions: [EventDimension]) async throws -> SeriesTable {
        let table = try await base.seriesTable(dimensions + [.app])
        return table.memo.table(table, narrowedTo: app, dimensions: dimensions)
    }

    /// The buckets' counts of the app's series among `selection`.
    public func scanCounts(
        _ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesCounts]) throws -> Void
    ) async throws {
        let own = try await ownSeries()
        try await base.scanCounts(segments, selection: selection ?? own) { time, entries in
            try body(time, entries.filter { own.contains($0.series) })
        }
    }

    /// The buckets' error counts of the app's series among `selection`.
    public func scanErrors(
        _ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesErrorCount]) throws -> Void
    ) async throws {
        let own = try await ownSeries()
        try await base.scanErrors(segments, selection: selection ?? own) { time, entries in
            try body(time, entries.filter { own.contains($0.series) })
        }
    }

    /// The late arrivals of the app's series.
    public func lateArrivals(fromSeconds: Int64, toSeconds: Int64) async throws -> [LateArrivalCount] {
        let own = try await ownSeries()
        return try await base.lateArrivals(fromSeconds: fromSeconds, toSeconds: toSeconds).filter { own.contains($0.series) }
    }

    /// What the caps turned away from the app's own budgets, and the events of the apps past the day's
    /// apps (counted under the app `__other__`: the app's own events may be among them, its name is lost).
    public func overflow(fromDay: Int64, toDay: Int64) async throws -> [OverflowCount] {
        try await base.overflow(fromDay: fromDay, toDay: toDay).filter { $0.app == app || $0.dimension == EventDimension.app.rawValue }
    }

    /// The latest prices of every product (a product id names one product whichever app sells it).
    public func prices() async throws -> [ProductPrice] { try await base.prices() }

    /// What was written to the store beneath since `mark` (every app's writes: a change the app's series
    /// do not hold only costs a reader a read again).
    public func bucketChanges(since mark: Int64?) async throws -> BucketChanges { try await base.bucketChanges(since: mark) }

    /// Whether the store beneath takes a write now.
    public func checkWritable() async throws { try await base.checkWritable() }

    /// Prunes the store beneath.
    @discardableResult
    public func prune(nowMillis: Int64) async throws -> DedupMemory { try await base.prune(nowMillis: nowMillis) }

    /// The ids of the series whose events named the app.
    private func ownSeries() async throws -> SeriesSelection {
        let table = try await base.seriesTable([.app])
        return table.memo.series(of: app, in: table)
    }

    // MARK: Store record

    /// Stores the notifications, whatever app they name.
    public func record(_ notifications: [ReceivedNotification]) async throws -> NotificationOutcome {
        try await base.record(notifications)
    }

    /// The app's notifications of `kinds` in `[fromMillis, toMillis)`.
    public func notifications(kinds: Set<StoreEventKind>, fromMillis: Int64, toMillis: Int64) async throws -> [ReceivedNotification] {
        try await base.notifications(kinds: kinds, fromMillis: fromMillis, toMillis: toMillis).filter { $0.notification.appID == app }
    }

    /// The app's charges naming `transactionIDs`.
    public func notifications(of kind: StoreEventKind, naming transactionIDs: Set<String>) async throws -> [ReceivedNotification] {
        try await base.notifications(of: kind, naming: transactionIDs).filter { $0.notification.appID == app }
    }

    /// Whether any charge is stored, of any app: those then looked up are this app's alone (``notifications(of:naming:)``).
    public func holdsCharges() async throws -> Bool { try await base.holdsCharges() }

    /// The notifications naming `transactionIDs` with a product, of any app: a transaction is one app's.
    public func notificationsWithProduct(naming transactionIDs: Set<String>) async throws -> [ReceivedNotification] {
        try await base.notificationsWithProduct(naming: transactionIDs)
    }

    /// What the events reported about `keys` (the keys come from the app's own charges).
    public func clientReports(_ keys: Set<ClientReport.Key>, fromMillis: Int64, toMillis: Int64) async throws -> [ClientReport] {
        try await base.clientReports(keys, fromMillis: fromMillis, toMillis: toMillis)
    }

    /// The outcomes of the events about the app's products: reports keep no app, and a product id names
    /// one product whichever app sells it.
    public func reportedOutcomes(fromMillis: Int64, toMillis: Int64, keyHashes: Set<Int64>?) async throws -> [ReportedOutcome] {
        let products = Set(try await series([.productID]).compactMap { $0.values.first ?? nil })
        return try await base.reportedOutcomes(fromMillis: fromMillis, toMillis: toMillis, keyHashes: keyHashes).filter {
            products.contains($0.productID)
        }
    }

    /// The grants the app's events reported.
    public func grants(fromMillis: Int64, toMillis: Int64, of selection: GrantSelection) async throws -> [GrantRecord] {
        try await base.grants(fromMillis: fromMillis, toMillis: toMillis, of: selection).filter { $0.app == app }
    }

    /// The fingerprints of every app's grants: more than the app's, which serves to find the app's
    /// transactions granted more than once (those then read are the app's grants alone).
    public func grantFingerprints(fromMillis: Int64, toMillis: Int64) async throws -> [GrantFingerprint] {
        try await base.grantFingerprints(fromMillis: fromMillis, toMillis: toMillis)
    }

    /// Events clients dropped unsent, of every app: batches report their drops without naming an app.
    public func clientDroppedEvents(fromMillis: Int64, toMillis: Int64) async throws -> Int64 {
        try await base.clientDroppedEvents(fromMillis: fromMillis, toMillis: toMillis)
    }

    /// The app's charges and refunds per step.
    public func storeActivity(fromMillis: Int64, toMillis: Int64, stepSeconds: Int64) async throws -> [StoreActivityRow] {
        try await base.storeActivity(fromMillis: fromMillis, toMillis: toMillis, stepSeconds: stepSeconds).filter { $0.appID == app }
    }

    /// The shared store's database: each repository over it keeps the app filter itself.
    public var sql: any SQLExecutor { base.sql }
}
