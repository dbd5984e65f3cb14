import Foundation
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLITestSupport
import Testing

/// `serve`'s notifier records each delivery; once its receiver has failed every one for 5 minutes, the
/// index and the on-call page say that what fires reached nobody.
@Suite(.sampleLogs) struct DeliveryBannerTests {
    @Test("the 11-02 outage with its receiver down from 18:05: NOBODY NOTIFIED on the index and the on-call page at 18:20, not at 18:08")
    func aFailingReceiverIsShownOnThePages() async throws {
        let logs = try SampleLogs.get()
        let deliveries = NotificationDeliveries()
        let notifier = AlertNotifier(
            context: logs.context, intervalSeconds: 60, sender: UnreachableSender(), logger: Logger(label: "test"), nowMillis: { 0 },
            deliveries: deliveries, receiverHost: "alertmanager.test")
        var state = notifier.initialState
        for minute in ["18:05", "18:10", "18:20"] { await notifier.notify(at: seconds("2026-11-02T\(minute):00Z"), state: &state) }
        let receiver = try #require(deliveries.receivers.first)
        #expect(receiver.attempts == 3 && receiver.failures == 3 && receiver.failingSinceSeconds == seconds("2026-11-02T18:05:00Z"))
        #expect(deliveries.outages(at: seconds("2026-11-02T18:08:00Z")).isEmpty)
        let time = seconds("2026-11-02T18:20:00Z")
        var renderer = DashboardRenderer(
            definitions: logs.definitions,
            context: DashboardContext(store: logs.store, records: .empty, policy: logs.policy, atSeconds: time, rangeSeconds: 86_400),
            links: PageLinks(databasePath: logs.database))
        renderer.deliveryOutages = deliveries.outages(at: time)
        let shown = renderer
        let files = try await onDedicatedThread { try await shown.render(generatedAtSeconds: time) }
        let said =
            "<strong>NOBODY NOTIFIED</strong> the alert receiver (alertmanager.test) has failed every delivery since 2026-11-02T18:05:00Z "
            + "(not sent); it has taken no notification yet"
        for page in ["index.html", "oncall.html"] {
            let html = try #require(files.first { $0.name == page }?.html)
            #expect(html.contains(said), "\(page)")
            // Above the alerts it concerns.
            let banner = try #require(html.range(of: "NOBODY NOTIFIED"))
            let alert = try #require(html.range(of: "PurchaseSuccessRateBurn") ?? html.range(of: "PAGE"))
            #expect(banner.lowerBound < alert.lowerBound, "\(page)")
        }
    }
}

/// A receiver that never takes a notification.
private struct UnreachableSender: AlertNotificationSender {
    /// Why it fails.
    struct Unreachable: Error {}
    var resendsFiring: Bool { true }
    func send(_ reports: [AlertReport], evaluatedAt time: Int64) async throws { throw Unreachable() }
}
