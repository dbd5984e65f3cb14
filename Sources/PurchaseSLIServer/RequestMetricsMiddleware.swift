import Hummingbird

/// Records every request's latency by route and status.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

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
            metrics.recordRequest(route: RequestRoute.label(request.uri.path), status: response.status.code, seconds: seconds())
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.recordRequest(route: RequestRoute.label(request.uri.path), status: status, seconds: seconds())
            throw error
        }
    }
}

/// The `route` label of a request's metrics.
enum RequestRoute {
    /// The routes named in the metrics (New Relic's by its template, so that account ids add no series);
    /// any other path, pages included, is `other`.
    static func label(_ path: String) -> String {
        if EventsController.isIngestionPath(path) { return path.hasPrefix("/v1/accounts/") ? "/v1/accounts/{accountID}/events" : path }
        return namedPaths.contains(path) ? path : "other"
    }

    /// The other routes named by their path.
    private static let namedPaths: Set<String> = [
        "/v1/query", "/healthz", "/readyz", "/metrics", StoreNotificationsController.applePath, StoreNotificationsController.googlePath,
    ]
}
