import Foundation
import Hummingbird
import PurchaseSLIOutbound
import Testing

/// The one outbound client against live local servers: a redirect is a failure that names it and reaches
/// no other origin, credentials go to the configured origin only, the retry rules, the timeout.
@Suite struct OutboundHTTPTests {
    @Test("a 3xx is a failure naming the redirect; nothing reaches the other origin, and it is not tried again", arguments: redirectStatuses)
    func aRedirectIsNotFollowed(status: Int) async throws {
        try await withRedirect(status) { called, other, calledSent, otherSent in
            try await HTTPClientTransport.withTransport { transport in
                let http = OutboundHTTP(
                    peer: "the grant server", baseURL: called, transport: transport, timeout: .seconds(10),
                    retry: OutboundRetry(attempts: 3, firstDelay: .zero))
                let answer = await http.send("POST", called.appendingPathComponent("grants"), body: Data(#"{"transactionID":"1"}"#.utf8)) {
                    [("Idempotency-Key", "apple:1")]
                }
                #expect(answer.status == status && !answer.isSuccess && !answer.isTransient && answer.attempts == 1, "\(answer)")
                #expect(
                    answer.failure?.description
                        == "the grant server answered \(status) (redirect to \(other.absoluteString)/…): redirects are not followed")
            }
            #expect(await calledSent.all.map(\.line) == ["POST /grants"])
            #expect(await calledSent.all.first?.headers["idempotency-key"] == "apple:1")
            let reached = await otherSent.all.map(\.line)
            #expect(reached.isEmpty, "the redirect's target got \(reached)")
        }
    }

    @Test("a URL of another origin than the configured one is not sent, with its credentials or without")
    func anotherOriginGetsNothing() async throws {
        let answer: LiveAnswer = { _, _ in jsonResponse(200, "{}") }
        try await withLiveServer(answer: answer) { base, sent in
            let port = try #require(base.port)
            try await HTTPClientTransport.withTransport { transport in
                let http = OutboundHTTP(peer: "App Store Connect", baseURL: base, transport: transport, timeout: .seconds(10))
                // Another port, another host name for the same address, another scheme: each another origin.
                for url in ["http://127.0.0.1:\(port + 1)/v1", "http://localhost:\(port)/v1", "https://127.0.0.1:\(port)/v1"] {
                    let answer = await http.send("GET", URL(string: url)!) { [("Authorization", "Bearer secret")] }
                    #expect(answer.attempts == 0 && answer.status == 0 && !answer.isTransient, "\(url)")
                    #expect(
                        answer.failure?.description.hasPrefix(
                            "not sent to App Store Connect: \(OutboundOrigin.shortened(URL(string: url)!)) is not of the configured origin \(base.absoluteString)"
                        )
                            == true, "\(answer.failure?.description ?? "sent")")
                }
                // The configured origin itself is sent to.
                let same = await http.send("GET", URL(string: "http://127.0.0.1:\(port)/v1/apps")!) { [("Authorization", "Bearer secret")] }
                #expect(same.isSuccess && same.attempts == 1)
            }
            #expect(await sent.all.map(\.line) == ["GET /v1/apps"])
        }
    }

    @Test("no answer, 408, 429 and 5xx are tried again, a first 401 once with new credentials, another 4xx never")
    func theRetryRules() async throws {
        let script = Script([503, 408, 429, 200, 401, 200, 404])
        let answer: LiveAnswer = { _, _ in
            let status = await script.next()
            var response = jsonResponse(status, "{}")
            if status == 429 { response.headers[.retryAfter] = "0" }
            return response
        }
        try await withLiveServer(answer: answer) { base, sent in
            try await HTTPClientTransport.withTransport { transport in
                let http = OutboundHTTP(
                    peer: "the App Store Server API", baseURL: base, transport: transport, timeout: .seconds(10),
                    retry: OutboundRetry(attempts: 4, firstDelay: .milliseconds(1), newCredentialsOn401: true))
                let tokens = Script([1, 2, 3, 4, 5, 6, 7])
                let credentials: @Sendable () async throws -> [(name: String, value: String)] = {
                    [("Authorization", "Bearer token-\(await tokens.next())")]
                }
                let first = await http.send("PUT", base.appendingPathComponent("a"), credentials: credentials)
                #expect(first.isSuccess && first.attempts == 4, "503, 408, 429 then 200")
                let second = await http.send("PUT", base.appendingPathComponent("b"), credentials: credentials)
                #expect(second.isSuccess && second.attempts == 2, "401 then 200 with a new token")
                let third = await http.send("PUT", base.appendingPathComponent("c"), credentials: credentials)
                #expect(third.status == 404 && !third.isSuccess && third.attempts == 1, "a 404 is not tried again")
            }
            let all = await sent.all
            #expect(all.map(\.line) == ["PUT /a", "PUT /a", "PUT /a", "PUT /a", "PUT /b", "PUT /b", "PUT /c"])
            #expect(all.map { $0.headers["authorization"] ?? "" } == (1...7).map { "Bearer token-\($0)" }, "credentials made anew for each call")
        }
    }

    @Test("a server that sends nothing within the timeout is no answer, named, and counts as transient")
    func aSilentServerTimesOut() async throws {
        // The server answers only once the client has given up, however late a busy machine runs its timer.
        let gate = Gate()
        let answer: LiveAnswer = { _, _ in
            await gate.wait()
            return jsonResponse(200, "{}")
        }
        try await withLiveServer(answer: answer) { base, _ in
            try await HTTPClientTransport.withTransport { transport in
                let http = OutboundHTTP(peer: "the webhook", baseURL: base, transport: transport, timeout: .milliseconds(100))
                let answer = await http.send("POST", base.appendingPathComponent("slow"))
                await gate.open()
                #expect(
                    answer.status == 0 && answer.isTransient && answer.failure?.description == "no answer from the webhook: no answer within 0.1 s")
            }
        }
    }
}

/// Holds its waiters until it is opened.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// Values handed out in turn (the last one once they run out).
private actor Script {
    private var values: [Int]
    init(_ values: [Int]) { self.values = values }
    func next() -> Int { values.count > 1 ? values.removeFirst() : values[0] }
}
