import GRDB
public import PurchaseSLICore
import Synchronization

/// A store that keeps everything in memory, for fast tests and as the reference the contract tests
/// hold the other backends to: the same dedup horizon, caps, retention and rollups, with none of their
/// storage tricks. Nothing survives the process.
public final class InMemoryBucketStore: BucketStore, StoreRecordStore, SQLRecordStore {
    /// Limits and retention in force.
    public let configuration: StoreConfiguration
    private let state = Mutex(State())
    /// The low-volume records, in an SQLite database in memory with the file store's schema: their
    /// repositories are written once over SQL, and this is where they run for a store in memory.
    public let sql: any SQLExecutor

    /// An empty store under `configuration`.
    public init(configuration: StoreConfiguration = .default) {
        self.configuration = configuration
        // An SQLite database in memory opens and migrates unless memory is out: nothing a caller could handle.
        let records = try! DatabaseQueue()
        try! Schema.migrator.migrate(records)
        sql = SQLiteExecutor(records)
    }

    /// Everything stored.
    private struct State {
        /// Per event second, the eventID hashes counted.
        var seen: [Int64: Set<Int64>] = [:]
        /// Per event day, when it last received an event (receiving clock, seconds).
        var lastReceived: [Int64: Int64] = [:]
        var values = ValueTable()
        /// Each commit's span of minute buckets written to (and each prune's dropped); change n is mark n.
        var changes: [Range<Int64>] = []
        /// Per resolution: per bucket start, the counts of each series.
        var buckets: [Resolution: [Int64: [Int64: OutcomeCounts]]] = [:]
        /// Per resolution: per bucket start, the events of each (series, result, error value id).
        var errors: [Resolution: [Int64: [ErrorKey: Int64]]] = [:]
        var prices: [PriceKey: ProductPrice] = [:]
        var notifications: [NotificationKey: ReceivedNotification] = [:]
        /// Client report parts per minute, in the order appended.
        var reports: [Int64: [ClientReportMinute]] = [:]
        /// The receipt time the reports are settled up to (``ClientReportSettlement``), nil before the first.
        var reportsSettledBefore: Int64?
        /// Per minute of receipt, the events clients dropped unsent.
        var clientDrops: [Int64: Int64] = [:]
        /// Per hour of event time and series, the events that arrived late through the HTTP API.
        var lateArrivals: [Int64: [Int64: Int64]] = [:]
        /// Events counted under `__other__` per day, dimension name and app.
        var overflow: [OverflowKey: Int64] = [:]
    }

    private struct ErrorKey: Hashable {
        var series: Int64
        var result: ResultType
        var error: Int64
    }

    private struct PriceKey: Hashable {
        var productID: String
        var planID: String?
    }

    private struct NotificationKey: Hashable {
        var store: Store
        var notificationID: String
    }

    // MARK: Events

