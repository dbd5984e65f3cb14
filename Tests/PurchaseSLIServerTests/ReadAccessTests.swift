import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// Who may read: with read keys, queries, metrics and pages need one (Bearer, or HTTP Basic with the key
/// as the password, as a browser sends it); the health checks and ingestion never do. Reads are rate
/// limited per key (per address without keys), and a query may not answer more rows than the limit.
@Suite struct ReadAccessTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
    }

    private func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    @Test func withReadKeysEveryReadButTheHealthChecksNeedsOne() async throws {
        let pages = directory.file("pages")
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        try Data("<!DOCTYPE html><title>index</title>".utf8).write(to: URL(fileURLWithPath: pages + "/index.html"))
        let app = makeApp(store: store) {
            $0.readKeys = AccessKeys(["read-secret", "rotated-secret"])
            $0.pagesDirectory = pages
        }
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body([eventLine("a")])) {
                #expect($0.status == .accepted, "ingestion needs no read key")
            }
            for uri in ["/healthz", "/readyz"] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .ok, "\(uri)") }
            }
            let reads = ["/v1/query?from=now-1h&to=now", "/metrics", "/", "/index.html", "/oncall.html"]
            let refused: [(String, HTTPFields)] = [
                ("no key", [:]), ("a wrong key", [.authorization: "Bearer wrong"]),
                ("an ingest-style header", [HTTPField.Name("X-Ingest-Key")!: "read-secret"]),
                ("a wrong password", [.authorization: basic("oncall", "wrong")]), ("a malformed header", [.authorization: "Basic %%%"]),
            ]
            for uri in reads {
                for (name, headers) in refused {
                    try await client.execute(uri: uri, method: .get, headers: headers) { response in
                        #expect(response.status == .unauthorized, "\(uri) with \(name)")
                        #expect(response.headers[.wwwAuthenticate] == #"Basic realm="purchase-sli", charset="UTF-8""#)
                        #expect(!String(buffer: response.body).contains("index") && !String(buffer: response.body).contains("purchase_sli_"))
                    }
                }
            }
            try await client.execute(uri: reads[0], method: .get, headers: [.authorization: "Bearer read-secret"]) { response in
                #expect(response.status == .ok)
                #expect((bodyJSON(response.body)["rows"] as? [[String: Any]])?.first?["count"] as? Int == 1)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "bearer rotated-secret"]) { response in
                #expect(response.status == .ok && String(buffer: response.body).contains("purchase_sli_events_accepted_total 1"))
            }
            try await client.execute(uri: "/", method: .get, headers: [.authorization: basic("anyone", "read-secret")]) { response in
                #expect(response.status == .ok && String(buffer: response.body).contains("<title>index</title>"))
            }
        }
    }

    @Test func readsAreRateLimitedPerKeyAndHealthChecksAreNot() async throws {
        let app = makeApp(store: store) {
            $0.readRequestsPerSecond = 0.001
            $0.readBurst = 2
        }
        try await app.test(.router) { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/v1/query?from=now-1h&to=now", method: .get) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter].flatMap { Int($0) }.map { $0 >= 1 } == true)
                #expect(errorMessage(response.body).contains("read rate limit exceeded"))
            }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body([eventLine("a")])) {
                #expect($0.status == .accepted)
            }
        }
    }

    @Test func aQueryThatWouldAnswerMoreRowsThanTheLimitIsRefusedSayingHowToNarrowIt() async throws {
        let app = makeApp(store: store) { $0.maximumQueryRows = 10 }
        try await app.test(.router) { client in
            let lines = (0..<30).map { eventLine("e\($0)", product: "p\($0 % 3)", ageSeconds: 60 * Int64($0) + 30) }
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body(lines)) { #expect($0.status == .accepted) }
            try await client.execute(uri: "/v1/query?from=now-2h&to=now&step=1m", method: .get) { response in
                #expect(response.status == .badRequest)
                let message = errorMessage(response.body)
                #expect(message.contains("more than 10 rows") && message.contains("use a larger step"), "\(message)")
            }
            try await client.execute(uri: "/v1/query?from=now-2h&to=now&by=productID", method: .get) { response in
                #expect(response.status == .ok)
                let rows = bodyJSON(response.body)["rows"] as? [[String: Any]] ?? []
                #expect(rows.map { $0["productID"] as? String } == ["p0", "p1", "p2"] && rows.map { $0["count"] as? Int } == [10, 10, 10])
            }
        }
    }
}
