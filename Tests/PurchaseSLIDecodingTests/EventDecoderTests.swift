import Foundation
import PurchaseSLICore
import PurchaseSLIDecoding
import PurchaseSLIGzip
import PurchaseSLITestSupport
import Testing

/// 2025-11-15T00:00:00Z: after every fixture event, within the lateness the validator allows by default.
let fixtureNow: Int64 = 1_763_164_800_000

/// The sample payload of a format, as committed under sample-logs/formats.
func sampleFormat(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/sample-logs/formats/\(name)")))
}

/// Everything a decoder handed out, fed `input` in chunks of `chunkSize` bytes.
struct Decoded: Equatable {
    var events: [PurchaseEvent] = []
    var rejected: [RecordReject] = []
    var warnings: [RecordReject] = []
    var ignored = 0
    var records = 0

    init(
        _ input: [UInt8], format: EventFormat, chunkSize: Int = .max, compression: EventDecoder.Compression = .detect,
        limits: EventDecoder.Limits = EventDecoder.Limits(maximumRecordBytes: 1 << 20), now: Int64 = fixtureNow
    ) throws {
        var decoder = EventDecoder(format: format, validator: EventValidator(nowMillis: now), limits: limits, compression: compression)
        var decoded = Decoded()
        let take: (DecodedRecord) -> Void = { record in
            switch record {
            case let .event(event, warnings):
                decoded.events.append(event)
                decoded.warnings += warnings
            case .rejected(let reject): decoded.rejected.append(reject)
            case .ignored: decoded.ignored += 1
            }
        }
        var offset = 0
        while offset < input.count {
            let end = offset + min(chunkSize, input.count - offset)
            try input[offset..<end].withUnsafeBytes { try decoder.feed($0, emit: take) }
            offset = end
        }
        try decoder.finish(emit: take)
        decoded.records = decoder.recordsRead
        self = decoded
    }

    private init() {}
}

@Suite("One decoding pipeline: every format, in chunks of any size, plain or gzip")
struct EventDecoderTests {
    @Test("New Relic: the purchase SLI type mapped by attribute name, other types ignored, problems named", arguments: [1, 7, 4096, Int.max])
    func newRelicPayload(chunkSize: Int) throws {
        let decoded = try Decoded(try sampleFormat("newrelic-events.json"), format: .newRelic(eventType: "PurchaseSLI"), chunkSize: chunkSize)
        #expect(decoded.records == 6)
        #expect(decoded.ignored == 1)
        #expect(decoded.events.map(\.eventID).prefix(2) == ["nr-1", "nr-2"])
        // Epoch seconds and milliseconds, and RFC 3339 text.
        #expect(decoded.events.map(\.timestampMillis) == [1_763_112_600_000, 1_763_112_601_250, 1_763_112_602_000, 1_763_112_604_000])
        #expect(decoded.events[1].transactionID == "2000000123" && decoded.events[1].statusCode == 200)
        let retry = decoded.events[2]
        #expect(retry.resultType == .alreadyGranted && retry.statusCode == 409 && retry.planID == "monthly" && retry.groupID == "premium")
        #expect(retry.eventID.hasPrefix("purchase-sli:sha256:") && retry.eventID.count == 20 + 32)
        #expect(decoded.rejected == [RecordReject(index: 4, line: 9, field: "productID", reason: "required field is missing")])
        #expect(decoded.warnings.map(\.field) == ["statusCode"] && decoded.warnings[0].index == 5 && decoded.warnings[0].kept)
    }

    @Test("New Relic: a record without eventType is rejected; a configured type is the one counted")
    func newRelicEventType() throws {
        let body = Array(
            #"[{"productID":"a","actionType":"purchase","resultType":"start","timestamp":1763112600},{"eventType":"Shop","eventID":"s1","productID":"a","actionType":"purchase","resultType":"start","timestamp":1763112600}]"#
                .utf8)
        let decoded = try Decoded(body, format: .newRelic(eventType: "Shop"))
        #expect(decoded.rejected.map(\.field) == ["eventType"])
        #expect(decoded.events.map(\.eventID) == ["s1"])
    }