    /// Counts the events not counted before, all at once.
    public func record(_ batches: [PreparedEvents], receivedAtMillis: Int64) async throws -> RecordOutcome {
        let receivedAtSeconds = receivedAtMillis.floorDividedBy(.millisPerSecond).quotient
        let configuration = configuration
        return state.withLock { state in
            var outcome = RecordOutcome()
            let decision = DedupOrder(batches).decide { state.seen[$0.second]?.contains($0.hash) == true }
            for key in decision.newKeys { state.seen[key.second, default: []].insert(key.hash) }
            let isNew = decision.isNew
            outcome.duplicateIndexes = decision.duplicateIndexes
            outcome.duplicates = outcome.duplicateIndexes.count
            var earliest = Int64.max
            var latest = Int64.min
            for (batchIndex, batch) in batches.enumerated() {
                for (index, event) in batch.events.enumerated() where isNew[batchIndex][index] {
                    let day = batch.seconds[index].floorDividedBy(.secondsPerDay).quotient
                    state.lastReceived[day] = max(state.lastReceived[day] ?? .min, receivedAtSeconds)
                    let (series, app) = state.values.seriesID(of: batch.seriesValues[index], day: day, configuration: configuration)
                    if batch.tracksLateArrivals, LateArrival.isLate(eventSeconds: batch.seconds[index], receivedSeconds: receivedAtSeconds) {
                        state.lateArrivals[Resolution.hour.bucketStart(batch.seconds[index]), default: [:]][series, default: 0] += 1
                    }
                    let error = event.errorDescription.map {
                        state.values.valueID($0, dimension: .errorDescription, app: app, day: day, configuration: configuration)
                    }
                    for resolution in Resolution.allCases {
                        let time = resolution.bucketStart(batch.seconds[index])
                        state.buckets[resolution, default: [:]][time, default: [:]][series, default: OutcomeCounts()]
                            .add(event.resultType, statusCode: event.statusCode)
                        if let error {
                            let key = ErrorKey(series: series, result: event.resultType, error: error)
                            state.errors[resolution, default: [:]][time, default: [:]][key, default: 0] += 1
                        }
                    }
                    earliest = min(earliest, event.timestampMillis)
                    latest = max(latest, event.timestampMillis)
                    outcome.accepted += 1
                }
                for part in batch.clientReportBlobs(ofNew: isNew[batchIndex], receivedSeconds: receivedAtSeconds) {
                    state.reports[part.minute, default: []].append(part)
                }
                for price in batch.prices
                where (state.prices[PriceKey(productID: price.productID, planID: price.planID)]?.seenMillis ?? .min)
                    <= price.seenMillis
                {
                    state.prices[PriceKey(productID: price.productID, planID: price.planID)] = price
                }
            }
            if outcome.accepted > 0 {
                outcome.timeRange = earliest...latest
                let minute = { (millis: Int64) in Resolution.minute.bucketStart(millis.floorDividedBy(.millisPerSecond).quotient) }
                state.changes.append(minute(earliest)..<(minute(latest) + Resolution.minute.seconds))
            }
            let dropped = PreparedEvents.clientDroppedEvents(batches, isNew: isNew)
            if dropped > 0 { state.clientDrops[receivedAtSeconds.floorDividedBy(.secondsPerMinute).quotient, default: 0] += Int64(dropped) }
            for count in state.values.takeOverflow() {
                state.overflow[OverflowKey(day: count.day, dimension: count.dimension, app: count.app), default: 0] += count.events
                outcome.addOverflow(Int(count.events), of: count.app, dimension: count.dimension)
            }
            return outcome
        }
    }

    /// The spans of minute buckets written to or dropped since `mark` (every change is kept).
    public func bucketChanges(since mark: Int64?) async throws -> BucketChanges {
        state.withLock { state in
            let latest = Int64(state.changes.count)
            guard let mark, mark >= 0, mark <= latest else { return BucketChanges(mark: latest, spans: nil) }
            return BucketChanges(mark: latest, spans: Array(state.changes[Int(mark)...]))
        }
    }

    /// Every series with the value ids of `dimensions` (numbered for the call: the store keeps text).
    public func seriesTable(_ dimensions: [EventDimension]) async throws -> SeriesTable {
        let rows = state.withLock { state in
            state.values.series.enumerated().map { id, values in
                StoredSeries(id: Int64(id), values: dimensions.map { values[$0.seriesIndex!] })
            }
        }
        return SeriesTable(rows: rows, dimensionCount: dimensions.count)
    }

