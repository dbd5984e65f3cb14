import Foundation
import Logging
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIOutbound
import PurchaseSLIRendering
import PurchaseSLIServer
import PurchaseSLITestSupport
import Testing

/// `serve --notify-fallback` and `--notify-heartbeat` against live receivers, on the sample logs' 11-02
/// outage (the burn pages from 18:02): a failing Alertmanager's alerts reach the fallback after 5 minutes,
/// and a quiet day still posts the always-firing watchdog.
@Suite(.sampleLogs) struct NotificationFailoverTests {
    /// A notifier of the sample logs posting to `primary` over `transport`, with a Slack fallback at `fallback`.
    private func notifier(
        primary: String, fallback: String?, heartbeat: Bool = false, port: Int, transport: any OutboundTransport,
        deliveries: NotificationDeliveries
    ) throws -> AlertNotifier {
        let logs = try SampleLogs.get()
        let url = { (path: String) in URL(string: "http://127.0.0.1:\(port)\(path)")! }
        return AlertNotifier(
            context: logs.context, intervalSeconds: 60,
            sender: WebhookSender(
                url: url(primary), format: .alertmanager, heartbeat: heartbeat ? AlertHeartbeat(intervalSeconds: 60) : nil, transport: transport),
            logger: Logger(label: "test"), nowMillis: { 0 }, deliveries: deliveries, receiverHost: "alertmanager.test",
            fallbacks: fallback.map {
                [
                    AlertReceiver(
                        name: "alerts-fallback", host: "hooks.slack.test", sender: WebhookSender(url: url($0), format: .slack, transport: transport))
                ]
            }
                ?? [])
    }

