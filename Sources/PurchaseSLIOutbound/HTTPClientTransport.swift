import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
public import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The transport of every outbound call: one async-http-client `HTTPClient` on NIO's shared event loops,
/// redirects off, a connect timeout, a read timeout, answers kept up to ``maximumAnswerBytes``. The client
/// is made on the first request and must be shut down: `serve` runs the transport as a service of its
/// ServiceGroup (listed first, shut down last); a command calls ``withTransport(_:)``.
public final class HTTPClientTransport: OutboundTransport, Service {
    private enum State {
        case idle
        case running(HTTPClient)
        case shutDown
    }

    /// The longest a connection (TCP and TLS) may take to open.
    public let connectTimeout: Duration
    /// The longest the server may stay silent once a request is sent.
    public let readTimeout: Duration
    /// The largest answer kept; a larger one is a failure.
    public let maximumAnswerBytes: Int
    private let state = NIOLockedValueBox(State.idle)

    /// Creates a transport; nothing is opened until the first request.
    public init(connectTimeout: Duration = .seconds(5), readTimeout: Duration = .seconds(30), maximumAnswerBytes: Int = 1 << 20) {
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.maximumAnswerBytes = maximumAnswerBytes
    }

    /// Runs `body` with a new transport and shuts it down after, whether `body` throws or not.
    public static func withTransport<Value>(
        isolation: isolated (any Actor)? = #isolation, _ body: (HTTPClientTransport) async throws -> Value
    ) async throws -> Value {
        let transport = HTTPClientTransport()
        let result: Value
        do {
            result = try await body(transport)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
        return result
    }

    /// The client, made on first use; nil once shut down.
    private func client() -> HTTPClient? {
        state.withLockedValue { state in
            switch state {
            case .running(let client): return client
            case .shutDown: return nil
            case .idle:
                var configuration = HTTPClient.Configuration()
                configuration.redirectConfiguration = .disallow
                configuration.timeout = .init(connect: TimeAmount(connectTimeout), read: TimeAmount(readTimeout))
                configuration.decompression = .disabled
                let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
                state = .running(client)
                return client
            }
        }
    }

    public func send(_ request: OutboundRequest, timeout: Duration) async throws -> OutboundResponse {
        guard let client = client() else { throw TransportError("the outbound HTTP client is shut down") }
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(body) }
        do {
            let response = try await client.execute(outgoing, timeout: TimeAmount(timeout))
            let body = try await response.body.collect(upTo: maximumAnswerBytes)
            return OutboundResponse(
                status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: Data(body.readableBytesView))
        } catch {
            throw TransportError(describing: error, timeout: timeout, connectTimeout: connectTimeout, maximumBytes: maximumAnswerBytes)
        }
    }

    /// Shuts the client down (once; later requests fail). Requests in flight fail.
    public func shutdown() async throws {
        let client = state.withLockedValue { state -> HTTPClient? in
            defer { state = .shutDown }
            if case .running(let client) = state { return client }
            return nil
        }
        try await client?.shutdown()
    }

    /// As a service: waits for the group's graceful shutdown, then shuts the client down.
    public func run() async throws {
        try? await gracefulShutdown()
        try await shutdown()
    }
}

/// Why a request got no answer, in a few words.
struct TransportError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    /// Words for what async-http-client or NIO threw.
    init(describing error: any Error, timeout: Duration, connectTimeout: Duration, maximumBytes: Int) {
        switch error {
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout:
            description = "no answer within \(Self.words(timeout))"
        case let error as HTTPClientError where error == .connectTimeout || error == .tlsHandshakeTimeout:
            description = "could not connect within \(Self.words(connectTimeout))"
        case let error as HTTPClientError where error == .remoteConnectionClosed:
            description = "the connection closed before the answer ended"
        case is NIOTooManyBytesError:
            description = "an answer over \(maximumBytes) bytes"
        case let error as IOError:
            // A refused connection is tried until the connect timeout, then reported as the last error.
            description = error.errnoCode == ECONNREFUSED ? "connection refused" : String(cString: strerror(error.errnoCode))
        case let error as NIOConnectionError:
            if error.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) {
                description = "connection refused"
            } else if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                description = "host not found"
            } else {
                description = "\(error)"
            }
        case is CancellationError:
            description = "cancelled"
        default:
            description = "\(error)"
        }
    }

    /// `10 s`, `1.5 s`.
    private static func words(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
