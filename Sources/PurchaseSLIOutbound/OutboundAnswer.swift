public import Foundation

/// How a call through ``OutboundHTTP`` ended: the last answer (status 0: none) and, when it cannot be
/// used, why; and how many calls were made.
public struct OutboundAnswer: Sendable {
    /// The HTTP status of the last answer; 0 when none came or nothing was sent.
    public var status: Int
    /// Its header fields.
    public var headers: [(name: String, value: String)]
    /// Its body.
    public var body: Data
    /// Why it cannot be used: no answer, a redirect, another origin, no credentials; nil: an answer.
    public var failure: OutboundFailure?
    /// The calls made (0: nothing was sent).
    public var attempts: Int

    /// Creates an answer.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data(), failure: OutboundFailure?, attempts: Int) {
        self.status = status
        self.headers = headers
        self.body = body
        self.failure = failure
        self.attempts = attempts
    }

    /// Whether the server answered a 2xx (and nothing else went wrong).
    public var isSuccess: Bool { failure == nil && (200..<300).contains(status) }

    /// Whether trying again later may help: no answer, 408, 429 or a 5xx (``OutboundRetry/isTransient(status:)``);
    /// never a redirect or a call not sent.
    public var isTransient: Bool {
        if let failure { return failure.isTransient }
        return OutboundRetry.isTransient(status: status)
    }
}
