import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
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
            let sender = RolloutWebhookSender(
                url: URL(string: "http://127.0.0.1:\(port)/slack")!, format: .slack, pageURL: "https://sli.example/rollout.html")
            try await sender.send(report, previous: .insufficientData)
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
            try await RolloutWebhookSender(url: URL(string: "http://127.0.0.1:\(port)/slack")!, format: .json).send(report, previous: nil)
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
            await #expect(throws: NotificationError.self) {
                try await RolloutWebhookSender(url: URL(string: "http://127.0.0.1:\(port)/down")!, format: .slack).send(report, previous: nil)
            }
        }
    }
}
