import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PurchaseSLICLI
import PurchaseSLICore
import PurchaseSLITestSupport
import Testing

/// The POSTs a receiver was sent, in order.
actor Received {
    private(set) var posts: [(path: String, contentType: String, body: String)] = []

    func add(path: String, contentType: String, body: String) { posts.append((path, contentType, body)) }
}

/// Runs a receiver on a free port for `body`: `/api/v2/alerts` and `/slack` answer 200, `/down` 503.
func withReceiver(_ body: @escaping @Sendable (_ port: Int, _ received: Received) async throws -> Void) async throws {
    let received = Received()
    let router = Router()
    for path in ["api/v2/alerts", "slack", "down"] {
        router.post(RouterPath(path)) { request, _ -> HTTPResponse.Status in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            await received.add(path: request.uri.path, contentType: request.headers[.contentType] ?? "", body: String(buffer: bytes))
            return path == "down" ? .serviceUnavailable : .ok
        }
    }
    var logger = Logger(label: "receiver")
    logger.logLevel = .warning
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
    try await testLive(app) { client in
        try await body(try #require(client.port), received)
    }
}

/// `alerts --notify` against a live receiver, over a store whose purchases fail half the time from 12:00
/// to 12:30 (the fast test pages from 12:02).
@Suite struct AlertsNotifyTests {
    let directory: TemporaryDirectory
    let db: String

    init() async throws {
        directory = try TemporaryDirectory()
        db = directory.file("outage.sqlite")
        let start = RFC3339.parseMillis("2026-11-14T10:00:00Z")! / 1000
        let lines = (0..<240).flatMap { minute in
            (0..<20).map { index in
                let time = RFC3339.format(seconds: start + Int64(minute * 60 + index))
                return (120..<150).contains(minute) && index % 2 == 0
                    ? eventLine("e\(minute)-\(index)", at: time, result: "failure", extra: #","errorDescription":"verification failed: 503""#)
                    : eventLine("e\(minute)-\(index)", at: time)
            }
        }
        let file = try directory.write("events.ndjson", lines.joined(separator: "\n"))
        try #require(try await run(["ingest", "--quiet", "--db", db, file]) == 0)
    }

    @Test func postsTheFiringAlertsAsAlertmanagerJSONAndAnEmptyArrayWhenNoneFires() async throws {
        let db = db
        try await withReceiver { port, received in
            let url = "http://127.0.0.1:\(port)/api/v2/alerts"
            let firing = try await run(["alerts", "--db", db, "--at", "2026-11-14T12:20:00Z", "--notify", url])
            let quiet = try await run(["alerts", "--db", db, "--at", "2026-11-14T11:00:00Z", "--notify", url])
            #expect(firing == 2 && quiet == 0, "2: an alert fires; 0: all clear")
            let posts = await received.posts
            #expect(posts.map(\.path) == ["/api/v2/alerts", "/api/v2/alerts"] && posts.allSatisfy { $0.contentType == "application/json" })
            let alerts = (try? JSONSerialization.jsonObject(with: Data((posts.first?.body ?? "").utf8))) as? [[String: Any]]
            let labels = alerts?.first?["labels"] as? [String: String]
            #expect(alerts?.count == 1)
            #expect(
                labels == [
                    "alertname": "PurchaseSuccessRateBurn", "severity": "page", "actionType": "purchase", "incident": "20261114-1202-fef488",
                ])
            #expect(alerts?.first?["startsAt"] as? String == "2026-11-14T12:02:00Z" && alerts?.first?["endsAt"] == nil)
            #expect(posts.last?.body == "[]\n")
        }
    }

    @Test func postsTheSlackTextAsJSONAndNothingWhenNoAlertFires() async throws {
        let db = db
        try await withReceiver { port, received in
            let url = "http://127.0.0.1:\(port)/slack"
            let firing = try await run(["alerts", "--db", db, "--at", "2026-11-14T12:20:00Z", "--notify", url, "--notify-format", "slack"])
            let quiet = try await run(["alerts", "--db", db, "--at", "2026-11-14T11:00:00Z", "--notify", url, "--notify-format", "slack"])
            #expect(firing == 2 && quiet == 0, "2: an alert fires; 0: all clear")
            let posts = await received.posts
            #expect(posts.count == 1)
            let message = (try? JSONSerialization.jsonObject(with: Data((posts.first?.body ?? "").utf8))) as? [String: Any]
            #expect(message?["text"] as? String == "purchase-sli at 2026-11-14T12:20:00Z: incident 20261114-1202-fef488: 1 firing (1 page)")
            let attachments = message?["attachments"] as? [[String: Any]] ?? []
            let text = attachments.first?["text"] as? String ?? ""
            #expect(attachments.count == 1 && attachments.first?["color"] as? String == "#e01e5a", "a page is red")
            #expect(text.hasPrefix("*PAGE* purchase: success rate "), "\(text)")
            #expect(text.contains("• since 2026-11-14T12:02:00Z (18 min)"))
            #expect(text.contains("look next: ```purchase-sli query --db \(db) --from"), "the query names the database, as code")
        }
    }

    @Test func aReceiverThatRefusesOrCannotBeReachedMakesAlertsExitOne() async throws {
        let db = db
        try await withReceiver { port, received in
            let refused = try await run(["alerts", "--db", db, "--at", "2026-11-14T12:20:00Z", "--notify", "http://127.0.0.1:\(port)/down"])
            let unreachable = try await run(["alerts", "--db", db, "--at", "2026-11-14T12:20:00Z", "--notify", "http://127.0.0.1:1/hook"])
            let posts = await received.posts
            #expect(refused == 1 && unreachable == 1 && posts.count == 1)
        }
    }

    @Test func aBacktestCannotNotify() {
        #expect(throws: (any Error).self) {
            try PurchaseSLICommand.parseAsRoot(
                ["alerts", "--from", "2026-11-14T10:00:00Z", "--to", "2026-11-14T14:00:00Z", "--notify", "http://127.0.0.1:1/"])
        }
    }
}
