import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIServer
import PurchaseSLIStorage
import Synchronization

/// A store whose batches fail to commit, as on a full disk, while reads still work and the readiness
/// probe's one-page write still fits (as it may in the WAL's space), until `heal()` frees the disk.
final class FullDiskStore: SQLiteForwarding, @unchecked Sendable {
    let base: SQLiteBucketStore
    private let isFull = Mutex(true)

    init(base: SQLiteBucketStore) { self.base = base }

    /// Frees the disk: commits succeed again.
    func heal() { isFull.withLock { $0 = false } }

    func record(_ batches: [PreparedEvents], receivedAtMillis: Int64) async throws -> RecordOutcome {
        guard !isFull.withLock({ $0 }) else { throw DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full") }
        return try await base.record(batches, receivedAtMillis: receivedAtMillis)
    }
}

/// A test store around the SQLite store: every call goes to it unchanged unless the store implements it
/// itself (a failing commit, a gated read).
protocol SQLiteForwarding: BucketStore, StoreRecordStore, SQLRecordStore {
    var base: SQLiteBucketStore { get }
}

extension SQLiteForwarding {
    func record(_ batches: [PreparedEvents], receivedAtMillis: Int64) async throws -> RecordOutcome {
        try await base.record(batches, receivedAtMillis: receivedAtMillis)
    }
    func seriesTable(_ dimensions: [EventDimension]) async throws -> SeriesTable { try await base.seriesTable(dimensions) }
    func scanCounts(_ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesCounts]) throws -> Void) async throws {
        try await base.scanCounts(segments, selection: selection, body)
    }
    func scanErrors(_ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesErrorCount]) throws -> Void) async throws {
        try await base.scanErrors(segments, selection: selection, body)
    }
    func lateArrivals(fromSeconds: Int64, toSeconds: Int64) async throws -> [LateArrivalCount] {
        try await base.lateArrivals(fromSeconds: fromSeconds, toSeconds: toSeconds)
    }
    func overflow(fromDay: Int64, toDay: Int64) async throws -> [OverflowCount] { try await base.overflow(fromDay: fromDay, toDay: toDay) }
    func prices() async throws -> [ProductPrice] { try await base.prices() }
    func checkWritable() async throws { try await base.checkWritable() }
    func prune(nowMillis: Int64) async throws -> DedupMemory { try await base.prune(nowMillis: nowMillis) }
    func record(_ notifications: [ReceivedNotification]) async throws -> NotificationOutcome { try await base.record(notifications) }
    func notifications(kinds: Set<StoreEventKind>, fromMillis: Int64, toMillis: Int64) async throws -> [ReceivedNotification] {
        try await base.notifications(kinds: kinds, fromMillis: fromMillis, toMillis: toMillis)
    }
    func clientReports(_ keys: Set<ClientReport.Key>, fromMillis: Int64, toMillis: Int64) async throws -> [ClientReport] {
        try await base.clientReports(keys, fromMillis: fromMillis, toMillis: toMillis)
    }
    func reportedOutcomes(fromMillis: Int64, toMillis: Int64, keyHashes: Set<Int64>?) async throws -> [ReportedOutcome] {
        try await base.reportedOutcomes(fromMillis: fromMillis, toMillis: toMillis, keyHashes: keyHashes)
    }

    func notifications(of kind: StoreEventKind, naming transactionIDs: Set<String>) async throws -> [ReceivedNotification] {
        try await base.notifications(of: kind, naming: transactionIDs)
    }
    func holdsCharges() async throws -> Bool { try await base.holdsCharges() }
    func notificationsWithProduct(naming transactionIDs: Set<String>) async throws -> [ReceivedNotification] {
        try await base.notificationsWithProduct(naming: transactionIDs)
    }

    func grants(fromMillis: Int64, toMillis: Int64, of selection: GrantSelection) async throws -> [GrantRecord] {
        try await base.grants(fromMillis: fromMillis, toMillis: toMillis, of: selection)
    }
    func grantFingerprints(fromMillis: Int64, toMillis: Int64) async throws -> [GrantFingerprint] {
        try await base.grantFingerprints(fromMillis: fromMillis, toMillis: toMillis)
    }
    func clientDroppedEvents(fromMillis: Int64, toMillis: Int64) async throws -> Int64 {
        try await base.clientDroppedEvents(fromMillis: fromMillis, toMillis: toMillis)
    }
    var sql: any SQLExecutor { base.sql }
    func storeActivity(fromMillis: Int64, toMillis: Int64, stepSeconds: Int64) async throws -> [StoreActivityRow] {
        try await base.storeActivity(fromMillis: fromMillis, toMillis: toMillis, stepSeconds: stepSeconds)
    }
}

/// Keeps one incident record `id` in `store`: a ChargedNotGranted ticket of 2026-11-19 16:41 still firing,
/// 3 charges (14.97 USD) owed.
func keepAChargedNotGrantedTicket(id: String, in store: any SQLRecordStore) async throws {
    let start = RFC3339.parseMillis("2026-11-19T16:41:00Z")! / 1000
    let labels = SeriesLabels(actionType: "purchase", store: "apple", slice: .init(dimension: .productID, value: "coins_500"))
    let finding = AlertFinding(
        kind: .chargedNotGranted, severity: .ticket, labels: labels, time: start,
        evidence: SilenceEvidence(windowSeconds: 1800, expectedEvents: 30, silentSince: start))
    let incident = Incident(id: id, episodes: [AlertEpisode(first: finding, startsAt: start)], causes: [])
    let owed = ChargeTally(count: 3, worth: ["USD": 14.97])
    let record = IncidentRecord(
        incident: incident, app: nil, readAtSeconds: start + 3600, cost: AlertCost(ungranted: owed), losses: LossTimeline(), owed: owed)
    try await IncidentRepository(store.sql).save([try record.stored()])
}

/// One valid event line, timestamped a minute ago so that it is neither late nor in the future.
func eventLine(_ id: String, product: String = "coins_100", result: String = "success", ageSeconds: Int64 = 60) -> String {
    let time = RFC3339.format(seconds: Int64(Date().timeIntervalSince1970) - ageSeconds)
    return #"{"eventID":"\#(id)","timestamp":"\#(time)","productID":"\#(product)","actionType":"purchase","resultType":"\#(result)"}"#
}

let ndjson: HTTPFields = [.contentType: "application/x-ndjson"]

func body(_ lines: [String]) -> ByteBuffer { ByteBuffer(string: lines.joined(separator: "\n")) }

/// The response body as a JSON object, or an empty one when it is not (which no test expects).
func bodyJSON(_ buffer: ByteBuffer) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
}

/// The `error` message of a JSON error response, or "" when there is none.
func errorMessage(_ buffer: ByteBuffer) -> String {
    bodyJSON(buffer)["error"] as? String ?? ""
}

/// Total events counted in `store` over the last two days.
func countedEvents(_ store: any BucketStore) async throws -> Int64 {
    let now = Int64(Date().timeIntervalSince1970)
    return try await store.counts(CountQuery(fromSeconds: now - 2 * 86_400, toSeconds: now + 600)).first?.counts.total ?? 0
}

/// Builds the app on `store` with test-friendly defaults.
func makeApp(
    store: any PurchaseStore, databasePath: String? = nil, deliveries: NotificationDeliveries? = nil,
    configure: (inout ServerConfiguration) -> Void = { _ in }
) -> some ApplicationProtocol {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configure(&configuration)
    var logger = Logger(label: "purchase-sli-tests")
    logger.logLevel = .warning
    return buildApplication(configuration: configuration, store: store, databasePath: databasePath, deliveries: deliveries, logger: logger)
}
