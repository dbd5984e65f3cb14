import CoreMetrics
import Foundation
import Prometheus
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDecoding
public import PurchaseSLIStorage

/// The service's metrics, registered in a registry of its own (no global bootstrap, so every test and
/// every app instance has separate counts) and exposed at `/metrics` in the Prometheus text format.
public final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let accepted: CoreMetrics.Counter
    private let duplicates: CoreMetrics.Counter
    private let commitEvents: Recorder
    private let commitRequests: Recorder
    private let commitSeconds: CoreMetrics.Timer
    private let databaseBytes: CoreMetrics.Gauge
    private let walBytes: CoreMetrics.Gauge
    private let dedupSeconds: CoreMetrics.Gauge
    private let dedupEventIDs: CoreMetrics.Gauge
    private let prunedAt: CoreMetrics.Gauge
    private let store: (any StoreSizeReporting)?
    /// The apps the configuration names (`alertApps`): the only apps a label names.
    private let namedApps: Set<String>

    /// Creates the metrics; the size of `store` (when it can tell) is measured on each scrape. An app's
    /// overflow is labelled with its name when `namedApps` holds it (the configuration's, never a client's).
    public init(store: (any StoreSizeReporting)?, namedApps: Set<String> = []) {
        self.namedApps = namedApps
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
        ]
        factory.defaultValueHistogramBuckets = [1, 10, 100, 500, 1000, 5000, 10_000, 50_000]
        self.factory = factory
        self.store = store
        accepted = Counter(label: "purchase_sli_events_accepted_total", factory: factory)
        duplicates = Counter(label: "purchase_sli_events_duplicate_total", factory: factory)
        commitEvents = Recorder(label: "purchase_sli_commit_events", aggregate: true, factory: factory)
        commitRequests = Recorder(label: "purchase_sli_commit_requests", aggregate: true, factory: factory)
        commitSeconds = Timer(label: "purchase_sli_commit_duration_seconds", factory: factory)
        databaseBytes = CoreMetrics.Gauge(label: "purchase_sli_database_bytes", factory: factory)
        walBytes = CoreMetrics.Gauge(label: "purchase_sli_wal_bytes", factory: factory)
        dedupSeconds = CoreMetrics.Gauge(label: "purchase_sli_dedup_seconds", factory: factory)
        dedupEventIDs = CoreMetrics.Gauge(label: "purchase_sli_dedup_event_ids", factory: factory)
        prunedAt = CoreMetrics.Gauge(label: "purchase_sli_retention_applied_timestamp_seconds", factory: factory)
    }

    /// Counts an attempt to act on a store's release: `purchase_sli_rollout_actions_total` by store, mode
    /// and outcome.
    func record(rolloutAction action: RolloutAction) {
        Counter(
            label: "purchase_sli_rollout_actions_total",
            dimensions: [("store", action.store.rawValue), ("mode", action.isDryRun ? "dry-run" : "live"), ("outcome", action.outcome.rawValue)],
            factory: factory
        ).increment()
    }

    /// Counts a delivery to a notification receiver (`purchase_sli_notifications_total` by receiver and
    /// outcome) and sets when it last succeeded and, while it fails, since when
    /// (`purchase_sli_notification_last_success_timestamp_seconds`,
    /// `purchase_sli_notification_failing_since_timestamp_seconds`, 0 once it delivers again). The receiver
    /// is `alerts` or `rollout`, named by the service.
    func recordNotificationDelivery(_ receiver: NotificationDeliveries.Receiver, delivered: Bool) {
        let name = [("receiver", receiver.name)]
        Counter(label: "purchase_sli_notifications_total", dimensions: name + [("outcome", delivered ? "delivered" : "failed")], factory: factory)
            .increment()
        if let success = receiver.lastSuccessSeconds {
            CoreMetrics.Gauge(label: "purchase_sli_notification_last_success_timestamp_seconds", dimensions: name, factory: factory)
                .record(success)
        }
        CoreMetrics.Gauge(label: "purchase_sli_notification_failing_since_timestamp_seconds", dimensions: name, factory: factory)
            .record(receiver.failingSinceSeconds ?? 0)
    }

    /// Records what the dedup memory holds after a pruning, and when it ran.
    func recordDedupMemory(_ memory: DedupMemory, atSeconds: Int64) {
        dedupSeconds.record(memory.seconds)
        dedupEventIDs.record(memory.eventIDs)
        prunedAt.record(atSeconds)
    }

    /// Counts a request's outcome: accepted and duplicate events, and rejects by field (a field of the
    /// formats by name, any other `other`: ``RecordReject/metricField``).
    func record(accepted: Int, duplicates: Int, rejected: [RecordReject]) {
        if accepted > 0 { self.accepted.increment(by: accepted) }
        if duplicates > 0 { self.duplicates.increment(by: duplicates) }
        for (field, count) in Dictionary(grouping: rejected, by: \.metricField).mapValues(\.count) {
            Counter(label: "purchase_sli_events_rejected_total", dimensions: [("field", field)], factory: factory)
                .increment(by: count)
        }
    }

    /// Counts events clients dropped before sending them (their queue was full): data the counts miss.
    func recordClientDropped(_ events: Int) {
        Counter(label: "purchase_sli_client_dropped_events_total", factory: factory).increment(by: events)
    }

    /// Counts the records of other kinds (New Relic event types, OTLP event names) a request carried.
    func recordIgnored(_ records: Int, format: String) {
        guard records > 0 else { return }
        Counter(label: "purchase_sli_records_ignored_total", dimensions: [("format", format)], factory: factory).increment(by: records)
    }

    /// Counts a store notification by store and outcome (`accepted`, `duplicate`, or the refusal's status).
    func recordNotification(store: String, outcome: String) {
        Counter(label: "purchase_sli_store_notifications_total", dimensions: [("store", store), ("outcome", outcome)], factory: factory)
            .increment()
    }

    /// Records one group commit.
    func recordCommit(_ outcome: RecordOutcome, requests: Int, seconds: Double) {
        commitEvents.record(outcome.accepted + outcome.duplicates)
        commitRequests.record(requests)
        commitSeconds.recordSeconds(seconds)
        for (app, counts) in outcome.overflowedByApp {
            // An app the configuration does not name is `other`: its name is a client's string.
            let label = app.isEmpty ? "" : namedApps.contains(app) ? app : "other"
            for (dimension, count) in counts {
                Counter(label: "purchase_sli_overflow_events_total", dimensions: [("dimension", dimension), ("app", label)], factory: factory)
                    .increment(by: count)
            }
        }
    }

    /// Records the latency of a request by route and status.
    func recordRequest(route: String, status: Int, seconds: Double) {
        Timer(
            label: "purchase_sli_http_request_duration_seconds",
            dimensions: [("route", route), ("status", String(status))], factory: factory
        )
        .recordSeconds(seconds)
    }

    /// The Prometheus text exposition, with the store's size measured now (the last one measured when
    /// the store cannot be asked).
    public func exposition() async -> [UInt8] {
        if let size = try? await store?.size() {
            databaseBytes.record(size.databaseBytes)
            if let wal = size.walBytes { walBytes.record(wal) }
        }
        return registry.emitToBuffer() + Array(ProcessStatistics.exposition().utf8)
    }
}
