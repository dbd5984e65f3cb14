import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurchaseSLICore
import PurchaseSLIGzip
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@Suite struct EventsRouteTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
    }

    /// An invalid optional field is left out and listed in `warnings`; the event is counted. statusCode 0
    /// (no response) is accepted as it is.
    @Test func anInvalidOptionalFieldIsAWarningAndTheEventCounts() async throws {
        let app = makeApp(store: store)
        try await app.test(.router) { client in
            let noResponse = eventLine("a", result: "failure").replacingOccurrences(of: "}", with: #","statusCode":0}"#)
            let badPlan = eventLine("b").replacingOccurrences(of: "}", with: #","planID":["pro"],"durationMs":-5}"#)
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body([noResponse, badPlan])) { response in
                #expect(response.status == .accepted)
                let json = bodyJSON(response.body)
                #expect(json["accepted"] as? Int == 2 && (json["rejected"] as? [Any])?.isEmpty == true)
                let warnings = try #require(json["warnings"] as? [[String: Any]])
                #expect(warnings.map { $0["index"] as? Int } == [1, 1])
                #expect(warnings.map { $0["field"] as? String } == ["planID", "durationMs"])
            }
        }
        await #expect(try countedEvents(store) == 2)
    }

    @Test func acceptsGoodEventsBesideBadOnesAndCountsDuplicatesOnce() async throws {
        let app = makeApp(store: store)
        // A re-sent event is the same event: same eventID and timestamp.
        let a = eventLine("a")
        let c = eventLine("c")
        try await app.test(.router) { client in
            let lines = [a, "not json", eventLine("b", result: "granted"), c, a]
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body(lines)) { response in
                #expect(response.status == .accepted)
                let json = bodyJSON(response.body)
                #expect(json["accepted"] as? Int == 2 && json["duplicates"] as? Int == 1)
                let rejected = try #require(json["rejected"] as? [[String: Any]])
                #expect(rejected.map { $0["index"] as? Int } == [1, 2])
                #expect(rejected.map { $0["field"] as? String } == ["json", "resultType"])
            }
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body([c])) { response in
                #expect(bodyJSON(response.body)["duplicates"] as? Int == 1)
            }
        }
        await #expect(try countedEvents(store) == 2)
    }

    @Test func acceptsAJSONArrayASingleObjectAndGzip() async throws {
        let app = makeApp(store: store)
        let json: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        try await app.test(.router) { client in
            let array = ByteBuffer(string: "[\n" + [eventLine("a"), eventLine("b")].joined(separator: ",\n") + "\n]")
            try await client.execute(uri: "/v1/events", method: .post, headers: json, body: array) { response in
                #expect(response.status == .accepted)
                #expect(bodyJSON(response.body)["accepted"] as? Int == 2)
            }
            let pretty = ByteBuffer(string: eventLine("c").replacingOccurrences(of: ",", with: ",\n  "))
            try await client.execute(uri: "/v1/events", method: .post, headers: json, body: pretty) { response in
                #expect(response.status == .accepted)
                #expect(bodyJSON(response.body)["accepted"] as? Int == 1)
            }
            let gzip = try GzipCompressor.compress(Array([eventLine("d"), eventLine("e")].joined(separator: "\n").utf8))
            var headers = ndjson
            headers[.contentEncoding] = "gzip"
            try await client.execute(uri: "/v1/events", method: .post, headers: headers, body: ByteBuffer(bytes: gzip)) { response in
                #expect(response.status == .accepted)
                #expect(bodyJSON(response.body)["accepted"] as? Int == 2)
            }
        }
        await #expect(try countedEvents(store) == 5)
    }

    /// Each case: a request the service must refuse whole, and the status and message it answers with.
    @Test(
        arguments: [
            ("empty body", [.contentType: "application/x-ndjson"], "", HTTPResponse.Status.badRequest, "no events"),
            ("nothing valid", [.contentType: "application/x-ndjson"], "{}\nnot json", .badRequest, "no valid event"),
            ("no content type", [:], "{}", .unsupportedMediaType, "Content-Type must be"),
            ("text/plain", [.contentType: "text/plain"], "{}", .unsupportedMediaType, "got \"text/plain\""),
            ("brotli", [.contentType: "application/x-ndjson", .contentEncoding: "br"], "{}", .unsupportedMediaType, "br is not supported"),
            ("stacked gzip", [.contentType: "application/x-ndjson", .contentEncoding: "gzip, gzip"], "{}", .unsupportedMediaType, "stacked"),
            ("not gzip", [.contentType: "application/x-ndjson", .contentEncoding: "gzip"], "{}", .badRequest, "not valid gzip"),
        ] as [(String, HTTPFields, String, HTTPResponse.Status, String)])
    func refusesMalformedRequests(name: String, headers: HTTPFields, text: String, status: HTTPResponse.Status, message: String) async throws {
        let app = makeApp(store: store)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/events", method: .post, headers: headers, body: ByteBuffer(string: text)) { response in
                #expect(response.status == status, "\(name)")
                let error = errorMessage(response.body)
                #expect(error.contains(message), "\(name): \(error)")
            }
        }
        await #expect(try countedEvents(store) == 0)
    }

    @Test func refusesOversizeBodiesGzipBombsAndTooManyEvents() async throws {
        let app = makeApp(store: store) { $0.maximumBodyBytes = 64 << 10 }
        try await app.test(.router) { client in
            let big = ByteBuffer(string: String(repeating: eventLine("x") + "\n", count: 1000))
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: big) { response in
                #expect(response.status == .contentTooLarge)
            }
            // 10 MiB of spaces compress to ~10 KB: over both the 8 MiB and the 100× limits.
            let bomb = try GzipCompressor.compress([UInt8](repeating: 0x20, count: 10 << 20))
            var gzip = ndjson
            gzip[.contentEncoding] = "gzip"
            try await client.execute(uri: "/v1/events", method: .post, headers: gzip, body: ByteBuffer(bytes: bomb)) { response in
                #expect(response.status == .contentTooLarge)
                let message = errorMessage(response.body)
                #expect(message.contains("decompressed body exceeds"), "\(message)")
            }
            let many = try GzipCompressor.compress(Array((0..<1001).map { eventLine("m\($0)") }.joined(separator: "\n").utf8))
            try await client.execute(uri: "/v1/events", method: .post, headers: gzip, body: ByteBuffer(bytes: many)) { response in
                #expect(response.status == .contentTooLarge)
                let message = errorMessage(response.body)
                #expect(message.contains("more than 1000 events"), "\(message)")
            }
        }
        await #expect(try countedEvents(store) == 0)
    }

    @Test func rejectsLongLinesLateAndFutureEventsOneByOne() async throws {
        let app = makeApp(store: store)
        try await app.test(.router) { client in
            let long = #"{"eventID":"long","note":""# + String(repeating: "x", count: 70_000) + "\"}"
            let lines = [eventLine("ok"), long, eventLine("late", ageSeconds: 9 * 86_400), eventLine("future", ageSeconds: -3600)]
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body(lines)) { response in
                #expect(response.status == .accepted)
                let rejected = try #require(bodyJSON(response.body)["rejected"] as? [[String: Any]])
                #expect(rejected.map { $0["index"] as? Int } == [1, 2, 3])
                #expect((rejected[0]["reason"] as? String)?.contains("longer than the limit of 65536 bytes") == true)
                #expect((rejected[1]["reason"] as? String)?.contains("timestamp too old") == true)
                #expect((rejected[2]["reason"] as? String)?.contains("timestamp in the future") == true)
            }
        }
        await #expect(try countedEvents(store) == 1)
    }

    @Test func requiresAKnownIngestKeyWhenKeysAreConfigured() async throws {
        let app = makeApp(store: store) { $0.ingestKeys = AccessKeys(["old-key", "new-key"]) }
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body([eventLine("a")])) { response in
                #expect(response.status == .unauthorized)
                let message = errorMessage(response.body)
                #expect(message.contains("missing ingest key"), "\(message)")
            }
            var wrong = ndjson
            wrong[HTTPField.Name("X-Ingest-Key")!] = "new-kez"
            try await client.execute(uri: "/v1/events", method: .post, headers: wrong, body: body([eventLine("a")])) { response in
                #expect(response.status == .unauthorized)
            }
            var header = ndjson
            header[HTTPField.Name("X-Ingest-Key")!] = "old-key"
            try await client.execute(uri: "/v1/events", method: .post, headers: header, body: body([eventLine("a")])) { response in
                #expect(response.status == .accepted)
            }
            var bearer = ndjson
            bearer[.authorization] = "Bearer new-key"
            try await client.execute(uri: "/v1/events", method: .post, headers: bearer, body: body([eventLine("b")])) { response in
                #expect(response.status == .accepted)
            }
        }
        await #expect(try countedEvents(store) == 2)
    }

    @Test func limitsTheRequestRateOfEachKey() async throws {
        let app = makeApp(store: store) {
            $0.ingestKeys = AccessKeys(["a-key", "b-key"])
            $0.requestsPerSecondPerKey = 0.001  // a token per 1000 s: none refills during the test, however slow the machine
            $0.requestBurstPerKey = 2
        }
        try await app.test(.router) { client in
            var headers = ndjson
            headers[HTTPField.Name("X-Ingest-Key")!] = "a-key"
            for index in 0..<2 {
                try await client.execute(uri: "/v1/events", method: .post, headers: headers, body: body([eventLine("a\(index)")])) {
                    #expect($0.status == .accepted)
                }
            }
            try await client.execute(uri: "/v1/events", method: .post, headers: headers, body: body([eventLine("a2")])) { response in
                #expect(response.status == .tooManyRequests)
                #expect(Int(response.headers[.retryAfter] ?? "") ?? 0 >= 1)
            }
            headers[HTTPField.Name("X-Ingest-Key")!] = "b-key"
            try await client.execute(uri: "/v1/events", method: .post, headers: headers, body: body([eventLine("b0")])) {
                #expect($0.status == .accepted)
            }
        }
        await #expect(try countedEvents(store) == 3)
    }

    /// A full disk: every POST gets 503 and counts nothing, and `/readyz` says not ready from the first
    /// failed commit, though a one-page probe write still fits; once a commit succeeds it is ready again.
    @Test func answers503WhenTheStoreCannotCommitAndIsNotReadyUntilItCan() async throws {
        let full = FullDiskStore(base: store)
        let app = makeApp(store: full)
        try await app.test(.router) { client in
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body([eventLine("a")])) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] != nil)
                let message = errorMessage(response.body)
                #expect(message.contains("nothing of this request was counted"), "\(message)")
            }
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(errorMessage(response.body).contains("the last commit failed"), "\(errorMessage(response.body))")
            }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            await #expect(try countedEvents(store) == 0)
            full.heal()
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body([eventLine("b")])) {
                #expect($0.status == .accepted)
            }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
        }
        await #expect(try countedEvents(store) == 1)
    }
}
