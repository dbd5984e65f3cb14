import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PurchaseSLITestSupport
import Testing

/// What a live test server was sent, request by request.
actor SentRequests {
    /// One request: "METHOD /path", its header fields (lowercased names) and body.
    struct Request: Sendable {
        var line: String
        var headers: [String: String]
        var body: String
    }

    private(set) var all: [Request] = []

    func add(_ request: Request) { all.append(request) }
}

/// Answers every request, whatever its method and path, with what `answer` makes of it, and records it.
struct AnswerEverything: RouterMiddleware {
    typealias Context = BasicRequestContext
    let sent: SentRequests
    let answer: LiveAnswer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let line = "\(request.method.rawValue) \(request.uri.path)"
        await sent.add(.init(line: line, headers: headers, body: body))
        return await answer(line, body)
    }
}

/// How a live test server answers a request: from its "METHOD /path" and body.
typealias LiveAnswer = @Sendable (_ line: String, _ body: String) async -> Response

/// Runs a live server on a free port of 127.0.0.1 that answers every request with `answer`, for `body`,
/// which gets its base URL (`http://127.0.0.1:PORT`) and what it was sent.
func withLiveServer(
    answer: @escaping LiveAnswer,
    _ body: @escaping @Sendable (_ baseURL: URL, _ sent: SentRequests) async throws -> Void
) async throws {
    let sent = SentRequests()
    let router = Router()
    router.add(middleware: AnswerEverything(sent: sent, answer: answer))
    var logger = Logger(label: "outbound-test-server")
    logger.logLevel = .warning
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
    try await testLive(app) { client in
        try await body(URL(string: "http://127.0.0.1:\(try #require(client.port))")!, sent)
    }
}

/// A JSON answer.
func jsonResponse(_ status: Int, _ json: String) -> Response {
    Response(
        status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
}

/// Two live servers: the one called answers every request with a redirect of `status` to the same path on
/// the other origin, which answers as a willing server would (201 naming the posted `transactionID`,
/// or `{}`) and records what reaches it. `body` gets the called server's base URL, the other's, and
/// what each was sent.
func withRedirect(
    _ status: Int,
    _ body: @escaping @Sendable (_ called: URL, _ other: URL, _ calledSent: SentRequests, _ otherSent: SentRequests) async throws -> Void
) async throws {
    let answer: LiveAnswer = { _, posted in
        let object = (try? JSONSerialization.jsonObject(with: Data(posted.utf8))) as? [String: Any]
        let id = object?["transactionID"] as? String
        return jsonResponse(id == nil ? 200 : 201, id.map { #"{"transactionID":"\#($0)"}"# } ?? "{}")
    }
    try await withLiveServer(answer: answer) { other, otherSent in
        let redirect: LiveAnswer = { line, _ in
            let path = line.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "/"
            return Response(status: HTTPResponse.Status(code: status), headers: [.location: other.absoluteString + path])
        }
        try await withLiveServer(answer: redirect) { called, calledSent in
            try await body(called, other, calledSent, otherSent)
        }
    }
}

/// The redirects a server may answer: moved permanently, found, see other, temporary and permanent.
let redirectStatuses = [301, 302, 303, 307, 308]
