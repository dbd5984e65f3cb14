import Foundation
import GRDB
import PurchaseSLICore
import PurchaseSLIGzip
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

@Suite struct IngestCommandTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func totals(_ db: String) async throws -> OutcomeCounts {
        let rows = try await SQLiteBucketStore(path: db).counts(
            CountQuery(
                fromSeconds: RFC3339.parseMillis("2026-01-01T00:00:00Z")! / 1000, toSeconds: RFC3339.parseMillis("2027-01-01T00:00:00Z")! / 1000))
        return rows.first?.counts ?? OutcomeCounts()
    }

    /// Each app's overflow is named beside its dimension's total, most events first, five at most: the apps
    /// whose own budget was full, never one whose plans fit in its own.
    @Test func theSummaryNamesTheAppsWhoseBudgetWasFull() async throws {
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = 6
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"), configuration: configuration)
        func purchases(_ app: String, plans: Int) -> [PurchaseEvent] {
            (0..<plans).map { plan in
                PurchaseEvent(
                    eventID: "\(app)-\(plan)", timestampMillis: RFC3339.parseMillis("2026-11-14T09:30:00Z")!, productID: "coins_100",
                    planID: "\(app)-plan-\(plan)", actionType: .purchase, resultType: .success, app: app)
            }
        }
        // Seven apps of seven plans (six a day each); the seventh app is past the day's six apps and counts
        // as __other__, with a budget of its own; an eighth with three plans fits in that budget.
        let events = "abcdefg".flatMap { purchases("com.example.\($0)", plans: 7) } + purchases("com.example.small", plans: 3)
        let outcome = try await store.record(events, receivedAtMillis: RFC3339.parseMillis("2026-11-14T10:00:00Z")!)
        let lines = IngestSummary(outcome: outcome, rejected: 0, warnings: 0, ignored: 0, seconds: 1).text.split(separator: "\n")
        #expect(lines.contains("overflow    app: 10 events counted as __other__ (cardinality cap: apps per day)"))
        #expect(
            lines.contains(
                "overflow    planID: 10 events counted as __other__ (cardinality cap): __other__ 4, com.example.a 1, com.example.b 1, "
                    + "com.example.c 1, com.example.d 1 and 2 more apps"))
    }

    /// The policy's `apps:` give an app caps of its own; a policy that gives a wrong one stops the run
    /// before anything is counted.
    @Test func thePolicyGivesAnAppCapsOfItsOwn() async throws {
        let db = directory.file("db.sqlite")
        let policy = try directory.write("slos.yaml", "apps:\n  com.example.big: {cardinalityCap: 4}\n")
        let lines = ["com.example.big", "com.example.small"].flatMap { app in
            (0..<4).map { eventLine("\(app)-\($0)", extra: #","planID":"plan-\#($0)","app":"\#(app)""#) }
        }
        let file = try directory.write("apps.ndjson", lines.joined(separator: "\n"))
        let bad = try directory.write("bad.yaml", "apps:\n  com.example.big: {cardinalityCap: 0}\n")
        #expect(try await run(["ingest", "--db", db, "--cardinality-cap", "2", "--policy", bad, "--quiet", file]) == 1)
        await #expect(try totals(db).total == 0)
        #expect(try await run(["ingest", "--db", db, "--cardinality-cap", "2", "--policy", policy, "--quiet", file]) == 0)
        func plans(_ db: String) async throws -> [String] {
            try await SQLiteBucketStore(path: db).counts(
                CountQuery(
                    fromSeconds: RFC3339.parseMillis("2026-11-14T00:00:00Z")! / 1000,
                    toSeconds: RFC3339.parseMillis("2026-11-15T00:00:00Z")! / 1000, groupBy: [.app, .planID])
            ).map { "\($0.key[0] ?? "-") \($0.key[1] ?? "-") \($0.counts.total)" }
        }
        let ownCaps = [
            "com.example.big plan-0 1", "com.example.big plan-1 1", "com.example.big plan-2 1", "com.example.big plan-3 1",
            "com.example.small __other__ 2", "com.example.small plan-0 1", "com.example.small plan-1 1",
        ]
        #expect(try await plans(db) == ownCaps)
        // Without --policy, the slos.yaml of --dashboards (as `demo --dashboards` passes it), not ./dashboards'.
        let fromDirectory = directory.file("directory.sqlite")
        #expect(try await run(["ingest", "--db", fromDirectory, "--cardinality-cap", "2", "--dashboards", directory.path, "--quiet", file]) == 0)
        #expect(try await plans(fromDirectory) == ownCaps)
        let empty = directory.file("no-policy")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let withoutPolicy = directory.file("without.sqlite")
        #expect(try await run(["ingest", "--db", withoutPolicy, "--cardinality-cap", "2", "--dashboards", empty, "--quiet", file]) == 0)
        #expect(try await plans(withoutPolicy).first == "com.example.big __other__ 2", "the store's caps alone")
    }

    @Test func exitsZeroWhenEveryRecordIsAccepted() async throws {
        let db = directory.file("db.sqlite")
        let file = try directory.write("good.ndjson", [eventLine("a"), eventLine("b", result: "failure")].joined(separator: "\n"))
        #expect(try await run(["ingest", "--db", db, file]) == 0)
        await #expect(try totals(db).valid == 2)
    }

    @Test func acceptsGoodLinesBesideBadOnesAndReportsEachBadLine() async throws {
        let db = directory.file("db.sqlite")
        let rejects = directory.file("rejects.ndjson")
        let lines = [
            eventLine("a"),
            #"{"eventID":"b","timestamp":"yesterday","productID":"p","actionType":"purchase","resultType":"success"}"#,
            "not json",
            eventLine("c", result: "failure"),
            eventLine("d", result: "maybe"),
        ]
        let file = try directory.write("mixed.ndjson", lines.joined(separator: "\n") + "\n")
        #expect(try await run(["ingest", "--db", db, "--rejects", rejects, "--quiet", file]) == 2)
        await #expect(try totals(db).valid == 2)
        let reported = try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n")
        #expect(reported.count == 3)
        #expect(reported[0].contains(#""line":2"#) && reported[0].contains(#""field":"timestamp""#))
        #expect(reported[1].contains(#""line":3"#) && reported[1].contains(#""field":"json""#))
        #expect(reported[2].contains(#""line":5"#) && reported[2].contains(#""field":"resultType""#))
    }

    /// An invalid optional field is left out and listed (`"kept": true`); the event counts and, with no
    /// record rejected, the exit code is 0. statusCode 0 (no response) is a valid failure.
    @Test func anInvalidOptionalFieldIsLeftOutAndListedAndTheEventCounts() async throws {
        let db = directory.file("db.sqlite")
        let rejects = directory.file("rejects.ndjson")
        let lines = [
            eventLine("a", result: "failure", extra: #","statusCode":0"#),
            eventLine("b", extra: #","planID":7,"appVersion":"4.12.0""#),
            eventLine("c", result: "failure", extra: #","errorDescription":{"code":-1001}"#),
        ]
        let file = try directory.write("lenient.ndjson", lines.joined(separator: "\n"))
        #expect(try await run(["ingest", "--db", db, "--rejects", rejects, "--quiet", file]) == 0)
        let counted = try await totals(db)
        #expect(counted.valid == 3 && counted.failure == 2)
        let reported = try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n")
        #expect(reported.count == 2)
        #expect(reported[0].contains(#""line":2"#) && reported[0].contains(#""field":"planID""#) && reported[0].hasSuffix(#""kept":true}"#))
        #expect(reported[1].contains(#""line":3"#) && reported[1].contains(#""field":"errorDescription""#))
    }

    /// `ingest` into the database of a running `serve` takes turns with its writer: while another
    /// connection holds the write lock, the ingest waits (busy timeout) instead of failing "database is
    /// locked", then completes.
    @Test func anIngestIntoADatabaseBeingWrittenWaitsItsTurn() async throws {
        let db = directory.file("db.sqlite")
        _ = try SQLiteBucketStore(path: db)
        let file = try directory.write("three.ndjson", [eventLine("a"), eventLine("b"), eventLine("c")].joined(separator: "\n"))
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        async let holder: Void = onDedicatedThread {
            try DatabaseQueue(path: db).inTransaction(.immediate) { _ in
                locked.signal()
                _ = release.wait(timeout: .now() + 20)
                return .commit
            }
        }
        try await onDedicatedThread { locked.wait() }
        async let ingest = run(["ingest", "--db", db, "--quiet", file])
        // Let the ingest reach the lock before it is released (not a timing assertion: it passes either way
        // with the busy timeout, and fails with "database is locked" without it whenever the ingest is first).
        try await Task.sleep(for: .milliseconds(800))
        release.signal()
        #expect(try await ingest == 0)
        try await holder
        await #expect(try totals(db).success == 3)
    }

    @Test func readsGzipAndJSONArraysAndCountsDuplicatesAcrossFilesOnce() async throws {
        let db = directory.file("db.sqlite")
        let ndjson = [eventLine("a"), eventLine("b")].joined(separator: "\n")
        let gzip = try directory.write("events.ndjson.gz", GzipCompressor.compress(Array(ndjson.utf8)))
        let array = try directory.write("events.json", "[\n" + [eventLine("b"), eventLine("c")].joined(separator: ",\n") + "\n]")
        #expect(try await run(["ingest", "--db", db, gzip, array]) == 0)
        await #expect(try totals(db).success == 3)
        #expect(try await run(["ingest", "--db", db, gzip, array]) == 0)
        await #expect(try totals(db).success == 3)
    }

    @Test func stopsWithExitOneOnATruncatedGzipFile() async throws {
        let db = directory.file("db.sqlite")
        let lines = (0..<2000).map { eventLine("e\($0)") }.joined(separator: "\n")
        let compressed = try GzipCompressor.compress(Array(lines.utf8))
        let truncated = try directory.write("cut.ndjson.gz", Array(compressed.dropLast(10)))
        #expect(try await run(["ingest", "--db", db, truncated]) == 1)
        // What was decoded before the cut is counted, and a re-run with the whole file completes the count.
        let whole = try directory.write("whole.ndjson.gz", compressed)
        #expect(try await run(["ingest", "--db", db, whole]) == 0)
        await #expect(try totals(db).success == 2000)
    }

    @Test func stopsWithExitOneOnAMissingFileOrAForeignDatabase() async throws {
        #expect(try await run(["ingest", "--db", directory.file("db.sqlite"), directory.file("missing.ndjson")]) == 1)
        let foreign = try directory.write("foreign.sqlite", String(repeating: "x", count: 5000))
        let file = try directory.write("good.ndjson", eventLine("a"))
        #expect(try await run(["ingest", "--db", foreign, file]) == 1)
    }

    @Test func rejectsTimestampsInTheFutureButAcceptsOldOnes() async throws {
        let db = directory.file("db.sqlite")
        let rejects = directory.file("rejects.ndjson")
        let future = RFC3339.format(millis: Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000)
        let file = try directory.write(
            "times.ndjson", [eventLine("old", at: "2019-03-01T00:00:00Z"), eventLine("future", at: future)].joined(separator: "\n"))
        #expect(try await run(["ingest", "--db", db, "--rejects", rejects, "--quiet", file]) == 2)
        #expect(try String(contentsOfFile: rejects, encoding: .utf8).contains("timestamp in the future"))
    }

    @Test func reRunningAnInterruptedIngestGivesTheSameCounts() async throws {
        let db = directory.file("db.sqlite")
        let lines = (0..<40_000).map {
            eventLine("e\($0)", at: RFC3339.format(seconds: 1_794_648_600 + Int64($0)), result: $0 % 10 == 0 ? "failure" : "success")
        }
        let file = try directory.write("big.ndjson", lines.joined(separator: "\n"))
        // Simulate a kill after the first committed batch: commit the first 16,384 events, then run the whole file.
        let store = try SQLiteBucketStore(path: db)
        let validator = EventValidator(nowMillis: Int64.max / 2)
        let firstBatch = lines.prefix(16_384).map { line in
            var bytes = Array(line.utf8)
            return try! bytes.withUnsafeMutableBytes { validator.validate(record: UnsafeRawBufferPointer($0)) }.get().event
        }
        _ = try await store.record(firstBatch, receivedAtMillis: 0)
        #expect(try await run(["ingest", "--db", db, file]) == 0)
        let counts = try await totals(db)
        #expect(counts.success == 36_000 && counts.failure == 4000)
    }
}

/// `ingest --format`: the formats existing instrumentation writes, from the committed samples.
@Suite struct IngestFormatTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// Counts of the samples' week (November 2025) by result.
    private func counts(_ db: String) async throws -> OutcomeCounts {
        try await SQLiteBucketStore(path: db).counts(
            CountQuery(
                fromSeconds: RFC3339.parseMillis("2025-11-01T00:00:00Z")! / 1000, toSeconds: RFC3339.parseMillis("2025-12-01T00:00:00Z")! / 1000)
        )
        .first?.counts ?? OutcomeCounts()
    }

    @Test(
        "the samples of each format: events counted, the reject reported at its line, other kinds ignored, a rerun all duplicates",
        arguments: [("newrelic", "newrelic-events.json", 9, "productID"), ("otlp", "otlp-logs.json", 1, "resultType")])
    func samples(format: String, file: String, rejectedLine: Int, rejectedField: String) async throws {
        let db = directory.file("db.sqlite")
        let rejects = directory.file("rejects.ndjson")
        let path = packageRoot + "/sample-logs/formats/\(file)"
        #expect(try await run(["ingest", "--db", db, "--format", format, "--rejects", rejects, "--quiet", path]) == 2)
        let counted = try await counts(db)
        #expect(counted.total == 4)
        let reported = try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n")
        #expect(reported.count == 2)  // the reject and the optional field left out
        #expect(reported.contains { $0.contains(#""kept":true"#) && $0.contains(#""field":"statusCode""#) })
        #expect(
            reported.contains { $0.contains(#""line":\#(rejectedLine),"#) && $0.contains(#""field":"\#(rejectedField)""#) && !$0.contains("kept") })
        // Again: every event is a duplicate, the one whose eventID is its content hash included.
        #expect(try await run(["ingest", "--db", db, "--format", format, "--quiet", path]) == 2)
        await #expect(try counts(db) == counted)
    }

    @Test("a configured New Relic event type: the sample's PurchaseSLI events are then another kind, ignored")
    func otherEventType() async throws {
        let db = directory.file("db.sqlite")
        let path = packageRoot + "/sample-logs/formats/newrelic-events.json"
        #expect(try await run(["ingest", "--db", db, "--format", "newrelic", "--newrelic-event-type", "Transaction", "--quiet", path]) == 2)
        await #expect(try counts(db).total == 0)
    }
}
