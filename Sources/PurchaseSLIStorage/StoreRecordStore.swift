public import PurchaseSLICore

/// Where the stores' own record lives beside the buckets: their notifications, one row each, and what
/// the app's events reported per transaction and account token (written with the events themselves).
/// Every call is async: no thread waits on the database (SQLite's reads run on its own readers' queues
/// and give the reader back before the caller resumes; PostgreSQL's run on the store's event loop).
public protocol StoreRecordStore: Sendable {
    /// Stores verified notifications with when each was received, skipping those already stored (the same
    /// store and notification id); all or nothing. After it returns they are durable.
    func record(_ notifications: [ReceivedNotification]) async throws -> NotificationOutcome

    /// The notifications of `kinds` that happened in `[fromMillis, toMillis)`, by their event time.
    func notifications(kinds: Set<StoreEventKind>, fromMillis: Int64, toMillis: Int64) async throws -> [ReceivedNotification]

    /// The notifications of `kind` naming any of `transactionIDs`, whatever their time, by event time: the
    /// charges behind the app's grants, the refunds that settled charges read for another range.
    func notifications(of kind: StoreEventKind, naming transactionIDs: Set<String>) async throws -> [ReceivedNotification]

    /// Whether any charge notification is stored: without one (events alone, no store notifications) a
    /// grant audit looks no charge up and names no transaction to ``notifications(of:naming:)``.
    func holdsCharges() async throws -> Bool

    /// The notifications of any kind naming any of `transactionIDs` with a product, whatever their time, by
    /// event time: where a charge or refund told without a product finds its own (the one of the smallest
    /// notification id, ``StoreActivityRow``).
    func notificationsWithProduct(naming transactionIDs: Set<String>) async throws -> [ReceivedNotification]

    /// What the app's events of `[fromMillis, toMillis)` reported about each of `keys`: one report per
    /// event, in the order of ``ClientReport/byTime(_:)``: reconciliation picks each charge's own.
    func clientReports(_ keys: Set<ClientReport.Key>, fromMillis: Int64, toMillis: Int64) async throws -> [ClientReport]

    /// The outcome of every event of `[fromMillis, toMillis)` that named a transaction or account token,
    /// by its key's hash (``ReportedOutcome``), only those of `keyHashes` when given, in no particular
    /// order: where the transactions an outage left ungranted are counted. The stores keep them as long as
    /// the reports (9 days after receipt, then only those of the charges they hold).
    func reportedOutcomes(fromMillis: Int64, toMillis: Int64, keyHashes: Set<Int64>?) async throws -> [ReportedOutcome]

    /// The grants the app's events of `[fromMillis, toMillis)` reported (``GrantRecord``), by time, those of
    /// `selection`: what double grants and grants without a charge are found in.
    func grants(fromMillis: Int64, toMillis: Int64, of selection: GrantSelection) async throws -> [GrantRecord]

    /// The time and transaction fingerprint of each grant the app's events of `[fromMillis, toMillis)`
    /// reported, in no particular order: where a grant audit finds the transactions granted more than once
    /// before it reads their grants in full.
    func grantFingerprints(fromMillis: Int64, toMillis: Int64) async throws -> [GrantFingerprint]

    /// Events clients dropped before sending them (their queue was full), as reported with the batches
    /// received in `[fromMillis, toMillis)`: what the counts miss.
    func clientDroppedEvents(fromMillis: Int64, toMillis: Int64) async throws -> Int64

    /// Charges and refunds that happened in `[fromMillis, toMillis)`, counted per `stepSeconds` (aligned
    /// to the epoch), store, environment, app, product, type and currency.
    func storeActivity(fromMillis: Int64, toMillis: Int64, stepSeconds: Int64) async throws -> [StoreActivityRow]
}

extension StoreRecordStore {
    /// Stores notifications received at one time; see ``record(_:)-([ReceivedNotification])``.
    public func record(_ notifications: [StoreNotification], receivedAtMillis: Int64) async throws -> NotificationOutcome {
        try await record(notifications.map { ReceivedNotification($0, receivedMillis: receivedAtMillis) })
    }

    /// The charges and refunds among `notifications` (of any span that holds `[fromMillis, toMillis)`)
    /// counted per step as ``storeActivity(fromMillis:toMillis:stepSeconds:)`` counts them: one told
    /// without a product takes its transaction's, looked up whatever told it and when.
    package func storeActivity(
        of notifications: [ReceivedNotification], fromMillis: Int64, toMillis: Int64, stepSeconds: Int64
    ) async throws -> [StoreActivityRow] {
        let unnamed = Set(notifications.filter { $0.notification.productID == nil }.compactMap(\.notification.transactionID))
        let products = unnamed.isEmpty ? [] : try await notificationsWithProduct(naming: unnamed)
        return StoreActivityRow.rows(of: notifications + products, fromMillis: fromMillis, toMillis: toMillis, stepSeconds: stepSeconds)
    }

    /// Every grant the app's events of `[fromMillis, toMillis)` reported, by time.
    public func grants(fromMillis: Int64, toMillis: Int64) async throws -> [GrantRecord] {
        try await grants(fromMillis: fromMillis, toMillis: toMillis, of: .every)
    }
}

/// What recording notifications did.
public struct NotificationOutcome: Sendable, Hashable {
    /// Notifications stored for the first time.
    public var accepted: Int
    /// Positions (in the order given) of those already stored.
    public var duplicateIndexes: [Int]

    /// Notifications already stored.
    public var duplicates: Int { duplicateIndexes.count }

    /// Creates an outcome.
    public init(accepted: Int, duplicateIndexes: [Int]) {
        self.accepted = accepted
        self.duplicateIndexes = duplicateIndexes
    }
}
