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

/// The routes that take what existing instrumentation sends: New Relic's Event API and OTLP/HTTP JSON logs.
@Suite struct ForeignFormatRouteTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
    }

    /// A New Relic payload of a minute ago: three purchase SLIs (one without eventID), one other event
    /// type, one SLI without productID.
    private static func newRelicPayload() -> String {
        let seconds = Int64(Date().timeIntervalSince1970) - 60
        return """
            [{"eventType":"PurchaseSLI","eventID":"nr-a","timestamp":\(seconds),"productID":"coins_100","actionType":"purchase","resultType":"start"},
             {"eventType":"PurchaseSLI","uuid":"nr-b","timestamp":\(seconds * 1000),"productID":"coins_100","actionType":"purchase","resultType":"success"},
             {"eventType":"PurchaseSLI","timestamp":\(seconds),"productID":"coins_100","actionType":"retry","resultType":"alreadyGranted","statusCode":409,"session":"s1"},
             {"eventType":"Mobile","name":"launch"},
             {"eventType":"PurchaseSLI","timestamp":\(seconds),"actionType":"purchase","resultType":"failure"}]
            """
    }

    @Test("New Relic: keys in Api-Key or X-Insert-Key, 200 in New Relic's shape, a resent payload counted once")
    func newRelicEvents() async throws {
        // Read keys guard reads, not ingestion.
        let app = makeApp(store: store) { ($0.ingestKeys, $0.readKeys) = (AccessKeys(["k1"]), AccessKeys(["r1"])) }
        let payload = Self.newRelicPayload()
        try await app.test(.router) { client in
            let uri = "/v1/accounts/1234567/events"
            try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: payload)) {
                response in
                #expect(response.status == .unauthorized)
                let json = bodyJSON(response.body)
                #expect(json["success"] as? Bool == false)
                #expect((json["error"] as? String)?.contains("Api-Key or X-Insert-Key") == true)
            }
            let apiKey: HTTPFields = [.contentType: "application/json", HTTPField.Name("Api-Key")!: "k1"]
            try await client.execute(uri: uri, method: .post, headers: apiKey, body: ByteBuffer(string: payload)) { response in
                #expect(response.status == .ok)
                let json = bodyJSON(response.body)
                #expect(json["success"] as? Bool == true && (json["uuid"] as? String)?.count == 36)
                #expect(json["accepted"] as? Int == 3 && json["ignored"] as? Int == 1)
                let rejected = try #require(json["rejected"] as? [[String: Any]])
                #expect(rejected.map { $0["index"] as? Int } == [4] && rejected.map { $0["field"] as? String } == ["productID"])
            }
            // The same payload again, gzip, through the other header: every event, the one whose eventID
            // is its content hash included, is a duplicate.
            let insertKey: HTTPFields = [.contentType: "application/json", .contentEncoding: "gzip", HTTPField.Name("X-Insert-Key")!: "k1"]
            let gzip = try GzipCompressor.compress(Array(payload.utf8))
            try await client.execute(uri: uri, method: .post, headers: insertKey, body: ByteBuffer(bytes: gzip)) { response in
                #expect(response.status == .ok)
                #expect(bodyJSON(response.body)["accepted"] as? Int == 0 && bodyJSON(response.body)["duplicates"] as? Int == 3)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer r1"]) { response in
                #expect(String(buffer: response.body).contains(#"purchase_sli_records_ignored_total{format="newrelic"} 2"#))
            }
        }
        await #expect(try countedEvents(store) == 3)
    }

    /// An OTLP export of a minute ago: two purchase SLI records (the second without resultType) and an
    /// ordinary log line.
    private static func otlpExport(resultType: String? = "success") -> String {
        let nanos = (Int64(Date().timeIntervalSince1970) - 60) * 1_000_000_000
        func record(_ id: String, result: String?) -> String {
            #"{"timeUnixNano":"\#(nanos)","eventName":"purchase_sli","attributes":["#
                + #"{"key":"eventID","value":{"stringValue":"\#(id)"}},{"key":"productID","value":{"stringValue":"coins_100"}},"#
                + #"{"key":"actionType","value":{"stringValue":"purchase"}}"#
                + (result.map { #",{"key":"resultType","value":{"stringValue":"\#($0)"}}"# } ?? "") + "]}"
        }
        return
            #"{"resourceLogs":[{"resource":{"attributes":[{"key":"service.version","value":{"stringValue":"5.3.0"}}]},"scopeLogs":[{"logRecords":["#
            + record("o1", result: resultType) + "," + record("o2", result: nil)
            + #",{"timeUnixNano":"\#(nanos)","body":{"stringValue":"GET /health 200"}}]}]}]}"#
    }

    @Test("OTLP logs: 200 with partialSuccess naming the rejected record, {} when all is taken, appVersion from the resource")
    func otlpLogs() async throws {
        let app = makeApp(store: store) { $0.readKeys = AccessKeys(["r1"]) }
        let json: HTTPFields = [.contentType: "application/json"]
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/logs", method: .post, headers: json, body: ByteBuffer(string: Self.otlpExport())) { response in
                #expect(response.status == .ok)
                let partial = try #require(bodyJSON(response.body)["partialSuccess"] as? [String: Any])
                #expect(partial["rejectedLogRecords"] as? String == "1")
                #expect((partial["errorMessage"] as? String)?.contains("record 1: resultType: required field is missing") == true)
            }
            // Only records of other kinds: nothing to count, nothing wrong.
            let logsOnly = #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"stringValue":"hello"}}]}]}]}"#
            try await client.execute(uri: "/v1/logs", method: .post, headers: json, body: ByteBuffer(string: logsOnly)) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "{}")
            }
        }
        let now = Int64(Date().timeIntervalSince1970)
        let byVersion = try await store.counts(CountQuery(fromSeconds: now - 3600, toSeconds: now + 600, groupBy: [.appVersion]))
        #expect(byVersion.map(\.key) == [["5.3.0"]] && byVersion.first?.counts.success == 1)
    }

    @Test("a rejected OTLP attribute's key never becomes a metric label: 200 distinct keys, one `other` series")
    func rejectedAttributeKeysAreNotLabels() async throws {
        let app = makeApp(store: store) { $0.ingestKeys = AccessKeys(["k1"]) }
        let nanos = (Int64(Date().timeIntervalSince1970) - 60) * 1_000_000_000
        // Each record names a key of its own, with a value OTLP does not have, a NUL and a bidi override among them.
        let records = (0..<200).map { index in
            #"{"timeUnixNano":"\#(nanos)","eventName":"purchase_sli","attributes":[{"key":"k\#(index)\u0000\u202e\#(String(repeating: "x", count: 300))","value":{"mapValue":1}}]}"#
        }
        let valid =
            #"{"timeUnixNano":"\#(nanos)","eventName":"purchase_sli","attributes":[{"key":"eventID","value":{"stringValue":"ok"}},"#
            + #"{"key":"productID","value":{"stringValue":"coins_100"}},{"key":"actionType","value":{"stringValue":"purchase"}},"#
            + #"{"key":"resultType","value":{"stringValue":"success"}}]}"#
        let body = #"{"resourceLogs":[{"scopeLogs":[{"logRecords":["# + (records + [valid]).joined(separator: ",") + "]}]}]}"
        let headers: HTTPFields = [.contentType: "application/json", HTTPField.Name("X-Ingest-Key")!: "k1"]
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/logs", method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let partial = try #require(bodyJSON(response.body)["partialSuccess"] as? [String: Any])
                #expect(partial["rejectedLogRecords"] as? String == "200")
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let rejected = String(buffer: response.body).split(separator: "\n").filter { $0.hasPrefix("purchase_sli_events_rejected_total{") }
                #expect(rejected == [#"purchase_sli_events_rejected_total{field="other"} 200"#])
            }
        }
    }

    @Test(
        "the decoders' own field names are labelled by name, not as `other`",
        arguments: [
            ("/v1/events", "{oops}", "json"),
            ("/v1/logs", #"{"resourceLogs":3}"#, "resourceLogs"),
            ("/v1/logs", #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"x","eventName":"purchase_sli"}]}]}]}"#, "timeUnixNano"),
            ("/v1/logs", #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"eventName":"purchase_sli","attributes":5}]}]}]}"#, "attributes"),
            ("/v1/accounts/1/events", #"[{"timestamp":1}]"#, "eventType"),
            ("/v1/events", #"{"eventID":"a","timestamp":"2026-11-29T00:00:00Z","actionType":"purchase","resultType":"success"}"#, "productID"),
        ])
    func decoderFieldsKeepTheirLabel(uri: String, body: String, field: String) async throws {
        let app = makeApp(store: store)
        try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: body)) { _ in }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"purchase_sli_events_rejected_total{field="\#(field)"} 1"#), "\(text)")
                #expect(!text.contains(#"purchase_sli_events_rejected_total{field="other"}"#))
            }
        }
    }

    @Test(
        "OTLP refusals in google.rpc.Status: protobuf 415, no key 401, not JSON 400; only retryable statuses ask to retry",
        arguments: [
            ("application/x-protobuf", "{}", nil, 415, 3, "http/json"),
            ("application/json", "{}", "", 401, 16, "missing ingest key"),
            ("application/json", #"{"resourceLogs": ]}"#, "k1", 400, 3, "invalid JSON at byte 18"),
            ("application/json", "[1,2]", "k1", 400, 3, "OTLP JSON document"),
        ] as [(String, String, String?, Int, Int, String)])
    func otlpRefusals(contentType: String, body: String, key: String?, status: Int, code: Int, message: String) async throws {
        let app = makeApp(store: store) { $0.ingestKeys = AccessKeys(["k1"]) }
        var fields: HTTPFields = [.contentType: contentType]
        fields[HTTPField.Name("X-Ingest-Key")!] = key ?? "k1"
        if key == "" { fields[HTTPField.Name("X-Ingest-Key")!] = nil }
        let headers = fields
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/logs", method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
                #expect(response.status.code == status)
                let json = bodyJSON(response.body)
                #expect(json["code"] as? Int == code)
                #expect((json["message"] as? String)?.contains(message) == true, "\(json)")
                #expect(response.headers[.retryAfter] == nil)
            }
        }
    }

    @Test(
        "one record past maximumEventsPerRequest: 413 on every ingestion route, plain or gzip, nothing stored, the next request served",
        arguments: [
            ("/v1/events", #"{"eventID":"e","productID":"p","actionType":"purchase","resultType":"start"}"#, false),
            ("/v1/accounts/1/events", #"{"eventType":"PurchaseSLI","productID":"p","actionType":"purchase","resultType":"start"}"#, false),
            ("/v1/accounts/1/events", #"{"eventType":"Other"}"#, false),
            ("/v1/logs", #"{"eventName":"purchase_sli"}"#, true),
            ("/v1/logs", "{}", true),
        ])
    func recordLimit(uri: String, record: String, isOTLP: Bool) async throws {
        let app = makeApp(store: store) { $0.maximumEventsPerRequest = 10 }
        let records = Array(repeating: record, count: 11).joined(separator: ",")
        let body = isOTLP ? #"{"resourceLogs":[{"scopeLogs":[{"logRecords":["# + records + "]}]}]}" : "[" + records + "]"
        try await app.test(.router) { client in
            for gzip in [false, true] {
                var headers: HTTPFields = [.contentType: "application/json"]
                if gzip { headers[.contentEncoding] = "gzip" }
                let bytes = gzip ? try GzipCompressor.compress(Array(body.utf8)) : Array(body.utf8)
                try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: bytes)) { response in
                    #expect(response.status == .contentTooLarge, "gzip: \(gzip)")
                    #expect(String(buffer: response.body).contains("more than 10 events in one request"))
                }
            }
            try await client.execute(uri: "/healthz", method: .get) { response in #expect(response.status == .ok) }
        }
        await #expect(try countedEvents(store) == 0)
    }

    @Test("a record without eventID and time counts once when retried seconds later; no sender can claim its computed id first")
    func retriedRecordWithoutID() async throws {
        let app = makeApp(store: store)
        let failing = #"[{"eventType":"PurchaseSLI","productID":"coins_100","actionType":"purchase","resultType":"failure"}]"#
        let claim = (0..<3).map {
            #"{"eventID":"purchase-sli:sha256:\#($0)","productID":"coins_100","actionType":"purchase","resultType":"success"}"#
        }.joined(separator: "\n")
        let json: HTTPFields = [.contentType: "application/json"]
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/events", method: .post, headers: [.contentType: "application/x-ndjson"], body: ByteBuffer(string: claim)
            ) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("reserved for the ids purchase-sli computes"))
            }
            for attempt in 0..<3 {
                if attempt == 1 { try await Task.sleep(for: .milliseconds(1_100)) }  // the retry falls in another second
                try await client.execute(uri: "/v1/accounts/1/events", method: .post, headers: json, body: ByteBuffer(string: failing)) { response in
                    #expect(response.status == .ok)
                    let answer = bodyJSON(response.body)
                    #expect(answer["accepted"] as? Int == (attempt == 0 ? 1 : 0) && answer["duplicates"] as? Int == (attempt == 0 ? 0 : 1))
                }
            }
        }
        let now = Int64(Date().timeIntervalSince1970)
        let counts = try await #require(try store.counts(CountQuery(fromSeconds: now - 3600, toSeconds: now + 600)).first?.counts)
        #expect(counts.total == 1 && counts.failure == 1 && counts.success == 0)
    }

    @Test("a store that cannot commit: 503 with Retry-After on the New Relic and OTLP routes too")
    func unavailableStore() async throws {
        let app = makeApp(store: FullDiskStore(base: store))
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/logs", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: Self.otlpExport())
            ) { response in
                #expect(response.status == .serviceUnavailable && response.headers[.retryAfter] == "5")
                #expect(bodyJSON(response.body)["code"] as? Int == 14)
            }
            try await client.execute(
                uri: "/v1/accounts/1/events", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: Self.newRelicPayload())
            ) { response in
                #expect(response.status == .serviceUnavailable && response.headers[.retryAfter] == "5")
                #expect(bodyJSON(response.body)["success"] as? Bool == false)
            }
        }
    }
}

