public import Foundation
public import PurchaseSLICore
public import PurchaseSLIRendering

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Posts alert reports to an Alertmanager or a Slack-compatible incoming webhook, as JSON over HTTP.
public struct WebhookSender: AlertNotificationSender {
    /// Where the reports are posted, as given (e.g. `http://alertmanager:9093/api/v2/alerts`).
    public let url: URL
    /// The receiver's kind, which sets the body.
    public let format: AlertNotificationFormat
    /// The zone Slack text writes times in.
    public let zone: TimeZoneOffsets

    /// Creates a sender posting to `url`; a post that takes over 10 seconds counts as failed.
    public init(url: URL, format: AlertNotificationFormat, zone: TimeZoneOffsets = .utc) {
        self.url = url
        self.format = format
        self.zone = zone
    }

    /// The URL in `text` when it is an absolute http or https URL with a host, else nil.
    public static func webhookURL(_ text: String) -> URL? {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()),
            url.host?.isEmpty == false
        else { return nil }
        return url
    }

    /// Whether firing alerts are re-sent at every evaluation (Alertmanager) or sent once (Slack).
    public var resendsFiring: Bool { format.resendsFiring }

    /// POSTs the bodies ``AlertNotificationFormat/bodies(for:at:)`` makes: one for Alertmanager (which
    /// groups an incident's alerts by their `incident` label), one per incident for a chat.
    /// - Throws: ``NotificationError`` naming the URL and the status, or the connection failure.
    public func send(_ reports: [AlertReport], evaluatedAt time: Int64) async throws {
        for body in format.bodies(for: reports, at: time, zone: zone) { try await Self.post(body, to: url) }
    }

    /// POSTs `body` as JSON to `url`; a post that takes over 10 seconds counts as failed.
    /// - Throws: ``NotificationError`` naming the URL and the status, or the connection failure.
    static func post(_ body: String, to url: URL) async throws {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        let answer: Data
        let response: URLResponse
        do {
            (answer, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw NotificationError.unreachable(url, reason: Self.reason(error))
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw NotificationError.refused(url, status: status, answer: String(decoding: answer.prefix(400), as: UTF8.self))
        }
    }

    /// A few words for a connection failure.
    private static func reason(_ error: any Error) -> String {
        switch (error as? URLError)?.code {
        case .cannotConnectToHost?: "connection refused"
        case .timedOut?: "no answer within the timeout"
        case .cannotFindHost?, .dnsLookupFailed?: "host not found"
        case .networkConnectionLost?: "connection lost"
        case .secureConnectionFailed?, .serverCertificateUntrusted?: "TLS handshake failed"
        default: error.localizedDescription
        }
    }
}