    @Test("New Relic: a record without time takes the receiving clock's; a timestamp number that is no epoch time is rejected")
    func newRelicTimes() throws {
        let body = Array(
            #"[{"eventType":"PurchaseSLI","eventID":"a","productID":"p","actionType":"purchase","resultType":"start"},{"eventType":"PurchaseSLI","eventID":"b","productID":"p","actionType":"purchase","resultType":"start","timestamp":-5}]"#
                .utf8)
        let decoded = try Decoded(body, format: .newRelic(eventType: "PurchaseSLI"))
        #expect(decoded.events.map(\.timestampMillis) == [fixtureNow])
        #expect(decoded.rejected.map(\.field) == ["timestamp"] && decoded.rejected[0].reason.contains("epoch seconds or milliseconds"))
    }

    @Test("the content hash of a record without eventID: the same whatever the key order and spacing, another for another record")
    func contentHash() throws {
        let records = [
            #"[{"eventType":"PurchaseSLI","productID":"p","actionType":"purchase","resultType":"start","timestamp":1763112600,"session":"x"}]"#,
            #"[ { "session" : "x", "timestamp" : 1763112600, "resultType" : "start", "actionType" : "purchase", "productID" : "p", "eventType" : "PurchaseSLI" } ]"#,
            #"[{"eventType":"PurchaseSLI","productID":"p","actionType":"purchase","resultType":"start","timestamp":1763112600,"session":"y"}]"#,
        ]
        let ids = try records.map { try Decoded(Array($0.utf8), format: .newRelic(eventType: "PurchaseSLI")).events.map(\.eventID) }
        #expect(ids[0] == ids[1])
        #expect(ids[0] != ids[2])
    }

    @Test(
        "no sender may claim a computed eventID: an id beginning with purchase-sli: is rejected in every format, the computed one taken",
        arguments: [
            (
                EventFormat.events,
                #"{"eventID":"%@","timestamp":"2025-11-14T09:30:00Z","productID":"p","actionType":"purchase","resultType":"start"}"#
            ),
            (
                .newRelic(eventType: "PurchaseSLI"),
                #"[{"eventType":"PurchaseSLI","eventID":"%@","timestamp":1763112600,"productID":"p","actionType":"purchase","resultType":"start"}]"#
            ),
            (
                .newRelic(eventType: "PurchaseSLI"),
                #"[{"eventType":"PurchaseSLI","uuid":"%@","timestamp":1763112600,"productID":"p","actionType":"purchase","resultType":"start"}]"#
            ),
            (
                .otlpLogs(eventName: "purchase_sli"),
                #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"eventName":"purchase_sli","timeUnixNano":"1763112600000000000","attributes":[{"key":"eventID","value":{"stringValue":"%@"}},{"key":"productID","value":{"stringValue":"p"}},{"key":"actionType","value":{"stringValue":"purchase"}},{"key":"resultType","value":{"stringValue":"start"}}]}]}]}]}"#
            ),
        ])
    func computedIDsAreReserved(format: EventFormat, template: String) throws {
        let claimed = try Decoded(
            Array(template.replacingOccurrences(of: "%@", with: "purchase-sli:sha256:0123456789abcdef0123456789abcdef").utf8), format: format)
        #expect(claimed.events.isEmpty)
        #expect(claimed.rejected.map(\.field) == ["eventID"])
        #expect(claimed.rejected.first?.reason.contains("reserved for the ids purchase-sli computes") == true)
        // The same prefix in another case, or inside an id, is an ordinary id of the sender's.
        let own = try Decoded(Array(template.replacingOccurrences(of: "%@", with: "Purchase-SLI:sha256:1").utf8), format: format)
        #expect(own.events.map(\.eventID) == ["Purchase-SLI:sha256:1"])
    }