    /// Calls `body` with every bucket of the segments holding counts of the selected series.
    public func scanCounts(
        _ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesCounts]) throws -> Void
    ) async throws {
        let buckets = state.withLock { state in
            segments.flatMap { segment in
                (state.buckets[segment.resolution] ?? [:]).filter { segment.contains($0.key) }.map { time, series in
                    (time, series.filter { selection?.contains($0.key) ?? true }.map { SeriesCounts(series: $0.key, counts: $0.value) })
                }
            }
        }
        for (time, entries) in buckets { try body(time, entries) }
    }

    /// Calls `body` with every bucket of the segments holding error counts of the selected series.
    public func scanErrors(
        _ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesErrorCount]) throws -> Void
    ) async throws {
        let buckets = state.withLock { state in
            segments.flatMap { segment in
                (state.errors[segment.resolution] ?? [:]).filter { segment.contains($0.key) }.map { time, entries in
                    (
                        time,
                        entries.filter { selection?.contains($0.key.series) ?? true }.map { key, events in
                            SeriesErrorCount(
                                series: key.series, result: key.result, description: state.values.text(of: key.error), events: events)
                        }
                    )
                }
            }
        }
        for (time, entries) in buckets { try body(time, entries) }
    }

    /// The late arrivals of each series and hour in `[fromSeconds, toSeconds)`.
    public func lateArrivals(fromSeconds: Int64, toSeconds: Int64) async throws -> [LateArrivalCount] {
        state.withLock { state in
            state.lateArrivals.filter { $0.key >= fromSeconds && $0.key < toSeconds }.flatMap { hour, series in
                series.map { LateArrivalCount(hour: hour, series: $0.key, events: $0.value) }
            }
        }
    }

    /// The events counted under `__other__` on the days of `[fromDay, toDay)`, by day, dimension and app.
    public func overflow(fromDay: Int64, toDay: Int64) async throws -> [OverflowCount] {
        state.withLock { state in
            state.overflow.filter { $0.key.day >= fromDay && $0.key.day < toDay }
                .map { OverflowCount(day: $0.key.day, dimension: $0.key.dimension, app: $0.key.app, events: $0.value) }
                .sorted(by: OverflowCount.precedes)
        }
    }

    /// The latest price of each product and plan.
    public func prices() async throws -> [ProductPrice] {
        state.withLock { state in
            state.prices.values.sorted { ($0.productID, $0.planID ?? "") < ($1.productID, $1.planID ?? "") }
        }
    }

    /// Always writable.
    public func checkWritable() async throws {}

    /// Drops what is past its retention, as the other stores do.
    @discardableResult
    public func prune(nowMillis: Int64) async throws -> DedupMemory {
        let nowSeconds = nowMillis.floorDividedBy(.millisPerSecond).quotient
        let configuration = configuration
        return try state.withLock { state in
            if let newest = state.buckets[.minute]?.keys.max() {
                let retentions: [(Resolution, Int64?)] = [
                    (.minute, configuration.minuteRetentionSeconds), (.hour, configuration.hourRetentionSeconds),
                    (.day, configuration.dayRetentionSeconds),
                ]
                for case let (resolution, retention?) in retentions {
                    if resolution == .minute, let oldest = state.buckets[.minute]?.keys.min(), oldest < newest - retention {
                        state.changes.append(oldest..<(newest - retention))
                    }
                    state.buckets[resolution] = state.buckets[resolution]?.filter { $0.key >= newest - retention }
                    state.errors[resolution] = state.errors[resolution]?.filter { $0.key >= newest - retention }
                }
                let overflowFrom = (newest - configuration.hourRetentionSeconds).floorDividedBy(.secondsPerDay).quotient
                state.overflow = state.overflow.filter { $0.key.day >= overflowFrom }
            }
            for (day, received) in state.lastReceived where received < nowSeconds - configuration.dedupHorizonSeconds {
                state.seen = state.seen.filter { $0.key.floorDividedBy(.secondsPerDay).quotient != day }
                state.values.forgetAdmissions(day: day)
                state.lastReceived[day] = nil
            }
            try Self.settleReports(receivedBefore: nowSeconds - configuration.reportSettleSeconds, in: &state)
            let before = (nowSeconds - configuration.storeRecordRetentionSeconds) * .millisPerSecond
            state.notifications = state.notifications.filter { $0.value.notification.eventMillis >= before }
            state.reports = state.reports.filter { $0.key >= before.floorDividedBy(.millisPerMinute).quotient }
            state.clientDrops = state.clientDrops.filter { $0.key >= before.floorDividedBy(.millisPerMinute).quotient }
            state.lateArrivals = state.lateArrivals.filter { $0.key >= before.floorDividedBy(.millisPerSecond).quotient }
            return DedupMemory(seconds: Int64(state.seen.count), eventIDs: Int64(state.seen.values.reduce(0) { $0 + $1.count }))
        }
    }

    /// Cuts the reports of the parts received from the last settled time to `before` down to those of the
    /// charges stored in the span their minutes reach, as the SQLite store does.
    private static func settleReports(receivedBefore before: Int64, in state: inout State) throws {
        let from = state.reportsSettledBefore ?? state.reports.values.joined().map(\.receivedSeconds).min() ?? before
        guard from < before else { return }
        var keptByDay: [Int64: Set<Int64>] = [:]
        for minute in state.reports.keys {
            state.reports[minute] = try state.reports[minute]!.compactMap { part in
                guard part.receivedSeconds >= from, part.receivedSeconds < before else { return part }
                let day = minute.floorDividedBy(1440).quotient
                if keptByDay[day] == nil {
                    let span = ClientReport.chargeTimes(reachingDay: day)
                    keptByDay[day] = ClientReportBlob.hashes(
                        naming: state.notifications.values.map(\.notification).filter { span.contains($0.eventMillis) }.map {
                            (transactionID: $0.transactionID, appAccountToken: $0.appAccountToken)
                        })
                }
                guard let cut = try part.reports.withUnsafeBytes({ try ClientReportBlob.keeping($0, hashes: keptByDay[day]!) }) else { return part }
                var settled = part
                settled.reports = cut.blob
                return cut.count == 0 && part.grants == nil ? nil : settled
            }
        }
        state.reportsSettledBefore = before
    }

    // MARK: The stores' record

    /// Stores the notifications not stored yet.
    public func record(_ notifications: [ReceivedNotification]) async throws -> NotificationOutcome {
        state.withLock { state in
            var duplicates: [Int] = []
            for (index, received) in notifications.enumerated() {
                let key = NotificationKey(store: received.notification.store, notificationID: received.notification.notificationID)
                if state.notifications[key] == nil { state.notifications[key] = received } else { duplicates.append(index) }
            }
            return NotificationOutcome(accepted: notifications.count - duplicates.count, duplicateIndexes: duplicates)
        }
    }

    /// The notifications of `kinds` that happened in `[fromMillis, toMillis)`, by event time, store and id.
    public func notifications(kinds: Set<StoreEventKind>, fromMillis: Int64, toMillis: Int64) async throws -> [ReceivedNotification] {
        state.withLock { state in
            state.notifications.values.filter {
                kinds.contains($0.notification.kind) && $0.notification.eventMillis >= fromMillis && $0.notification.eventMillis < toMillis
            }.sorted {
                ($0.notification.eventMillis, $0.notification.store.rawValue, $0.notification.notificationID)
                    < ($1.notification.eventMillis, $1.notification.store.rawValue, $1.notification.notificationID)
            }
        }
    }

    /// Whether any charge notification is stored.
    public func holdsCharges() async throws -> Bool {
        state.withLock { state in state.notifications.values.contains { $0.notification.kind == .charge } }
    }

    /// The charge notifications naming any of `transactionIDs`, by event time.
    public func notifications(of kind: StoreEventKind, naming transactionIDs: Set<String>) async throws -> [ReceivedNotification] {
        state.withLock { state in
            state.notifications.values.filter { received in
                received.notification.kind == kind && received.notification.transactionID.map(transactionIDs.contains) ?? false
            }
        }
        .sorted {
            ($0.notification.eventMillis, $0.notification.store.rawValue, $0.notification.notificationID)
                < ($1.notification.eventMillis, $1.notification.store.rawValue, $1.notification.notificationID)
        }
    }

    /// The notifications of any kind naming any of `transactionIDs` with a product, by event time.
    public func notificationsWithProduct(naming transactionIDs: Set<String>) async throws -> [ReceivedNotification] {
        state.withLock { state in
            state.notifications.values.filter { received in
                received.notification.productID != nil && received.notification.transactionID.map(transactionIDs.contains) ?? false
            }
        }
        .sorted {
            ($0.notification.eventMillis, $0.notification.store.rawValue, $0.notification.notificationID)
                < ($1.notification.eventMillis, $1.notification.store.rawValue, $1.notification.notificationID)
        }
    }

    /// What the app's events of `[fromMillis, toMillis)` reported for each of `keys`.
    public func clientReports(_ keys: Set<ClientReport.Key>, fromMillis: Int64, toMillis: Int64) async throws -> [ClientReport] {
        guard !keys.isEmpty else { return [] }
        let wanted = Dictionary(keys.map { (ClientReportBlob.hash(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        var reports = RecordsByTime(order: ClientReport.byTime)
        for (minute, part) in reportParts(fromMillis: fromMillis, toMillis: toMillis) {
            try part.reports.withUnsafeBytes { bytes in
                try reports.append(minute: minute) {
                    try ClientReportBlob.decode(bytes, minute: minute, wanted: wanted, in: fromMillis..<toMillis, into: &$0)
                }
            }
        }
        return reports.sorted()
    }

    /// The outcome of every event of `[fromMillis, toMillis)` that named a transaction or account token.
    public func reportedOutcomes(fromMillis: Int64, toMillis: Int64, keyHashes: Set<Int64>?) async throws -> [ReportedOutcome] {
        var outcomes: [ReportedOutcome] = []
        for (minute, part) in reportParts(fromMillis: fromMillis, toMillis: toMillis) {
            try part.reports.withUnsafeBytes {
                try ClientReportBlob.decodeOutcomes($0, minute: minute, in: fromMillis..<toMillis, keyHashes: keyHashes, into: &outcomes)
            }
        }
        return outcomes
    }

    /// The report parts of the minutes of `[fromMillis, toMillis)`, by minute.
    private func reportParts(fromMillis: Int64, toMillis: Int64) -> [(minute: Int64, part: ClientReportMinute)] {
        let minutes = state.withLock { state in
            state.reports.filter {
                $0.key >= fromMillis.floorDividedBy(.millisPerMinute).quotient && $0.key <= toMillis.floorDividedBy(.millisPerMinute).quotient
            }
        }
        return minutes.sorted { $0.key < $1.key }.flatMap { minute, parts in parts.map { (minute, $0) } }
    }

    /// The grants events of `[fromMillis, toMillis)` reported, by time, those of `selection`.
    public func grants(fromMillis: Int64, toMillis: Int64, of selection: GrantSelection) async throws -> [GrantRecord] {
        try GrantBlob.grants(fromMillis: fromMillis, toMillis: toMillis, of: selection) {
            try forEachGrantBlob(fromMillis: fromMillis, toMillis: toMillis, $0)
        }
    }

    /// The time and transaction fingerprint of each grant events of `[fromMillis, toMillis)` reported.
    public func grantFingerprints(fromMillis: Int64, toMillis: Int64) async throws -> [GrantFingerprint] {
        try GrantBlob.fingerprints(fromMillis: fromMillis, toMillis: toMillis) {
            try forEachGrantBlob(fromMillis: fromMillis, toMillis: toMillis, $0)
        }
    }

    /// Calls `body` with each minute of `[fromMillis, toMillis)` that holds grants and each of its grant
    /// blobs, by minute.
    private func forEachGrantBlob(fromMillis: Int64, toMillis: Int64, _ body: (Int64, UnsafeRawBufferPointer) throws -> Void) throws {
        let minutes = state.withLock { state in
            state.reports.filter {
                $0.key >= fromMillis.floorDividedBy(.millisPerMinute).quotient && $0.key <= toMillis.floorDividedBy(.millisPerMinute).quotient
            }
        }
        for (minute, parts) in minutes.sorted(by: { $0.key < $1.key }) {
            for grantBlob in parts.compactMap(\.grants) { try grantBlob.withUnsafeBytes { try body(minute, $0) } }
        }
    }

    /// Events clients dropped unsent, reported with batches received in `[fromMillis, toMillis)`.
    public func clientDroppedEvents(fromMillis: Int64, toMillis: Int64) async throws -> Int64 {
        state.withLock { state in
            state.clientDrops.reduce(0) { total, drop in
                total + (drop.key * .millisPerMinute >= fromMillis && drop.key * .millisPerMinute < toMillis ? drop.value : 0)
            }
        }
    }

    /// Charges and refunds of `[fromMillis, toMillis)` per step; see ``StoreRecordStore/storeActivity(fromMillis:toMillis:stepSeconds:)``.
    public func storeActivity(fromMillis: Int64, toMillis: Int64, stepSeconds: Int64) async throws -> [StoreActivityRow] {
        let all = state.withLock { Array($0.notifications.values) }
        return StoreActivityRow.rows(of: all, fromMillis: fromMillis, toMillis: toMillis, stepSeconds: stepSeconds)
    }

}

/// What an overflow count is kept by: its day, dimension name (or `series`) and app.
private struct OverflowKey: Hashable {
    var day: Int64
    var dimension: String
    var app: String
}
