import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// `purchase-sli make-whole` against a local grant server: one idempotent POST per charge not granted,
/// retried with backoff, each outcome kept so that a settled charge is never posted again.
@Suite struct MakeWholeCommandTests {
    let directory: TemporaryDirectory
    let db: String

    /// Four App Store charges two hours ago that nothing granted.
    init() async throws {
        directory = try TemporaryDirectory()
        db = directory.file("make-whole.sqlite")
        let charged = Int64(Date().timeIntervalSince1970) * 1000 - 2 * 3_600_000
        let store = try SQLiteBucketStore(path: db)
        _ = try await store.record(
            ["2000000000000001", "2000000000000002", "2000000000000003", "2000000000000004"].enumerated().map { (index: Int, id: String) in
                StoreNotification(
                    store: .apple, notificationID: "n\(id)", environment: "Production", appID: "com.example.app", type: "ONE_TIME_CHARGE",
                    kind: .charge, signedMillis: charged + Int64(index) * 1000, transactionID: id, productID: "coins_500",
                    purchaseMillis: charged + Int64(index) * 1000, price: 4.99, currency: "USD",
                    appAccountToken: "6f1c0c1e-0000-4000-8000-00000000000\(index)")
            }, receivedAtMillis: charged + 5000)
    }

    @Test("each charge posted once with its idempotency key, retried while the server fails, kept; a second run posts only what failed")
    func postsEachChargeUntilSettled() async throws {
        let received = GrantServerLog()
        let router = Router()
        router.post("grants") { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
            let key = request.headers.first { $0.name.canonicalName == "idempotency-key" }?.value ?? ""
            let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
            guard json["productID"] as? String == "coins_500", json["price"] as? Double == 4.99, json["currency"] as? String == "USD",
                json["appAccountToken"] != nil, key == "apple:" + (json["transactionID"] as? String ?? "")
            else { return Response(status: .badRequest) }
            let tries = await received.add(key)
            switch key {
            case "apple:2000000000000001":
                // Granted: 201 naming the transaction, the answer make-whole takes as delivered.
                return tries == 1 ? Response(status: .serviceUnavailable) : jsonResponse(201, #"{"transactionID":"2000000000000001"}"#)
            case "apple:2000000000000002": return Response(status: .conflict)
            case "apple:2000000000000003": return Response(status: .unprocessableContent)
            default: return Response(status: .serviceUnavailable)
            }
        }
        var logger = Logger(label: "grant-server")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        let executable = try #require(builtExecutable)
        try await testLive(app) { client in
            let arguments = [
                "make-whole", "--db", db, "--from", "now-3h", "--to", "now", "--url", "http://127.0.0.1:\(try #require(client.port))/grants",
                "--attempts", "2", "--retry-delay", "1s",
            ]
            let (first, firstOutput) = try await ChildProcess.run(executable, arguments)
            #expect(first == .exit(1), "a refused and a failed charge: \(firstOutput)")
            #expect(firstOutput.contains("4 charges owed; posted 4 now, 2 taken"), "\(firstOutput)")
            let (second, secondOutput) = try await ChildProcess.run(executable, arguments)
            #expect(second == .exit(1), "\(secondOutput)")
            // The two the grant server took are settled: no longer owed, not listed; the refused one is still owed, not posted again.
            #expect(
                secondOutput.contains("2 charges owed; posted 1 now, 0 taken") && secondOutput.contains("earlier: refused"), "\(secondOutput)"
            )
            #expect(!secondOutput.contains("2000000000000001") && !secondOutput.contains("2000000000000002"), "\(secondOutput)")
        }
        #expect(
            await received.counts == [
                "apple:2000000000000001": 2, "apple:2000000000000002": 1, "apple:2000000000000003": 1, "apple:2000000000000004": 4,
            ])
        let kept = try await MakeWholeDeliveryRepository(try SQLiteBucketStore(path: db).sql).deliveries(
            naming: ["2000000000000001", "2000000000000002", "2000000000000003", "2000000000000004"])
        #expect(
            kept.map { "\($0.transactionID) \($0.outcome.rawValue) \($0.status) \($0.attempts)" } == [
                "2000000000000001 delivered 201 2", "2000000000000002 already-granted 409 1", "2000000000000003 refused 422 1",
                "2000000000000004 failed 503 4",
            ])
    }

    /// `make-whole` for the first charge alone, posting to `url`: how it ended and what it printed.
    private func postFirstCharge(to url: URL) async throws -> (termination: ChildProcess.Termination, output: String) {
        try await ChildProcess.run(
            try #require(builtExecutable),
            [
                "make-whole", "--db", db, "--from", "now-3h", "--to", "now", "--transaction", "2000000000000001", "--url",
                url.appendingPathComponent("grants").absoluteString, "--attempts", "3", "--retry-delay", "1s",
            ])
    }

    /// What is kept of the first charge's delivery: "outcome status attempts".
    private func firstChargeKept() async throws -> [String] {
        try await MakeWholeDeliveryRepository(try SQLiteBucketStore(path: db).sql).deliveries(naming: ["2000000000000001"]).map {
            "\($0.outcome.rawValue) \($0.status) \($0.attempts)"
        }
    }

    @Test(
        "a redirect is not followed: the charge stays owed and is posted again by the next run; the other origin gets nothing",
        arguments: redirectStatuses)
    func aRedirectLeavesTheChargeOwed(status: Int) async throws {
        try await withRedirect(status) { called, other, calledSent, otherSent in
            for run in 1...2 {
                let (termination, output) = try await postFirstCharge(to: called)
                #expect(termination == .exit(1), "run \(run): \(output)")
                #expect(output.contains("failed (HTTP \(status), \(run) attempt"), "run \(run): \(output)")
                #expect(
                    output.contains("the grant server answered \(status) (redirect to \(other.absoluteString)/…): redirects are not followed"),
                    "\(output)")
                #expect(output.contains("1 charge owed; posted 1 now, 0 taken"), "\(output)")
            }
            await #expect(try firstChargeKept() == ["failed \(status) 2"], "one post per run: a redirect is not retried")
            #expect(await calledSent.all.map(\.line) == ["POST /grants", "POST /grants"])
            let reached = await otherSent.all.map(\.line)
            #expect(reached.isEmpty, "the other origin got \(reached) with the Idempotency-Key")
        }
    }

    @Test(
        "a success without the documented body (JSON naming the transaction) leaves the charge owed; the answer that has it settles it",
        arguments: [
            (200, ""), (201, "{}"), (200, "<html>Welcome to the captive portal</html>"), (201, #"{"transactionID":"2000000000000009"}"#), (204, ""),
        ])
    func aSuccessWithoutTheBodyIsNotDelivered(status: Int, body: String) async throws {
        let answers = Answers([(status, body), (201, #"{"transactionID":"2000000000000001","granted":true}"#)])
        let answer: LiveAnswer = { _, _ in
            let (status, body) = await answers.next()
            return jsonResponse(status, body)
        }
        try await withLiveServer(answer: answer) { base, sent in
            let (first, firstOutput) = try await postFirstCharge(to: base)
            #expect(first == .exit(1), "\(firstOutput)")
            #expect(firstOutput.contains("failed (HTTP \(status), 1 attempt"), "\(firstOutput)")
            #expect(firstOutput.contains("the grant server answered \(status) without naming the transaction"), "\(firstOutput)")
            await #expect(try firstChargeKept() == ["failed \(status) 1"])
            let (second, secondOutput) = try await postFirstCharge(to: base)
            #expect(second == .exit(0) && secondOutput.contains("delivered (HTTP 201, 2 attempts"), "\(secondOutput)")
            await #expect(try firstChargeKept() == ["delivered 201 2"])
            #expect(await sent.all.count == 2)
        }
    }

    @Test("a dry run lists what it would post and posts nothing")
    func dryRunPostsNothing() async throws {
        let executable = try #require(builtExecutable)
        let (termination, output) = try await ChildProcess.run(
            executable, ["make-whole", "--db", db, "--from", "now-3h", "--to", "now", "--url", "http://127.0.0.1:9/grants", "--dry-run"])
        #expect(termination == .exit(0), "\(output)")
        #expect(output.components(separatedBy: "would post").count - 1 == 4 && output.contains("posted 0 now"), "\(output)")
        #expect(try await MakeWholeDeliveryRepository(try SQLiteBucketStore(path: db).sql).deliveries(naming: ["2000000000000001"]).isEmpty)
    }
}

/// A grant server's answers (status, body), in turn.
private actor Answers {
    private var answers: [(Int, String)]
    init(_ answers: [(Int, String)]) { self.answers = answers }
    func next() -> (Int, String) { answers.count > 1 ? answers.removeFirst() : answers[0] }
}

/// How often the grant server was posted each key.
private actor GrantServerLog {
    var counts: [String: Int] = [:]
    func add(_ key: String) -> Int {
        counts[key, default: 0] += 1
        return counts[key]!
    }
}