    @Test(
        "Alertmanager answering 503 from 18:05: the Slack fallback gets the page at 18:10 with why, once; the pages say ALERTS REROUTED; at 18:12 Alertmanager takes them back"
    )
    func aFailingReceiversAlertsGoToTheFallback() async throws {
        let logs = try SampleLogs.get()
        let deliveries = NotificationDeliveries()
        try await withReceiver { port, received in
            try await HTTPClientTransport.withTransport { transport in
                let failing = try notifier(primary: "/down", fallback: "/slack", port: port, transport: transport, deliveries: deliveries)
                var state = failing.initialState
                for minute in ["18:05", "18:08"] { await failing.notify(at: seconds("2026-11-02T\(minute):00Z"), state: &state) }
                #expect(await received.posts.map(\.path) == ["/down", "/down"], "no failover before 5 minutes of failures")
                await failing.notify(at: seconds("2026-11-02T18:10:00Z"), state: &state)
                await failing.notify(at: seconds("2026-11-02T18:11:00Z"), state: &state)
                let slack = await received.posts.filter { $0.path == "/slack" }.map(\.body)
                #expect(slack.count == 1, "the takeover once, then only changes: \(slack)")
                let takeover = try #require(slack.first)
                #expect(
                    takeover.contains(
                        ":rotating_light: *The alert receiver* (alertmanager.test) has failed every delivery since 2026-11-02T18:05:00Z (HTTP 503): "
                            + "purchase-sli sends its alerts here"), "\(takeover)")
                #expect(takeover.contains("*PAGE* purchase: success rate 0.00 %"), "\(takeover)")

                // What the pages and /readyz say meanwhile.
                let outages = deliveries.outages(at: seconds("2026-11-02T18:11:00Z"))
                #expect(outages.map(\.receiver.name) == ["alerts"] && outages.first?.standIn?.name == "alerts-fallback")
                #expect(
                    outages.first?.text(namingHost: false)
                        == "the alert receiver has failed every delivery since 2026-11-02T18:05:00Z (HTTP 503); it has taken no notification yet; "
                        + "its alerts go to the alert fallback instead, last delivered at 2026-11-02T18:10:00Z")
                let time = seconds("2026-11-02T18:11:00Z")
                var renderer = DashboardRenderer(
                    definitions: logs.definitions,
                    context: DashboardContext(store: logs.store, records: .empty, policy: logs.policy, atSeconds: time, rangeSeconds: 86_400),
                    links: PageLinks(databasePath: logs.database))
                renderer.deliveryOutages = outages
                let shown = renderer
                let files = try await onDedicatedThread { try await shown.render(generatedAtSeconds: time) }
                let oncall = try #require(files.first { $0.name == "oncall.html" }?.html)
                #expect(oncall.contains("<div class=\"banner warn\"><strong>ALERTS REROUTED</strong> the alert receiver (alertmanager.test)"))
                #expect(oncall.contains("its alerts go to the alert fallback (hooks.slack.test) instead") && !oncall.contains("NOBODY NOTIFIED"))

                // Alertmanager answers again: it gets the alerts, and the fallback the word that it does.
                let answering = try notifier(primary: "/api/v2/alerts", fallback: "/slack", port: port, transport: transport, deliveries: deliveries)
                await answering.notify(at: seconds("2026-11-02T18:12:00Z"), state: &state)
                await answering.notify(at: seconds("2026-11-02T18:13:00Z"), state: &state)
                let posts = await received.posts
                #expect(posts.filter { $0.path == "/api/v2/alerts" }.count == 2)
                let handback = posts.filter { $0.path == "/slack" }.map(\.body)
                #expect(handback.count == 2, "\(handback)")
                #expect(
                    handback.last?.contains(
                        ":white_check_mark: *The alert receiver* (alertmanager.test) takes the alerts again since 2026-11-02T18:12:00Z, 1 alert firing"
                    )
                        == true, "\(handback)")
                #expect(deliveries.outages(at: seconds("2026-11-02T18:13:00Z")).isEmpty)
            }
        }
    }

    @Test("without a fallback the alerts of a failing receiver reach nobody, and the pages say so")
    func withoutAFallbackNobodyIsNotified() async throws {
        let deliveries = NotificationDeliveries()
        try await withReceiver { port, received in
            try await HTTPClientTransport.withTransport { transport in
                let failing = try notifier(primary: "/down", fallback: nil, port: port, transport: transport, deliveries: deliveries)
                var state = failing.initialState
                for minute in ["18:05", "18:10", "18:11"] { await failing.notify(at: seconds("2026-11-02T\(minute):00Z"), state: &state) }
                #expect(await received.posts.allSatisfy { $0.path == "/down" })
                #expect(deliveries.outages(at: seconds("2026-11-02T18:11:00Z")).map { $0.standIn == nil } == [true])
            }
        }
    }

    @Test("--notify-heartbeat: every evaluation posts PurchaseSLIWatchdog, alone on a quiet day and first beside a page")
    func theHeartbeatGoesWithEveryEvaluation() async throws {
        let deliveries = NotificationDeliveries()
        try await withReceiver { port, received in
            try await HTTPClientTransport.withTransport { transport in
                let notifier = try notifier(
                    primary: "/api/v2/alerts", fallback: nil, heartbeat: true, port: port, transport: transport, deliveries: deliveries)
                var state = notifier.initialState
                for time in ["2026-11-02T12:00:00Z", "2026-11-02T12:01:00Z", "2026-11-02T18:05:00Z"] {
                    await notifier.notify(at: seconds(time), state: &state)
                }
                let posts = await received.posts.map { post in
                    (try? JSONSerialization.jsonObject(with: Data(post.body.utf8))) as? [[String: Any]] ?? []
                }
                let names = posts.map { $0.compactMap { ($0["labels"] as? [String: String])?["alertname"] } }
                #expect(names == [["PurchaseSLIWatchdog"], ["PurchaseSLIWatchdog"], ["PurchaseSLIWatchdog", "PurchaseSuccessRateBurn"]], "\(names)")
                let watchdog = try #require(posts.first?.first)
                #expect(watchdog["labels"] as? [String: String] == ["alertname": "PurchaseSLIWatchdog", "severity": "none"])
                #expect(watchdog["startsAt"] as? String == "2026-11-02T12:00:00Z" && watchdog["endsAt"] as? String == "2026-11-02T12:04:00Z")
                #expect((watchdog["annotations"] as? [String: String])?["description"]?.contains("dead man's switch") == true)
                #expect(deliveries.receivers.first?.attempts == 3, "a quiet minute tries the receiver too")
            }
        }
    }
}
