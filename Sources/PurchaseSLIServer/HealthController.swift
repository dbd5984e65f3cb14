import Hummingbird
import PurchaseSLIApplication
import PurchaseSLIStorage

/// `GET /healthz` (the process answers), `GET /readyz` (the store commits) and `GET /metrics`.
struct HealthController {
    let store: any BucketStore
    let committer: GroupCommitter
    let metrics: ServerMetrics
    /// What the notification receivers answered, or nil when `serve` notifies no one.
    let deliveries: NotificationDeliveries?
    /// The receiving clock (milliseconds since the epoch): what `now` and relative times are read against.
    let nowMillis: @Sendable () -> Int64

    /// After a failed commit, the service is not ready for this long unless a commit succeeds meanwhile.
    static let failureHoldSeconds: Int64 = 30

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/healthz") { _, _ in "ok\n" }
        router.get("/readyz") { _, _ in try await ready() }
        router.get("/metrics") { [metrics] _, _ in
            // The exposition measures the database's files: a stat each, off the cooperative threads.
            let exposition = await metrics.exposition()
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: exposition)))
        }
    }

    /// Ready when the store commits: no batch failed to commit in the last ``failureHoldSeconds`` (unless
    /// one succeeded since) and a probe write commits now, so a full disk reads as not ready. A receiver
    /// that has failed every notification for 5 minutes is said in the body ("ready to ingest; NOTIFYING
    /// NOBODY: …", or "ready; ALERTS REROUTED: …" while a fallback takes its alerts; without the hosts: anyone
    /// may ask), with the status still 200: an orchestrator would take a not-ready node out of traffic, and
    /// stopping ingestion would not bring the receiver back.
    private func ready() async throws -> Response {
        if let failure = committer.recentFailure(withinSeconds: Self.failureHoldSeconds, nowMillis: nowMillis()) {
            throw IngestError.storeUnavailable("the last commit failed: \(failure)")
        }
        let store = store
        do {
            try await store.checkWritable()
            let outages = deliveries?.outages(at: nowMillis() / .millisPerSecond) ?? []
            let said = outages.map { $0.text(namingHost: false) }.joined(separator: "; ")
            let text =
                outages.isEmpty
                ? "ready\n"
                : NotificationDeliveries.areRerouted(outages) ? "ready; ALERTS REROUTED: \(said)\n" : "ready to ingest; NOTIFYING NOBODY: \(said)\n"
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        } catch {
            throw IngestError.storeUnavailable("\(error)")
        }
    }
}
