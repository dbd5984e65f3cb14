import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import PurchaseSLICore
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@Suite struct QueryAndHealthRouteTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
    }

    @Test func queryAnswersTheSameJSONAsTheCommandLine() async throws {
        let app = makeApp(store: store)
        try await app.test(.router) { client in
            let lines = [eventLine("a", product: "coins_100"), eventLine("b", product: "coins_500", result: "failure")]
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body(lines)) { #expect($0.status == .accepted) }
            try await client.execute(uri: "/v1/query?from=now-1h&to=now&by=productID&where=actionType%3Dpurchase", method: .get) { response in
                #expect(response.status == .ok)
                let json = bodyJSON(response.body)
                #expect(json["by"] as? [String] == ["productID"])
                let rows = try #require(json["rows"] as? [[String: Any]])
                #expect(rows.map { $0["productID"] as? String } == ["coins_100", "coins_500"])
                #expect(rows.map { $0["successRate"] as? Double } == [1, 0])
            }
            try await client.execute(uri: "/v1/query?from=yesterday&to=now", method: .get) { response in
                #expect(response.status == .badRequest)
                let message = errorMessage(response.body)
                #expect(message.contains("from: expected"), "\(message)")
            }
        }
    }

    /// A time or step that would overflow is a 400 naming the argument (one such GET used to stop the process).
    @Test(arguments: [
        ("from=-9223372036854775807s&to=9999-12-31&step=1d", "from: expected"),
        ("from=now-1h&to=now-106751991167300d", "to: expected"),
        ("from=1970-01-01&to=9999-12-31&step=1m", "more than a million time steps"),
        ("from=now-1h&to=now&step=9223372036854775807s", "step: expected"),
    ])
    func queryArgumentsThatWouldOverflowAreRefused(arguments: String, message: String) async throws {
        let app = makeApp(store: store)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/query?\(arguments)", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(errorMessage(response.body).contains(message), "\(errorMessage(response.body))")
            }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
    }

    /// Each app's overflow is a series of its own when the configuration names the app; an app a client
    /// invents is `other` (its name is never a label), events without an app have no app label.
    @Test func overflowIsLabelledByTheAppsTheConfigurationNames() async throws {
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = 3
        let capped = try SQLiteBucketStore(path: directory.file("capped.sqlite"), configuration: configuration)
        let app = makeApp(store: capped) {
            $0.alertApps = ["com.example.named"]
            $0.alertPolicy.appCaps = ["com.example.capped": AppCaps(seriesCap: 100)]
        }
        let lines = ["com.example.named", "com.example.capped", "com.example.invented", nil].flatMap { (app: String?) in
            (0..<4).map { plan in
                eventLine("\(app ?? "none")-\(plan)").replacingOccurrences(
                    of: "}", with: #","planID":"plan-\#(plan)""# + (app.map { #","app":"\#($0)""# } ?? "") + "}")
            }
        }
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body(lines)) { #expect($0.status == .accepted) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"purchase_sli_overflow_events_total{dimension="planID",app="com.example.named"} 1"#))
                #expect(text.contains(#"purchase_sli_overflow_events_total{dimension="planID",app="com.example.capped"} 1"#))
                #expect(text.contains(#"purchase_sli_overflow_events_total{dimension="planID",app="other"} 1"#))
                #expect(text.contains(#"purchase_sli_overflow_events_total{dimension="planID",app=""} 1"#))
                #expect(!text.contains("invented"))
            }
        }
    }

    @Test func metricsCountEventsRequestsAndCommits() async throws {
        let app = makeApp(store: store, databasePath: directory.file("db.sqlite"))
        try await app.test(.router) { client in
            let lines = [eventLine("a"), eventLine("a"), "oops"]
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body(lines)) { #expect($0.status == .accepted) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("purchase_sli_events_accepted_total 1"))
                #expect(text.contains("purchase_sli_events_duplicate_total 1"))
                #expect(text.contains(#"purchase_sli_events_rejected_total{field="json"} 1"#))
                #expect(text.contains(#"purchase_sli_http_request_duration_seconds_count{route="/v1/events",status="202"} 1"#))
                #expect(text.contains("purchase_sli_commit_events_count 1"))
                let reported = text.split(separator: "\n").first { $0.hasPrefix("purchase_sli_database_bytes ") }
                    .flatMap { Double($0.split(separator: " ")[1]) }
                let file = await (try? store.size().databaseBytes).map(Double.init)
                #expect(reported != nil && reported == file && file! > 0)
            }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
        }
    }
}

/// An error no route answers itself (here a damaged database) is a 500 that says what failed, and is logged.
@Suite struct UnexpectedErrorTests {
    @Test("GET /v1/query over a damaged bucket: 500 with the store's reason in JSON, and an error in the log", arguments: ["events", "charges"])
    func damagedBucket(of: String) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let now = Int64(Date().timeIntervalSince1970)
        _ = try await store.record(
            [PurchaseEvent(eventID: "a", timestampMillis: (now - 120) * 1000, productID: "p", actionType: .purchase, resultType: .success)],
            receivedAtMillis: now * 1000)
        let damage = { (db: Database) throws in
            try db.execute(sql: "UPDATE bucket_minute SET series_counts = x'010305'")
            try db.execute(sql: "DROP TABLE store_notification")
        }
        try DatabaseQueue(path: path).write(damage)
        let logs = InMemoryLogHandler()
        let app = buildApplication(
            configuration: ServerConfiguration(), store: store, databasePath: path, logger: Logger(label: "test") { _ in logs })
        try await app.test(.router) { client in
            // 40 minutes: never a whole hour, which the query would read from the (undamaged) hour bucket.
            try await client.execute(uri: "/v1/query?of=\(of)&from=now-40m&to=now", method: .get) { response in
                #expect(response.status == .internalServerError)
                #expect(response.headers[.contentType] == "application/json")
                let error = bodyJSON(response.body)["error"] as? String ?? ""
                #expect(error.hasPrefix("the server could not answer: "), "\(error)")
                if of == "events" { #expect(error.contains("the database is damaged") && error.contains("bucket_minute"), "\(error)") }
            }
        }
        #expect(logs.entries.contains { $0.level == .error && $0.message.description == "request failed" })
    }
}
