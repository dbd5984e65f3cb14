import Foundation
import PurchaseSLICore
import PurchaseSLIGzip
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIClient

@Suite("The SDK's parts: gzip, the event line, the StoreKit mapping, the queue on disk")
struct ClientUnitTests {
    /// What zlib inflates `compressed` to.
    private func inflated(_ compressed: [UInt8]) throws -> [UInt8] {
        var output: [UInt8] = []
        let inflater = try GzipInflater()
        try compressed.withUnsafeBytes { try inflater.inflate($0) { output.append(contentsOf: $0) } }
        try inflater.finish()
        return output
    }

    @Test(
        "gzip that zlib reads back byte for byte, and NDJSON events shrink to under a third",
        arguments: [0, 1, 2, 3, 100, 70_000])
    func gzipRoundTrip(size: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(try inflated(GzipEncoder.compress(random)) == random)
        let repetitive = Array(String(repeating: "abcabcab", count: size / 8 + 1).utf8.prefix(size))
        #expect(try inflated(GzipEncoder.compress(repetitive)) == repetitive)
        let lines = numberedEvents(max(1, size / 100), prefix: "gzip").map(\.jsonLine).joined(separator: "\n")
        let compressed = GzipEncoder.compress(Array(lines.utf8))
        #expect(try inflated(compressed) == Array(lines.utf8))
        if size >= 1000 { #expect(compressed.count * 3 < lines.utf8.count, "\(compressed.count) of \(lines.utf8.count)") }
    }

    @Test("an event line is valid in the event format, every field as set; escapes survive")
    func eventLine() throws {
        var event = SLIEvent(
            eventID: "e-1", timestamp: Date(timeIntervalSince1970: 1_763_112_600.25), productID: "coins_100", actionType: .retry,
            resultType: .alreadyGranted)
        (event.statusCode, event.planID, event.appAccountToken) = (409, "plan \"a\"", "9b1f0c7e-5d43-4a8e-b7a2-0f6d2c1e8a55")
        (event.durationMs, event.price, event.currency, event.errorDescription) = (1840, 4.99, "USD", "tab\there \u{2028}")
        var line = event.jsonLine
        let parsed = try line.withUTF8 { try EventValidator(nowMillis: 1_763_200_000_000).validate(record: UnsafeRawBufferPointer($0)).get() }
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.event.timestampMillis == 1_763_112_600_250 && parsed.event.planID == "plan \"a\"")
        #expect(parsed.event.statusCode == 409 && parsed.event.durationMs == 1840 && parsed.event.price == 4.99)
        #expect(parsed.event.errorDescription == "tab\there \u{2028}" && parsed.event.resultType == .alreadyGranted)
    }

