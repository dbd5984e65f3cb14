import Foundation
import HummingbirdTesting
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// A notification nobody received is never silent: `/metrics` counts each delivery per receiver, and
/// `/readyz` says when a receiver has failed every delivery for 5 minutes (still 200: ingestion goes on).
@Suite struct NotificationDeliveryTests {
    @Test("a receiver failing for 10 minutes: counted on /metrics, said on /readyz (200), cleared by the next delivery")
    func failingReceiverIsWatched() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let deliveries = NotificationDeliveries()
        let app = makeApp(store: store, deliveries: deliveries)
        let now = Int64(Date().timeIntervalSince1970)
        try await app.test(.router) { client in
            deliveries.record(receiver: "alerts", host: "alertmanager.test", atSeconds: now - 1200, failure: nil)
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body) == "ready\n")
            }
            deliveries.record(receiver: "alerts", host: "alertmanager.test", atSeconds: now - 600, failure: "HTTP 503")
            deliveries.record(receiver: "alerts", host: "alertmanager.test", atSeconds: now - 60, failure: "no answer")
            try await client.execute(uri: "/readyz", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(response.status == .ok, "a failing receiver does not take the node out of traffic")
                #expect(
                    text
                        == "ready to ingest; NOTIFYING NOBODY: the alert receiver has failed every delivery since "
                        + "\(RFC3339.format(seconds: now - 600)) (no answer); nobody was notified through it since \(RFC3339.format(seconds: now - 1200))\n",
                    "\(text)")
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let lines = String(buffer: response.body).split(separator: "\n").map(String.init)
                #expect(lines.contains(#"purchase_sli_notifications_total{receiver="alerts",outcome="delivered"} 1"#), "\(lines)")
                #expect(lines.contains(#"purchase_sli_notifications_total{receiver="alerts",outcome="failed"} 2"#), "\(lines)")
                #expect(lines.contains("purchase_sli_notification_last_success_timestamp_seconds{receiver=\"alerts\"} \(now - 1200).0"), "\(lines)")
                #expect(lines.contains("purchase_sli_notification_failing_since_timestamp_seconds{receiver=\"alerts\"} \(now - 600).0"), "\(lines)")
            }
            // A fallback that took the alerts since: rerouted, not nobody.
            deliveries.record(receiver: "alerts-fallback", host: "hooks.slack.test", standsInFor: "alerts", atSeconds: now - 30, failure: nil)
            try await client.execute(uri: "/readyz", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.hasPrefix("ready; ALERTS REROUTED: the alert receiver has failed every delivery since"), "\(text)")
                #expect(
                    text.hasSuffix("its alerts go to the alert fallback instead, last delivered at \(RFC3339.format(seconds: now - 30))\n"), "\(text)"
                )
                #expect(!text.contains("hooks.slack.test") && !text.contains("alertmanager.test"), "no host for a reader without a key")
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let lines = String(buffer: response.body)
                #expect(lines.contains(#"purchase_sli_notifications_total{receiver="alerts-fallback",outcome="delivered"} 1"#), "\(lines)")
            }
            deliveries.record(receiver: "alerts", host: "alertmanager.test", atSeconds: now, failure: nil)
            try await client.execute(uri: "/readyz", method: .get) { #expect(String(buffer: $0.body) == "ready\n") }
        }
    }

    @Test("a receiver that failed for less than 5 minutes is not yet said to notify nobody")
    func briefFailureIsNotReported() {
        let deliveries = NotificationDeliveries()
        deliveries.record(receiver: "alerts", host: "h", atSeconds: 1000, failure: "HTTP 502")
        #expect(deliveries.outages(at: 1299).isEmpty)
        #expect(deliveries.outages(at: 1300).map(\.receiver.name) == ["alerts"])
        #expect(
            deliveries.receivers.first?.failingText()
                == "the alert receiver (h) has failed every delivery since 1970-01-01T00:16:40Z (HTTP 502); it has taken no notification yet")
    }
}
