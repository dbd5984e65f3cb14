import Hummingbird
import Prometheus
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import Synchronization

/// `GET /metrics/slo`: each objective's SLI as Prometheus series, so that Grafana charts them next to the
/// team's other services (`dashboards/grafana/purchase-sli.json`): per action and window the valid and good
/// events, the success ratio and the burn rate; per action the target, the error budget left and whether
/// maintenance covers it; per alert kind and severity the alerts firing. Evaluated at the last whole minute
/// (the counts `alerts --at` and the pages read), kept for the minute so that scrapes within it share one
/// evaluation (two arriving together at its start may each make it; made again when a maintenance window
/// is added or removed). Bounded: the
/// policy's objectives × its rules' windows, and the rules' kinds × two severities (× the apps of
/// `alertApps`, labelled `app`; empty for every app's events together).
final class SLOMetricsController: Sendable {
    let snapshotting: SLOSnapshotting
    /// The receiving clock (milliseconds since the epoch): what `now` and relative times are read against.
    let nowMillis: @Sendable () -> Int64
    /// The last exposition, the minute it was made at and the stored maintenance windows it knew.
    private let cache = Mutex<(minute: Int64, windows: [MaintenanceWindow], exposition: [UInt8])?>(nil)

    init(snapshotting: SLOSnapshotting, nowMillis: @escaping @Sendable () -> Int64) {
        self.snapshotting = snapshotting
        self.nowMillis = nowMillis
    }

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/metrics/slo") { [self] _, _ in
            let minute = nowMillis() / .millisPerMinute * .secondsPerMinute
            let exposition = try await self.exposition(at: minute)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: exposition)))
        }
    }

    /// The exposition at `minute`, made once per minute (and again when a maintenance window was added
    /// or removed since).
    func exposition(at minute: Int64) async throws -> [UInt8] {
        let windows = try await snapshotting.storedWindows()
        if let cached = cache.withLock({ $0 }), cached.minute == minute, cached.windows == windows { return cached.exposition }
        let snapshots = try await snapshotting.snapshots(at: minute, storedWindows: windows)
        let registry = PrometheusCollectorRegistry()
        for (app, snapshot) in zip(snapshotting.apps, snapshots) { Self.register(snapshot, app: app ?? "", in: registry) }
        Self.gauge(
            "purchase_sli_slo_evaluation_timestamp_seconds", labels: [], help: "The whole minute the SLI series were evaluated at", in: registry
        )
        .set(to: Double(minute))
        let exposition = registry.emitToBuffer()
        cache.withLock { $0 = (minute, windows, exposition) }
        return exposition
    }

    /// One app's series.
    private static func register(_ snapshot: SLOSnapshot, app: String, in registry: PrometheusCollectorRegistry) {
        for state in snapshot.objectives {
            let action = state.objective.actionType
            Self.gauge(
                "purchase_sli_slo_target_ratio", labels: [("app", app), ("action", action)], help: "The objective's success-rate target", in: registry
            )
            .set(to: state.objective.target)
            Self.gauge(
                "purchase_sli_slo_maintenance", labels: [("app", app), ("action", action)],
                help: "1 while a maintenance window leaves the action's minutes out of its budget", in: registry
            ).set(to: state.inMaintenance ? 1 : 0)
            if let left = state.budgetRemaining {
                Self.gauge(
                    "purchase_sli_slo_error_budget_remaining_ratio", labels: [("app", app), ("action", action)],
                    help: "The share of the error budget left over the objective's window (negative: overspent)", in: registry
                ).set(to: left)
            }
            for (window, counts) in state.windows {
                let labels = [("app", app), ("action", action), ("window", window)]
                Self.gauge(
                    "purchase_sli_slo_valid_events", labels: labels,
                    help: "Valid events over the window (weighted by price for a revenue objective), maintenance left out", in: registry
                ).set(to: Double(counts.valid))
                Self.gauge("purchase_sli_slo_good_events", labels: labels, help: "Successes and 409 already granted over the window", in: registry)
                    .set(to: Double(counts.valid - counts.failure))
                if let rate = counts.successRate {
                    Self.gauge("purchase_sli_slo_success_ratio", labels: labels, help: "Good over valid events over the window", in: registry)
                        .set(to: rate)
                }
                if let burn = state.objective.burnRate(counts) {
                    Self.gauge("purchase_sli_slo_burn_rate", labels: labels, help: "Error rate over the window / error budget", in: registry)
                        .set(to: burn)
                }
            }
        }
        for (kind, severity, count) in snapshot.firing {
            Self.gauge(
                "purchase_sli_alerts_firing", labels: [("app", app), ("alertname", kind), ("severity", severity.rawValue)],
                help: "Alerts of the kind firing at the severity", in: registry
            ).set(to: Double(count))
        }
    }

    /// The gauge `name` (written whole, unit included) with `labels` and `help` in `registry`.
    private static func gauge(_ name: String, labels: [(String, String)], help: String, in registry: PrometheusCollectorRegistry) -> Gauge {
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help), labels: labels)
    }
}
