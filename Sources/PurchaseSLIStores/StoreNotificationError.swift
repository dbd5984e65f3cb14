/// Why a store notification was refused, and which HTTP status says so: the stores resend anything
/// not answered with a 2xx, so the status tells a sender whether retrying can help.
public struct StoreNotificationError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case malformed, untrusted, unknownApp, unauthorized
    }

    private let kind: Kind
    /// What was wrong, naming the field.
    public let reason: String

    private init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The body is not a notification of the expected shape (400).
    public static func malformed(_ reason: String) -> Self { Self(.malformed, reason) }
    /// A signature or certificate chain does not verify (401).
    public static func untrusted(_ reason: String) -> Self { Self(.untrusted, reason) }
    /// The push endpoint's token is missing or wrong (401).
    public static func unauthorized(_ reason: String) -> Self { Self(.unauthorized, reason) }
    /// A verified notification for an app that is not configured (403).
    public static func unknownApp(_ reason: String) -> Self { Self(.unknownApp, reason) }

    /// The HTTP status that answers it.
    public var httpStatus: Int {
        switch kind {
        case .malformed: 400
        case .untrusted, .unauthorized: 401
        case .unknownApp: 403
        }
    }

    public var description: String { reason }
}
