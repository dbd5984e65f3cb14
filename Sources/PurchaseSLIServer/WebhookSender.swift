public import Foundation
public import PurchaseSLIApplication
public import PurchaseSLICore
public import PurchaseSLIOutbound
import PurchaseSLIRendering

/// Posts alert reports to an Alertmanager or a Slack-compatible incoming webhook, as JSON over HTTP.
public struct WebhookSender: AlertNotificationSender {
    /// Where the reports are posted, as given (e.g. `http://alertmanager:9093/api/v2/alerts`).
    public let url: URL
    /// The receiver's kind, which sets the body.
    public let format: AlertNotificationFormat
    /// The zone Slack text writes times in.
    public let zone: TimeZoneOffsets
    /// What carries the posts.
    public let transport: any OutboundTransport
    /// The always-firing alert every post to Alertmanager carries, or nil.
    public let heartbeat: AlertHeartbeat?

    /// Creates a sender posting to `url` over `transport`, with `heartbeat` (Alertmanager only) at every
    /// evaluation; a post that takes over 10 seconds counts as failed.
    public init(
        url: URL, format: AlertNotificationFormat, zone: TimeZoneOffsets = .utc, heartbeat: AlertHeartbeat? = nil,
        transport: any OutboundTransport
    ) {
        self.url = url
        self.format = format
        self.zone = zone
        self.heartbeat = format == .alertmanager ? heartbeat : nil
        self.transport = transport
    }

    /// Whether firing alerts are re-sent at every evaluation (Alertmanager) or sent once (Slack).
    public var resendsFiring: Bool { format.resendsFiring }

    /// Whether it posts at every evaluation: with a heartbeat.
    public var sendsEveryRound: Bool { heartbeat != nil }

    /// POSTs the bodies ``AlertNotificationFormat/bodies(for:at:)`` makes: one for Alertmanager (which
    /// groups an incident's alerts by their `incident` label), one per incident for a chat.
    /// - Throws: ``NotificationError`` naming the URL and the status, or the connection failure.
    public func send(_ reports: [AlertReport], evaluatedAt time: Int64) async throws {
        try await send(reports, evaluatedAt: time, rerouting: nil)
    }

    /// POSTs the reports as ``send(_:evaluatedAt:)`` does, a chat's first message opened by `rerouting`.
    public func send(_ reports: [AlertReport], evaluatedAt time: Int64, rerouting: AlertRerouting?) async throws {
        for body in format.bodies(for: reports, at: time, zone: zone, heartbeat: heartbeat, rerouting: rerouting) {
            try await Self.post(body, to: url, over: transport)
        }
    }

    /// POSTs `body` as JSON to `url` over `transport`, once; a post that takes over 10 seconds counts as
    /// failed, and so does a redirect (never followed: a 3xx is not delivered).
    /// - Throws: ``NotificationError`` naming the URL and the status, or the connection failure.
    static func post(_ body: String, to url: URL, over transport: any OutboundTransport) async throws {
        let http = OutboundHTTP(peer: "the webhook", baseURL: url, transport: transport, timeout: .seconds(10))
        let answer = await http.send("POST", url, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
        if let failure = answer.failure {
            if let status = failure.redirectStatus { throw NotificationError.refused(url, status: status, answer: failure.description) }
            throw NotificationError.unreachable(url, reason: failure.description)
        }
        guard answer.isSuccess else {
            throw NotificationError.refused(url, status: answer.status, answer: String(decoding: answer.body.prefix(400), as: UTF8.self))
        }
    }
}