/// What a client dropped before sending, as the SDK reports it with its next batch.
@Suite struct ClientDropsRouteTests {
    @Test("X-Purchase-SLI-Dropped-Events: stored with the batch and counted in /metrics once, not again with a resend")
    func droppedEventsHeader() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let app = makeApp(store: store)
        var fields = ndjson
        fields[HTTPField.Name("X-Purchase-SLI-Dropped-Events")!] = "37"
        let headers = fields
        let batch = body([eventLine("d1"), eventLine("d2")])
        try await app.test(.router) { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/v1/events", method: .post, headers: headers, body: batch) { response in
                    #expect(response.status == .accepted)
                }
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains("purchase_sli_client_dropped_events_total 37"))
            }
        }
        let now = Int64(Date().timeIntervalSince1970) * 1000
        await #expect(try store.clientDroppedEvents(fromMillis: now - 3_600_000, toMillis: now + 60_000) == 37)
    }

    @Test(
        "X-Purchase-SLI-Dropped-Events outside 0…10000 or not a decimal number: 400 naming the header, nothing stored",
        arguments: ["10001", "1000000000", "-1", "+5", "1e3", "0x10", "", "37, 37", "99999999999999999999"])
    func droppedEventsHeaderRefused(value: String) async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        let app = makeApp(store: store)
        var fields = ndjson
        fields[HTTPField.Name("X-Purchase-SLI-Dropped-Events")!] = value
        let headers = fields
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/events", method: .post, headers: headers, body: body([eventLine("d1")])) { response in
                #expect(response.status == .badRequest)
                let error = bodyJSON(response.body)["error"] as? String ?? ""
                #expect(error.contains("X-Purchase-SLI-Dropped-Events: expected a whole number of events from 0 to 10000"), "\(error)")
            }
        }
        await #expect(try countedEvents(store) == 0)
        await #expect(try store.clientDroppedEvents(fromMillis: 0, toMillis: .max / 2) == 0)
    }
}
