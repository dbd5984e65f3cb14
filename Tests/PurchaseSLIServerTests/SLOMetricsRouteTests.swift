import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurchaseSLICore
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// `/metrics/slo` while purchases fail now: the page fires and the budget burns; a maintenance window
/// declared over the failing minutes silences the page in the series at once.
@Suite struct SLOMetricsRouteTests {
    @Test func theSeriesFollowTheAlertsAndTheMaintenanceDeclared() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let now = Int64(Date().timeIntervalSince1970) / 60 * 60
        // Two hours of 10 purchases a minute, each failing over the last 40 minutes.
        let events = (0..<(120 * 10)).map { number -> PurchaseEvent in
            let time = now - 7200 + Int64(number / 10) * 60 + Int64(number % 10)
            return PurchaseEvent(
                eventID: "e\(number)", timestampMillis: time * 1000, productID: "coins_100", planID: nil, actionType: .purchase,
                resultType: time >= now - 2400 ? .failure : .success, errorDescription: nil)
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        let app = makeApp(store: store) {
            $0.readKeys = AccessKeys(["read-secret"])
            $0.adminKeys = AccessKeys(["admin-secret"])
        }
        let key: HTTPFields = [.authorization: "Bearer read-secret"]
        try await app.test(.router) { client in
            func exposition() async throws -> String {
                try await client.execute(uri: "/metrics/slo", method: .get, headers: key) { response in
                    #expect(response.status == .ok && response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                    return String(buffer: response.body)
                }
            }
            let firing = try await exposition()
            #expect(firing.contains(#"purchase_sli_alerts_firing{app="",alertname="PurchaseSuccessRateBurn",severity="page"} 1.0"#), "\(firing)")
            #expect(firing.contains(#"purchase_sli_slo_success_ratio{app="",action="purchase",window="5m"} 0.0"#))
            #expect(firing.contains(#"purchase_sli_slo_maintenance{app="",action="purchase"} 0.0"#))
            try await client.execute(uri: "/metrics/slo", method: .get) { #expect($0.status == .unauthorized) }
            let declaration = #"{"from":"now-45m","duration":"2h","actions":["purchase"],"reason":"verification migration"}"#
            try await client.execute(
                uri: "/v1/maintenance", method: .post, headers: [.authorization: "Bearer admin-secret", .contentType: "application/json"],
                body: ByteBuffer(string: declaration)
            ) { #expect($0.status == .created) }
            let quiet = try await exposition()
            #expect(quiet.contains(#"purchase_sli_alerts_firing{app="",alertname="PurchaseSuccessRateBurn",severity="page"} 0.0"#), "\(quiet)")
            #expect(quiet.contains(#"purchase_sli_slo_maintenance{app="",action="purchase"} 1.0"#))
            #expect(quiet.contains(#"purchase_sli_slo_valid_events{app="",action="purchase",window="5m"} 0.0"#))
        }
    }
}
