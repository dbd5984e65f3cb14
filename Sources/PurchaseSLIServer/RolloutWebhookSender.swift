public import Foundation
public import PurchaseSLIAnalysis
public import PurchaseSLIApplication
public import PurchaseSLICore
public import PurchaseSLIOutbound
import PurchaseSLIRendering

/// Posts rollout verdicts to a Slack-compatible or a JSON webhook.
public struct RolloutWebhookSender: RolloutNotificationSender {
    /// Where verdicts are posted.
    public let url: URL
    /// The body's kind.
    public let format: RolloutNotificationFormat
    /// The served rollout page, linked from Slack text, when known.
    public let pageURL: String?
    /// The zone Slack text writes times in (JSON stays UTC).
    public let zone: TimeZoneOffsets
    /// What carries the posts.
    public let transport: any OutboundTransport

    /// Creates a sender posting over `transport`.
    public init(
        url: URL, format: RolloutNotificationFormat, pageURL: String? = nil, zone: TimeZoneOffsets = .utc, transport: any OutboundTransport
    ) {
        self.url = url
        self.format = format
        self.pageURL = pageURL
        self.zone = zone
        self.transport = transport
    }

    /// POSTs the verdict.
    /// - Throws: ``NotificationError`` naming the URL and the status, or the connection failure.
    public func send(_ report: RolloutReport, previous: RolloutReport.Verdict?) async throws {
        let body =
            switch format {
            case .slack: RolloutOutput.slackJSON(report, previous: previous, pageURL: pageURL, zone: zone)
            case .json: RolloutOutput.webhookJSON(report, previous: previous)
            }
        try await WebhookSender.post(body, to: url, over: transport)
    }
}
