import Testing

@testable import PurchaseSLIServer

/// The `route` label of `purchase_sli_http_request_duration_seconds`: every ingestion and store route by
/// name (they were all `other`), New Relic's by its template.
@Suite struct RequestMetricsRouteTests {
    @Test(arguments: [
        ("/v1/events", "/v1/events"),
        ("/v1/logs", "/v1/logs"),
        ("/v1/accounts/1234567/events", "/v1/accounts/{accountID}/events"),
        ("/v1/accounts/other-account/events", "/v1/accounts/{accountID}/events"),
        ("/v1/stores/apple/notifications", "/v1/stores/apple/notifications"),
        ("/v1/stores/google/notifications", "/v1/stores/google/notifications"),
        ("/v1/query", "/v1/query"),
        ("/healthz", "/healthz"),
        ("/oncall.html", "other"),
        ("/v1/accounts//events", "other"),
    ])
    func route(_ path: String, _ label: String) {
        #expect(RequestRoute.label(path) == label)
    }
}
