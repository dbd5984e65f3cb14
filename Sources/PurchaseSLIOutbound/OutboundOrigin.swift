public import Foundation

/// Where a credential may go: a URL's scheme, host and port (RFC 6454's origin). Two URLs of one origin
/// reach the same server; a request whose URL is of another origin never carries the credentials of
/// the configured one.
public struct OutboundOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lowercased.
    public let scheme: String
    /// The host, lowercased.
    public let host: String
    /// The port, the scheme's default (80, 443) when the URL names none.
    public let port: Int

    /// The origin of `url`; nil unless it is an absolute http or https URL with a host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host?.lowercased(),
            !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `https://api.example.com`, with the port when it is not the scheme's default.
    public var description: String {
        "\(scheme)://\(host)" + (port == (scheme == "https" ? 443 : 80) ? "" : ":\(port)")
    }

    /// `url` as its origin and, when it has more (a path, a query), `/…`: where a request goes without
    /// what may be secret in it (a webhook's path, a token in a query).
    public static func shortened(_ url: URL) -> String {
        guard let origin = OutboundOrigin(url) else { return "a URL that is not http or https with a host" }
        let hasMore = !(url.path.isEmpty || url.path == "/") || url.query != nil
        return origin.description + (hasMore ? "/…" : "")
    }
}
