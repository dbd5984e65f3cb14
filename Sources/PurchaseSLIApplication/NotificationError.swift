public import Foundation
public import PurchaseSLICore

/// Why alert notifications did not reach their receiver: it answered with a status other than 2xx, or it
/// could not be reached at all.
public struct NotificationError: UserFacingError, Sendable {
    private enum Kind: Sendable {
        case refused(status: Int, answer: String)
        case unreachable(reason: String)
    }

    private let kind: Kind
    /// Where the notifications were posted.
    public let url: URL

    /// The receiver at `url` answered `status` (not 2xx, or a redirect, never followed) with `answer`.
    package static func refused(_ url: URL, status: Int, answer: String) -> Self {
        Self(kind: .refused(status: status, answer: answer), url: url)
    }

    /// The receiver at `url` could not be reached, for `reason`.
    package static func unreachable(_ url: URL, reason: String) -> Self { Self(kind: .unreachable(reason: reason), url: url) }

    /// The HTTP status the receiver answered, or nil when it could not be reached.
    // Not inlined: inlined into `AlertNotifier.notify(at:state:)` next to `description`, its pattern match
    // crashes the Swift 6.3.1 optimizer in release builds (CopyPropagation, "Found outside of lifetime use").
    @inline(never)
    public var status: Int? {
        if case .refused(let status, _) = kind { return status }
        return nil
    }

    /// One line naming the URL and the status or the connection failure, with the start of the answer.
    public var description: String {
        switch kind {
        case .refused(let status, let answer):
            let said = answer.split(whereSeparator: \.isNewline).joined(separator: " ").prefix(200)
            return "POST \(url.redacted) answered HTTP \(status)" + (said.isEmpty ? "" : ": \(said)")
        case .unreachable(let reason):
            return "POST \(url.redacted) failed: \(reason)"
        }
    }
}

extension URL {
    /// The URL without its path, query and credentials (`https://hooks.slack.com/…`): a Slack-compatible
    /// webhook's path is its secret, so logs and error messages show only where it goes.
    public var redacted: String {
        guard let scheme, let host else { return "(a URL)" }
        let hasMore = !(path.isEmpty || path == "/") || query != nil
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "") + (hasMore ? "/…" : "")
    }
}