    @Test(
        "OTLP logs: purchase SLI records by event name or event.name, resource attributes as appVersion, platform, osVersion",
        arguments: [1, 13, 4096, Int.max])
    func otlpDocument(chunkSize: Int) throws {
        let decoded = try Decoded(try sampleFormat("otlp-logs.json"), format: .otlpLogs(eventName: "purchase_sli"), chunkSize: chunkSize)
        #expect(decoded.records == 6)
        #expect(decoded.ignored == 1)
        #expect(decoded.events.count == 4)
        let first = decoded.events[0]
        #expect(first.eventID == "otlp-1" && first.timestampMillis == 1_763_112_600_250)
        #expect(first.appVersion == "5.3.0" && first.platform == "iOS" && first.osVersion == "18.1")
        #expect(first.statusCode == 200 && first.durationMs == 1840 && first.price == 4.99 && first.currency == "USD")
        // A record's own attribute wins over the resource's.
        #expect(decoded.events[1].eventID == "otlp-2" && decoded.events[1].appVersion == "5.3.1" && decoded.events[1].statusCode == 409)
        // observedTimeUnixNano when timeUnixNano is absent; a content hash when no eventID.
        #expect(decoded.events[2].timestampMillis == 1_763_112_603_000 && decoded.events[2].eventID.hasPrefix("purchase-sli:sha256:"))
        #expect(decoded.events[3].eventID == "otlp-5" && decoded.events[3].statusCode == nil)
        #expect(decoded.warnings.map { [String($0.index), $0.field] } == [["4", "statusCode"]])
        #expect(decoded.rejected.map { [String($0.index), $0.field] } == [["5", "resultType"]])
    }

    @Test("OTLP: JSON Lines of requests, as the Collector's file exporter writes, with broken lines reported and the rest read")
    func otlpJSONLines() throws {
        let document = try JSONSerialization.jsonObject(with: Data(try sampleFormat("otlp-logs.json")))
        let line = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        let input = [
            line, "not json",
            #"{"resourceLogs": [ {"scopeLogs": [{"logRecords": [{"eventName": "purchase_sli", "attributes": [{"key": "productID", "value": {"kvlist": 1}}]}]}]}]}"#,
            line, #"{"resourceLogs": ["#,
        ].joined(separator: "\n")
        let decoded = try Decoded(Array(input.utf8), format: .otlpLogs(eventName: "purchase_sli"), chunkSize: 100)
        // The same records twice (the events are the same; duplicates are the store's to skip).
        #expect(decoded.events.count == 8)
        #expect(decoded.rejected.map { "\($0.line ?? 0) \($0.field)" } == ["1 resultType", "2 json", "3 productID", "4 resultType", "5 json"])
        #expect(decoded.rejected[2].index == 7 && decoded.rejected[2].reason.contains("AnyValue"))
    }

