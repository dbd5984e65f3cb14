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
    init() throws {
        directory = try TemporaryDirectory()
        db = directory.file("make-whole.sqlite")
        let charged = Int64(Date().timeIntervalSince1970) * 1000 - 2 * 3_600_000
        let store = try SQLiteBucketStore(path: db)
        _ = try store.record(
            ["2000000000000001", "2000000000000002", "2000000000000003", "2000000000000004"].enumerated().map { index, id in
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
        router.post("grants") { request, _ -> HTTPResponse.Status in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
            let key = request.headers.first { $0.name.canonicalName == "idempotency-key" }?.value ?? ""
            let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
            guard json["productID"] as? String == "coins_500", json["price"] as? Double == 4.99, json["currency"] as? String == "USD",
                json["appAccountToken"] != nil, key == "apple:" + (json["transactionID"] as? String ?? "")
            else { return .badRequest }
            let tries = await received.add(key)
            switch key {
            case "apple:2000000000000001": return tries == 1 ? .serviceUnavailable : .created
            case "apple:2000000000000002": return .conflict
            case "apple:2000000000000003": return .unprocessableContent
            default: return .serviceUnavailable
            }
        }
        var logger = Logger(label: "grant-server")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        let executable = try #require(builtExecutable)
        try await app.test(.live) { client in
            let arguments = [
                "make-whole", "--db", db, "--from", "now-3h", "--to", "now", "--url", "http://127.0.0.1:\(try #require(client.port))/grants",
                "--attempts", "2", "--retry-delay", "1s",
            ]
            let (first, firstOutput) = try await ChildProcess.run(executable, arguments)
            #expect(first == .exit(1), "a refused and a failed charge: \(firstOutput)")
            #expect(firstOutput.contains("4 charges not granted; posted 4 now, 2 taken"), "\(firstOutput)")
            let (second, secondOutput) = try await ChildProcess.run(executable, arguments)
            #expect(second == .exit(1), "\(secondOutput)")
            #expect(secondOutput.contains("posted 1 now, 0 taken") && secondOutput.contains("earlier: delivered"), "\(secondOutput)")
        }
        #expect(
            await received.counts == [
                "apple:2000000000000001": 2, "apple:2000000000000002": 1, "apple:2000000000000003": 1, "apple:2000000000000004": 4,
            ])
        let kept = try SQLiteBucketStore(path: db).makeWholeDeliveries(
            naming: ["2000000000000001", "2000000000000002", "2000000000000003", "2000000000000004"])
        #expect(
            kept.map { "\($0.transactionID) \($0.outcome.rawValue) \($0.status) \($0.attempts)" } == [
                "2000000000000001 delivered 201 2", "2000000000000002 already-granted 409 1", "2000000000000003 refused 422 1",
                "2000000000000004 failed 503 4",
            ])
    }

    @Test("a dry run lists what it would post and posts nothing")
    func dryRunPostsNothing() async throws {
        let executable = try #require(builtExecutable)
        let (termination, output) = try await ChildProcess.run(
            executable, ["make-whole", "--db", db, "--from", "now-3h", "--to", "now", "--url", "http://127.0.0.1:9/grants", "--dry-run"])
        #expect(termination == .exit(0), "\(output)")
        #expect(output.components(separatedBy: "would post").count - 1 == 4 && output.contains("posted 0 now"), "\(output)")
        #expect(try SQLiteBucketStore(path: db).makeWholeDeliveries(naming: ["2000000000000001"]).isEmpty)
    }
}

/// How often the grant server was posted each key.
private actor GrantServerLog {
    var counts: [String: Int] = [:]
    func add(_ key: String) -> Int {
        counts[key, default: 0] += 1
        return counts[key]!
    }
}
