import Foundation
import GRDBSQLite
import Synchronization

/// Copies the WAL back into the database file on a connection and thread of its own, so that the
/// writer, which every commit waits for, never does (SQLite's automatic checkpoint would run inside
/// the commit that crosses the threshold).
///
/// A passive checkpoint runs at most once per ``interval`` after a write asked for one; it copies
/// what no reader still needs and lets the next write transaction start the WAL over, so the WAL
/// stays about as small as with SQLite's automatic checkpoints.
final class BackgroundCheckpointer: Sendable {
    /// The least time between two checkpoints.
    static let interval: Duration = .milliseconds(200)

    private let connection: Connection
    private let queue = DispatchQueue(label: "purchase-sli checkpointer")
    private let isScheduled = Atomic<Bool>(false)

    /// Opens a connection to the database at `path` for checkpoints.
    init(path: String) throws {
        connection = try Connection(path: path)
    }

    /// Schedules a checkpoint unless one is already scheduled. Cheap enough to call after every commit.
    func writeDidCommit() {
        guard isScheduled.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        let delay = Double(Self.interval.components.attoseconds) / 1e18
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            isScheduled.store(false, ordering: .relaxed)
            connection.checkpointPassively()
        }
    }

    /// An SQLite connection used only for checkpoints; closed with the checkpointer, after the last
    /// scheduled checkpoint.
    private final class Connection: @unchecked Sendable {
        private let handle: OpaquePointer

        init(path: String) throws {
            var handle: OpaquePointer?
            let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
            guard status == SQLITE_OK, let handle else {
                let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
                sqlite3_close_v2(handle)
                throw StorageError.cannotOpen(path: path, detail: "checkpoint connection: \(message)")
            }
            sqlite3_busy_timeout(handle, 1000)
            self.handle = handle
        }

        /// Copies what it can of the WAL into the database; a failure (the database busy, say) only
        /// leaves the work to the next checkpoint.
        func checkpointPassively() {
            _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }

        deinit { sqlite3_close_v2(handle) }
    }
}
