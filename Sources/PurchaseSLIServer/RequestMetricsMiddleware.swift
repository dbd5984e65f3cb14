import Hummingbird

/// Records every request's latency by route and status.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    private static func route(_ path: String) -> String {
        ["/v1/events", "/v1/query", "/healthz", "/readyz", "/metrics"].contains(path) ? path : "other"
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        func seconds() -> Double {
            let elapsed = ContinuousClock.now - started
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        do {
            let response = try await next(request, context)
            metrics.recordRequest(route: Self.route(request.uri.path), status: response.status.code, seconds: seconds())
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.recordRequest(route: Self.route(request.uri.path), status: status, seconds: seconds())
            throw error
        }
    }
}
