import Foundation

/// Why a call got no answer that can be used: no answer at all, a redirect (never followed), a URL of
/// another origin than the configured one (never sent), or credentials that could not be made.
public struct OutboundFailure: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case unreachable(reason: String)
        case redirect(status: Int, target: String?)
        case otherOrigin(url: String, origin: String)
        case credentials(reason: String)
    }

    private let kind: Kind
    /// Who was called, in words: "the grant server", "App Store Connect".
    public let peer: String

    /// No answer came: connection refused, DNS, TLS, no answer within the timeout.
    static func unreachable(_ peer: String, reason: String) -> Self { Self(kind: .unreachable(reason: reason), peer: peer) }

    /// The server answered a 3xx; `location` is its Location header, if any, resolved against `url`.
    static func redirect(_ peer: String, status: Int, location: String?, from url: URL) -> Self {
        let target = location.map { (URL(string: $0, relativeTo: url)?.absoluteURL).map(OutboundOrigin.shortened) ?? "an unreadable Location" }
        return Self(kind: .redirect(status: status, target: target), peer: peer)
    }

    /// The request's URL is not of the configured origin: nothing was sent.
    static func otherOrigin(_ peer: String, url: URL, origin: OutboundOrigin?) -> Self {
        Self(kind: .otherOrigin(url: OutboundOrigin.shortened(url), origin: origin?.description ?? "none (not an http or https URL)"), peer: peer)
    }

    /// Making the credentials (signing a token) failed: nothing was sent.
    static func credentials(_ peer: String, reason: String) -> Self { Self(kind: .credentials(reason: reason), peer: peer) }

    /// Whether trying again later may help: only when no answer came.
    public var isTransient: Bool {
        if case .unreachable = kind { return true }
        return false
    }

    /// The redirect's status, when the server answered one.
    public var redirectStatus: Int? {
        if case .redirect(let status, _) = kind { return status }
        return nil
    }

    /// One line: "the grant server answered 302 (redirect to https://other.example/…): redirects are not followed".
    public var description: String {
        switch kind {
        case .unreachable(let reason): "no answer from \(peer): \(reason)"
        case .redirect(let status, let target):
            "\(peer) answered \(status) (\(target.map { "redirect to \($0)" } ?? "a redirect without a Location")): redirects are not followed"
        case .otherOrigin(let url, let origin):
            "not sent to \(peer): \(url) is not of the configured origin \(origin), and credentials go to that origin only"
        case .credentials(let reason): "not sent to \(peer): the credentials could not be made: \(reason)"
        }
    }
}
