import Foundation

/// When a call is tried again, in one place for every outbound call: on no answer, 408, 429 and 5xx
/// after a delay that doubles from `firstDelay` (a 429's `Retry-After` instead, at most
/// `maximumRetryAfter`), on a first 401 at once with new credentials when `newCredentialsOn401`, up to
/// `attempts` calls in all. A 3xx, another 4xx or a URL of another origin is never tried again.
public struct OutboundRetry: Sendable, Hashable {
    /// Calls in all, the first included (at least 1).
    public var attempts: Int
    /// The wait before the first retry; it doubles for each one after.
    public var firstDelay: Duration
    /// Whether a first 401 is tried again at once with new credentials (a token that expired on the way,
    /// or a clock that ran ahead).
    public var newCredentialsOn401: Bool
    /// The longest a 429's `Retry-After` is waited.
    public var maximumRetryAfter: Duration

    /// Creates a policy.
    public init(attempts: Int, firstDelay: Duration, newCredentialsOn401: Bool = false, maximumRetryAfter: Duration = .seconds(30)) {
        self.attempts = max(1, attempts)
        self.firstDelay = max(.zero, firstDelay)
        self.newCredentialsOn401 = newCredentialsOn401
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// One call, never tried again (alert and rollout webhooks: the next evaluation sends again).
    public static let once = OutboundRetry(attempts: 1, firstDelay: .zero)

    /// The stores' APIs: 3 calls, a first 401 again with a new token.
    public static func storeAPI(firstDelay: Duration = .seconds(1)) -> OutboundRetry {
        OutboundRetry(attempts: 3, firstDelay: firstDelay, newCredentialsOn401: true)
    }

    /// Whether an answer of `status` (0: none) may be worth another call: no answer, 408, 429 or a 5xx.
    public static func isTransient(status: Int) -> Bool {
        status == 0 || status == 408 || status == 429 || status >= 500
    }

    /// The wait before retry `retry` (1: the first): `firstDelay` doubled `retry - 1` times.
    func backoff(before retry: Int) -> Duration {
        firstDelay * (1 << min(max(0, retry - 1), 20))
    }

    /// The wait a 429's `Retry-After` asks (seconds; an HTTP date is not read), capped.
    func wait(retryAfter: String?) -> Duration? {
        guard let text = retryAfter?.trimmingCharacters(in: .whitespaces), let seconds = Double(text), seconds.isFinite else { return nil }
        return min(maximumRetryAfter, .milliseconds(Int64(max(0, min(seconds, 86_400)) * 1000)))
    }
}
