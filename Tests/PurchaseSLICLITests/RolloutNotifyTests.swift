import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIOutbound
import PurchaseSLIServer
import Testing

/// Rollout verdicts posted to a live receiver: Slack text that event data cannot mention, format or
/// link in, and the JSON a webhook gets.
@Suite struct RolloutNotifyTests {
    private let report = RolloutReport(
        candidate: "<!channel> *5.0.0*", baseline: "4.11.0", fromSeconds: 1_794_700_800, toSeconds: 1_794_787_200,
        verdict: .rollback, reasons: [.noTraffic], comparisons: [],
        progress: RolloutReport.Progress(
            step: 2, nextStep: 5, share: 0.021, day: 2, startSeconds: 1_794_700_800, earlierRelease: nil, confidence: 0.9))

    @Test func slackGetsTheVerdictEscapedWithALinkToThePage() async throws {
        let report = report
        try await withReceiver { port, received in
            try await HTTPClientTransport.withTransport { transport in
                let sender = RolloutWebhookSender(
                    url: URL(string: "http://127.0.0.1:\(port)/slack")!, format: .slack, pageURL: "https://sli.example/rollout.html",
                    transport: transport)
                try await sender.send(report, previous: .insufficientData)
            }
            let post = try #require(await received.posts.first)
            #expect(post.contentType == "application/json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(post.body.utf8)) as? [String: Any])
            let text = try #require(object["text"] as? String)
            #expect(text.hasPrefix("*ROLL BACK "), "\(text)")
            #expect(text.contains("(was insufficient-data)") && text.contains("<https://sli.example/rollout.html|The rollout page>"))
            #expect(!text.contains("<!channel>") && text.contains("&lt;!channel&gt;"), "\(text)")
        }
    }

    @Test func aJSONWebhookGetsTheWholeVerdict() async throws {
        let report = report
        try await withReceiver { port, received in
            try await HTTPClientTransport.withTransport { transport in
                try await RolloutWebhookSender(url: URL(string: "http://127.0.0.1:\(port)/slack")!, format: .json, transport: transport)
                    .send(report, previous: nil)
            }
            let post = try #require(await received.posts.first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(post.body.utf8)) as? [String: Any])
            #expect(object["previousVerdict"] is NSNull)
            let rollout = try #require(object["rollout"] as? [String: Any])
            #expect(rollout["candidate"] as? String == "<!channel> *5.0.0*" && rollout["verdict"] as? String == "rollback")
            #expect((rollout["progress"] as? [String: Any])?["step"] as? Int == 2)
        }
    }

    @Test func aRefusedPostIsAnErrorNamingTheReceiver() async throws {
        let report = report
        try await withReceiver { port, _ in
            try await HTTPClientTransport.withTransport { transport in
                let sender = RolloutWebhookSender(url: URL(string: "http://127.0.0.1:\(port)/down")!, format: .slack, transport: transport)
                await #expect(throws: NotificationError.self) { try await sender.send(report, previous: nil) }
            }
        }
    }

    /// A webhook or Alertmanager that answers a redirect has not been delivered to: the post fails with the
    /// status and names the redirect, and the redirect's target gets nothing.
    @Test(arguments: redirectStatuses)
    func aRedirectIsNotDelivered(status: Int) async throws {
        let report = report
        try await withRedirect(status) { called, other, calledSent, otherSent in
            try await HTTPClientTransport.withTransport { transport in
                let rollout = RolloutWebhookSender(url: called.appendingPathComponent("slack"), format: .slack, transport: transport)
                let alerts = WebhookSender(url: called.appendingPathComponent("api/v2/alerts"), format: .alertmanager, transport: transport)
                let sends: [@Sendable () async throws -> Void] = [
                    { try await rollout.send(report, previous: nil) }, { try await alerts.send([], evaluatedAt: 1_794_787_200) },
                ]
                for send in sends {
                    let error = try #require(await #expect(throws: NotificationError.self) { try await send() })
                    #expect(error.status == status)
                    #expect(
                        error.description.hasSuffix(
                            "answered HTTP \(status): the webhook answered \(status) (redirect to \(other.absoluteString)/…): redirects are not followed"
                        ),
                        "\(error)")
                }
            }
            #expect(await calledSent.all.map(\.line) == ["POST /slack", "POST /api/v2/alerts"])
            let reached = await otherSent.all.map(\.line)
            #expect(reached.isEmpty, "the other origin got \(reached)")
        }
    }
}
