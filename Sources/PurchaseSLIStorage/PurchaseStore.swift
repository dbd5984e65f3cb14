/// A store with every capability purchase-sli uses: the buckets (``BucketStore``) and, beside them, the
/// stores' own record (``StoreRecordStore``) and the incidents' records (``IncidentRecordStore``). Every backend (SQLite, PostgreSQL, memory) is one, so the
/// layers above ask for what they need in their types and never probe for a capability at run time.
public typealias PurchaseStore = BucketStore & StoreRecordStore & IncidentRecordStore