    @Test(
        "gzip is read the same as plain, detected by its magic number",
        arguments: [EventFormat.events, .newRelic(eventType: "PurchaseSLI"), .otlpLogs(eventName: "purchase_sli")])
    func gzip(format: EventFormat) throws {
        let plain: [UInt8] =
            switch format {
            case .events:
                Array(#"{"eventID":"e1","timestamp":"2025-11-14T09:30:00Z","productID":"p","actionType":"purchase","resultType":"start"}"#.utf8)
            case .newRelic: try sampleFormat("newrelic-events.json")
            case .otlpLogs: try sampleFormat("otlp-logs.json")
            }
        let compressed = try GzipCompressor.compress(plain)
        let fromPlain = try Decoded(plain, format: format)
        #expect(!fromPlain.events.isEmpty)
        #expect(try Decoded(compressed, format: format, chunkSize: 5) == fromPlain)
        #expect(try Decoded(compressed, format: format, compression: .gzip) == fromPlain)
    }

    @Test("limits: records past the limit, gzip past its decompressed size, and a truncated stream are errors")
    func limits() throws {
        let lines = (0..<5).map {
            #"{"eventID":"e\#($0)","timestamp":"2025-11-14T09:30:00Z","productID":"p","actionType":"purchase","resultType":"start"}"#
        }
        let body = Array(lines.joined(separator: "\n").utf8)
        #expect(throws: DecodingFailure.tooManyRecords(limit: 4)) {
            try Decoded(body, format: .events, limits: EventDecoder.Limits(maximumRecordBytes: 1024, maximumRecords: 4))
        }
        let compressed = try GzipCompressor.compress(body)
        #expect(throws: DecodingFailure.decompressedTooLarge(limit: 100)) {
            try Decoded(compressed, format: .events, limits: EventDecoder.Limits(maximumRecordBytes: 1024, maximumDecompressedBytes: 100))
        }
        #expect(throws: DecodingFailure.self) { try Decoded(Array(compressed.dropLast(9)), format: .events) }
    }

    @Test(
        "limits: one record past the limit is an error in every format, plain or gzip, whether the records count or are ignored",
        arguments: [
            (EventFormat.events, #"{"eventID":"e","timestamp":"2025-11-14T09:30:00Z","productID":"p","actionType":"purchase","resultType":"start"}"#),
            (.newRelic(eventType: "PurchaseSLI"), #"{"eventType":"PurchaseSLI"}"#),
            (.newRelic(eventType: "PurchaseSLI"), #"{"eventType":"Other"}"#),
            (.otlpLogs(eventName: "purchase_sli"), #"{"eventName":"purchase_sli"}"#),
            (.otlpLogs(eventName: "purchase_sli"), "{}"),
        ])
    func recordLimitInEveryFormat(format: EventFormat, record: String) throws {
        let records = Array(repeating: record, count: 5).joined(separator: ",")
        let text =
            format == .otlpLogs(eventName: "purchase_sli")
            ? #"{"resourceLogs":[{"scopeLogs":[{"logRecords":["# + records + "]}]}]}" : "[" + records + "]"
        let limits = EventDecoder.Limits(maximumRecordBytes: 1 << 16, maximumRecords: 4)
        for body in [Array(text.utf8), try GzipCompressor.compress(Array(text.utf8))] {
            for chunkSize in [3, Int.max] {
                #expect(throws: DecodingFailure.tooManyRecords(limit: 4)) {
                    try Decoded(body, format: format, chunkSize: chunkSize, limits: limits)
                }
            }
            let whole = EventDecoder.Limits(maximumRecordBytes: 1 << 16, maximumRecords: 5)
            #expect(try Decoded(body, format: format, limits: whole).records == 5)
        }
    }

    @Test("the event format: NDJSON and arrays with rejects at their line, one object over several lines when allowed")
    func eventFormat() throws {
        let input = Array(
            "\n{\"eventID\":\"a\",\"timestamp\":\"2025-11-14T09:30:00Z\",\"productID\":\"p\",\"actionType\":\"purchase\",\"resultType\":\"start\"}\n{\"eventID\":\"b\"}\n"
                .utf8)
        let decoded = try Decoded(input, format: .events, chunkSize: 3)
        #expect(decoded.events.map(\.eventID) == ["a"])
        #expect(decoded.rejected == [RecordReject(index: 1, line: 3, field: "timestamp", reason: "required field is missing")])
        let object = Array(
            "{\n \"eventID\": \"a\",\n \"timestamp\": \"2025-11-14T09:30:00Z\",\n \"productID\": \"p\",\n \"actionType\": \"purchase\",\n \"resultType\": \"start\"\n}"
                .utf8)
        var decoder = EventDecoder(
            format: .events, validator: EventValidator(nowMillis: fixtureNow), limits: EventDecoder.Limits(maximumRecordBytes: 1024),
            compression: .none, singleObject: true)
        var events: [String] = []
        try object.withUnsafeBytes { bytes in
            try decoder.feed(bytes) { if case .event(let event, _) = $0 { events.append(event.eventID) } }
        }
        try decoder.finish { if case .event(let event, _) = $0 { events.append(event.eventID) } }
        #expect(events == ["a"])
    }
}