    @Test("the SDK writes every field of the event format under the registry's key, and each reads back as set")
    func everyKeyRoundTrips() throws {
        var event = SLIEvent(
            eventID: "e-2", timestamp: Date(timeIntervalSince1970: 1_763_112_600), productID: "pro", actionType: .purchase, resultType: .failure)
        (event.planID, event.groupID, event.offerID, event.statusCode) = ("pro-monthly", "group-1", "winback", 503)
        (event.appVersion, event.platform, event.osVersion, event.variant) = ("4.12.0", "iOS", "18.1", "storekit2")
        (event.app, event.transactionID, event.appAccountToken) = ("com.example.app", "2000000812345678", "9b1f0c7e-5d43-4a8e-b7a2-0f6d2c1e8a55")
        (event.durationMs, event.resultDescription, event.responseDescription, event.errorDescription) = (1840, "r", "s", "e")
        (event.price, event.currency) = (4.99, "USD")
        var line = event.jsonLine
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Set(EventField.allCases.map(\.name)), "keys the server does not read, or fields the SDK cannot send")
        let parsed = try line.withUTF8 { try EventValidator(nowMillis: 1_763_200_000_000).validate(record: UnsafeRawBufferPointer($0)).get() }
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        let read = parsed.event
        #expect([read.planID, read.groupID, read.offerID] == ["pro-monthly", "group-1", "winback"])
        #expect(
            [read.appVersion, read.platform, read.osVersion, read.variant, read.app] == ["4.12.0", "iOS", "18.1", "storekit2", "com.example.app"])
        #expect([read.transactionID, read.appAccountToken] == ["2000000812345678", "9b1f0c7e-5d43-4a8e-b7a2-0f6d2c1e8a55"])
        #expect([read.resultDescription, read.responseDescription, read.errorDescription] == ["r", "s", "e"])
        #expect(read.statusCode == 503 && read.durationMs == 1840 && read.price == 4.99 && read.currency == "USD")
        #expect(read.actionType.rawValue == "purchase" && read.resultType == .failure && read.timestampMillis == 1_763_112_600_000)
    }

    @Test("the SDK's own copy of the wire format is the service's: result types, the dropped-events header, text and times")
    func wireFormatMatchesTheService() throws {
        #expect(SLIResultType.allCases.map(\.rawValue) == ResultType.allCases.map(\.rawValue))
        #expect(PurchaseSLIClient.DroppedEventsHeader.name == PurchaseSLICore.DroppedEventsHeader.name)
        #expect(PurchaseSLIClient.DroppedEventsHeader.maximumPerRequest == PurchaseSLICore.DroppedEventsHeader.maximumPerRequest)
        // Every escape class of JSON text, scalars JavaScript takes for line breaks, and a grapheme of several scalars.
        let texts = ["plain", "quote \" back \\ slash", "tab\tline\nreturn\r", "\u{0}\u{1f}\u{7f}", "\u{2028}\u{2029}", "e\u{301} 👩‍👩‍👧 ﷽"]
        let times: [Int64] = [0, 1_763_112_600_001, 1_763_112_600_999, 1_763_199_999_500, 951_782_400_123]
        for (text, millis) in zip(texts, times + [1_763_112_600_010]) {
            var event = SLIEvent(
                eventID: "e-\(millis)", timestamp: Date(timeIntervalSince1970: Double(millis) / 1000 + 0.0004), productID: "pro",
                actionType: .purchase, resultType: .failure)
            event.errorDescription = text
            var line = event.jsonLine
            let parsed = try line.withUTF8 { try EventValidator(nowMillis: 1_763_200_000_000).validate(record: UnsafeRawBufferPointer($0)).get() }
            #expect(parsed.event.errorDescription == text && parsed.event.timestampMillis == millis, "\(line)")
        }
    }

    @Test(
        "StoreKit outcomes: Ask to Buy is pending, a 409 alreadyGranted, no answer status 0, cancels are cancels",
        arguments: [
            (SLIOutcome(storeKit: .pending, grant: nil), SLIOutcome.pending),
            (SLIOutcome(storeKit: .userCancelled, grant: nil), .cancel),
            (SLIOutcome(storeKit: .success(verified: true, transactionID: "7"), grant: .status(200)), .success(transactionID: "7")),
            (SLIOutcome(storeKit: .success(verified: true, transactionID: "7"), grant: .status(409)), .alreadyGranted(transactionID: "7")),
            (
                SLIOutcome(storeKit: .success(verified: true, transactionID: "7"), grant: .status(500, description: "db down")),
                .failure(error: "db down", statusCode: 500)
            ),
            (
                SLIOutcome(storeKit: .success(verified: true, transactionID: "7"), grant: .noResponse(error: "timed out")),
                .failure(error: "timed out", statusCode: 0)
            ),
            (
                SLIOutcome(storeKit: .success(verified: false, transactionID: "7"), grant: .status(200)),
                .failure(error: "StoreKit: the transaction's signature did not verify", statusCode: nil)
            ),
            (SLIOutcome(storeKitError: .userCancelled), .cancel),
            (SLIOutcome(storeKitError: .networkError(code: -1009)), .failure(error: "StoreKitError.networkError (URLError -1009)", statusCode: 0)),
            (SLIOutcome(storeKitError: .purchaseError("ineligibleForOffer")), .failure(error: "Product.PurchaseError.ineligibleForOffer")),
            (SLIOutcome(skErrorCode: 2), .cancel),
            (SLIOutcome(skErrorCode: 15), .cancel),
            (SLIOutcome(skErrorCode: 7), .failure(error: "SKError.cloudServiceNetworkConnectionFailed (7)", statusCode: 0)),
            (SLIOutcome(skErrorCode: 4), .failure(error: "SKError.paymentNotAllowed (4)")),
        ])
    func storeKitMapping(outcome: SLIOutcome, expected: SLIOutcome) {
        #expect(outcome == expected)
    }

    @Test("the queue: a torn last line is skipped, a restart keeps what was queued and writes a new segment")
    func queueSurvivesATornWrite() async throws {
        let directory = try TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.file("queue"))
        let first = try EventQueue(directory: url, maximumBytes: 1 << 20, maximumSegmentEvents: 500, maximumSegmentBytes: 1 << 20)
        await first.append(["{\"a\":1}", "{\"a\":2}"])
        await first.rotate()
        let segment = try #require(await first.segments().first)
        // A kill in the middle of a write: half a line at the end.
        let handle = try FileHandle(forWritingTo: segment.url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"a\":".utf8))
        try handle.close()
        let second = try EventQueue(directory: url, maximumBytes: 1 << 20, maximumSegmentEvents: 500, maximumSegmentBytes: 1 << 20)
        #expect(await second.lines(of: segment) == ["{\"a\":1}", "{\"a\":2}"])
        await second.append(["{\"a\":3}"])
        await second.rotate()
        let segments = await second.segments()
        #expect(segments.count == 2 && segments[1].sequence > segment.sequence)
        #expect(await second.lines(of: segments[1]) == ["{\"a\":3}"])
    }

    @Test("a key the service refuses (401) stops sending and says why; the events stay queued")
    func unauthorizedStops() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("serve.json", #"{"ingestKeys": ["right"]}"#)
        let server = try await ServeChild(database: directory.file("db.sqlite"), arguments: ["--config", config])
        let sli = try makeClient(endpoint: server.endpoint, directory: URL(fileURLWithPath: directory.file("queue"))) { $0.ingestKey = "wrong" }
        await sli.record(numberedEvents(10, prefix: "key"))
        await sli.flush()
        let stopped = try #require(await sli.sendingStopped)
        #expect(stopped.status == 401 && stopped.message.contains("unknown ingest key"))
        #expect(await sli.waitingEvents == 10)
        await server.stop(SIGTERM)
    }

    @Test(
        "Retry-After: seconds or an HTTP date, obeyed up to a day (Int.max seconds once reached a sleep that cannot take it)",
        arguments: [
            ("120", Duration.seconds(120)),
            ("-5", Duration.seconds(0)),
            ("9223372036854775807", Duration.seconds(86_400)),
            ("Fri, 31 Dec 9999 23:59:59 GMT", Duration.seconds(86_400)),
            ("Thu, 01 Jan 1970 00:00:00 GMT", Duration.seconds(0)),
        ])
    func retryAfter(_ header: String, _ expected: Duration) {
        #expect(Uploader.retryAfter(header) == expected)
    }
}
