import Hummingbird
import PurchaseSLIStorage

/// `GET /healthz` (the process answers), `GET /readyz` (the store takes writes) and `GET /metrics`.
struct HealthController {
    let store: any BucketStore
    let metrics: ServerMetrics

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/healthz") { _, _ in "ok\n" }
        router.get("/readyz") { _, _ in try await ready() }
        router.get("/metrics") { [metrics] _, _ in
            // The exposition measures the database's files: a stat each, off the cooperative threads.
            let exposition = try await runBlocking { metrics.exposition() }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: exposition)))
        }
    }

    private func ready() async throws -> Response {
        let store = store
        do {
            try await runBlocking { try store.checkWritable() }
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "ready\n")))
        } catch {
            throw IngestError.storeUnavailable("\(error)")
        }
    }
}
