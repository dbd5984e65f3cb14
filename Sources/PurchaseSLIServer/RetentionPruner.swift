public import Logging
import PurchaseSLIApplication
import PurchaseSLICore
public import PurchaseSLIStorage
public import ServiceLifecycle

/// `serve`'s retention: at start and every interval, drops buckets past their retention and eventIDs
/// past the dedup horizon (as `ingest` does after each run), so that a service running for months keeps
/// a bounded database; `/metrics` shows the dedup memory it leaves.
public struct RetentionPruner: Service {
    private let store: any BucketStore
    private let intervalSeconds: Int64
    private let metrics: ServerMetrics
    private let logger: Logger
    private let nowMillis: @Sendable () -> Int64
    private let leadership: any StoreLeadership

    /// Creates a pruner of `store` running every `intervalSeconds`, recording into `metrics`.
    public init(
        store: any BucketStore, intervalSeconds: Int64, metrics: ServerMetrics, logger: Logger,
        nowMillis: @escaping @Sendable () -> Int64, leadership: any StoreLeadership = SoleLeadership()
    ) {
        self.store = store
        self.intervalSeconds = intervalSeconds
        self.metrics = metrics
        self.logger = logger
        self.nowMillis = nowMillis
        self.leadership = leadership
    }

    /// Prunes at once, then every interval, until graceful shutdown.
    public func run() async throws {
        try await runScheduledRounds(every: intervalSeconds, leadership: leadership, nowMillis: nowMillis, state: ()) { [self] _, _ in
            await pruneOnce()
        }
    }

    /// Prunes once (on a thread of its own: it deletes rows under the write lock) and records what the
    /// dedup memory holds; a failure is logged and tried again at the next interval.
    public func pruneOnce() async {
        let store = store
        let now = nowMillis()
        do {
            let memory = try await store.prune(nowMillis: now)
            metrics.recordDedupMemory(memory, atSeconds: now / .millisPerSecond)
            logger.info("retention applied", metadata: ["dedupSeconds": "\(memory.seconds)", "dedupEventIDs": "\(memory.eventIDs)"])
        } catch is CancellationError {
            // The service is stopping (or failed to start): nothing went wrong with the store.
        } catch {
            logger.error("retention not applied", metadata: ["error": "\(error)"])
        }
    }
}
