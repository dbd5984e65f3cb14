public import Foundation

/// One HTTP request as ``OutboundHTTP`` hands it to a transport: the credentials already attached.
public struct OutboundRequest: Sendable {
    /// `GET`, `POST`, `PUT`, `PATCH`, `DELETE`.
    public var method: String
    /// Where it goes.
    public var url: URL
    /// Its header fields, in order.
    public var headers: [(name: String, value: String)]
    /// Its body, if any.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What a server answered one request: a status, header fields and the body.
public struct OutboundResponse: Sendable {
    /// The HTTP status.
    public var status: Int
    /// Its header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header field `name` (any case), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// What carries requests over the network: ``HTTPClientTransport`` (async-http-client) in the service and
/// the CLI, or a test's stand-in. A transport sends each request once and follows no redirect: a 3xx is
/// returned as it came.
public protocol OutboundTransport: Sendable {
    /// Sends `request` once and returns the whole answer.
    /// - Throws: when no answer came within `timeout` (connection refused, DNS, TLS, a deadline, an
    ///   answer too large to keep).
    func send(_ request: OutboundRequest, timeout: Duration) async throws -> OutboundResponse
}
