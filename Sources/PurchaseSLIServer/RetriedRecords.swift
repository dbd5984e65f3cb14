import PurchaseSLICore
import PurchaseSLIDecoding
import Synchronization

/// The server's one ``RetriedRecordWindow``, shared by its ingestion routes.
final class RetriedRecords: Sendable {
    private let window = Mutex(RetriedRecordWindow())

    /// Gives the retried records among `events` (computed eventIDs seen in the window) their first time.
    func settle(_ events: inout [PurchaseEvent], receivedMillis: Int64) {
        window.withLock { $0.settle(&events, receivedMillis: receivedMillis) }
    }
}
