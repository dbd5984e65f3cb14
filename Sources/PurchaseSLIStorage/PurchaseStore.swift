/// A store with every capability purchase-sli uses: the buckets (``BucketStore``) and, beside them, the
/// stores' own record (``StoreRecordStore``) and the database the low-volume records' repositories are
/// written over (``SQLRecordStore``). Every backend
/// (SQLite, PostgreSQL, memory) is one, so the layers above ask for what they need in their types and
/// never probe for a capability at run time.
public typealias PurchaseStore = BucketStore & StoreRecordStore & SQLRecordStore

/// A backend's database as the repositories of the low-volume records use it (``MaintenanceWindowRepository``):
/// each is written once over its ``SQLExecutor``, with the app filter inside, so that a record kind needs
/// no code per backend but its migrations.
public protocol SQLRecordStore: Sendable {
    /// Runs the repositories' statements on the backend's database.
    var sql: any SQLExecutor { get }
}
