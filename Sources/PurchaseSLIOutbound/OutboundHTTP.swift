public import Foundation

/// The one way the service and the CLI call other servers (the grant server, the App Store's and Google
/// Play's APIs, Google's token endpoint, webhooks, Alertmanager): bound to one configured origin, it
/// sends credentials only to that origin, follows no redirect (a 3xx is a failure that names it), gives
/// each call a timeout, and retries as ``OutboundRetry`` says.
public struct OutboundHTTP: Sendable {
    /// Who is called, in words, for messages: "the grant server", "App Store Connect".
    public let peer: String
    /// The only origin requests go to; nil when the configured URL has none (then nothing is sent).
    public let origin: OutboundOrigin?
    /// What carries the requests.
    public let transport: any OutboundTransport
    /// The longest one call may take, connecting and the whole answer included.
    public let timeout: Duration
    /// When a call is tried again.
    public let retry: OutboundRetry

    /// The URL in `text` when it is an absolute http or https URL with a host (one that has an
    /// ``OutboundOrigin``), else nil: what a webhook, a callback or an API's base URL must be.
    public static func absoluteURL(_ text: String) -> URL? {
        URL(string: text).flatMap { OutboundOrigin($0) == nil ? nil : $0 }
    }

    /// A client of the origin of `baseURL`.
    public init(peer: String, baseURL: URL, transport: any OutboundTransport, timeout: Duration, retry: OutboundRetry = .once) {
        self.peer = peer
        self.origin = OutboundOrigin(baseURL)
        self.transport = transport
        self.timeout = timeout
        self.retry = retry
    }

    /// Sends `method` to `url` with `headers` and `body`; `credentials` (an `Authorization`, an
    /// `Idempotency-Key`) are made anew for each call (a fresh token after a 401) and attached only after
    /// `url` is found to be of ``origin``. Returns the last answer; a 3xx is returned at once with a
    /// ``OutboundFailure`` naming it, as is a URL of another origin (with nothing sent).
    public func send(
        _ method: String, _ url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
        credentials: @Sendable () async throws -> [(name: String, value: String)] = { [] }
    ) async -> OutboundAnswer {
        guard let origin, OutboundOrigin(url) == origin else {
            return OutboundAnswer(status: 0, failure: .otherOrigin(peer, url: url, origin: self.origin), attempts: 0)
        }
        var answer = OutboundAnswer(status: 0, failure: .unreachable(peer, reason: "not sent"), attempts: 0)
        var retries = 0
        for attempt in 1...retry.attempts {
            let attached: [(name: String, value: String)]
            do { attached = try await credentials() } catch {
                return OutboundAnswer(status: 0, failure: .credentials(peer, reason: "\(error)"), attempts: answer.attempts)
            }
            let request = OutboundRequest(method: method, url: url, headers: headers + attached, body: body)
            answer.attempts = attempt
            do {
                let response = try await transport.send(request, timeout: timeout)
                (answer.status, answer.headers, answer.body, answer.failure) = (response.status, response.headers, response.body, nil)
                if (300..<400).contains(response.status) {
                    answer.failure = .redirect(peer, status: response.status, location: response.header("Location"), from: url)
                    return answer
                }
            } catch {
                (answer.status, answer.headers, answer.body) = (0, [], Data())
                answer.failure = .unreachable(peer, reason: "\(error)")
            }
            guard attempt < retry.attempts else { break }
            if answer.status == 401, attempt == 1, retry.newCredentialsOn401 { continue }
            guard answer.isTransient else { break }
            retries += 1
            let wait =
                answer.status == 429 ? retry.wait(retryAfter: answer.headers.first { $0.name.lowercased() == "retry-after" }?.value) : nil
            do { try await Task.sleep(for: wait ?? retry.backoff(before: retries)) } catch { break }
        }
        return answer
    }

}
