import Foundation
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIClient

/// The SDK against a real `serve`: every event counted exactly once whatever fails on the way.
@Suite(.serialized) struct ClientDeliveryTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test("an attempt: start and one terminal event; a second finish is ignored and logged")
    func attemptRecordsOnce() async throws {
        let server = try await ServeChild(database: directory.file("db.sqlite"))
        let logged = Locked<[String]>([])
        let sli = try makeClient(endpoint: server.endpoint, directory: URL(fileURLWithPath: directory.file("queue"))) {
            $0.appVersion = "5.3.0"
            $0.app = "com.example.coins"
            $0.log = { line in logged.withLock { $0.append(line) } }
        }
        let attempt = sli.begin(.purchase, productID: "coins_100", planID: "coins-small", appAccountToken: UUID())
        await attempt.finish(.alreadyGranted(transactionID: "2000000123"))
        await attempt.finish(.failure(error: "late", statusCode: 500))
        #expect(try await drain(sli))
        let rows = try await server.counts(from: anHourAgo, groupBy: [.appVersion, .planID, .app])
        #expect(rows.map(\.key) == [["5.3.0", "coins-small", "com.example.coins"]])
        #expect(rows.first?.counts.start == 1 && rows.first?.counts.alreadyGranted == 1 && rows.first?.counts.total == 2)
        #expect(logged.withLock { $0.contains { $0.contains("second finish") } })
        await server.stop(SIGTERM)
    }

    @Test("the server killed mid-send and started again: every event counted exactly once")
    func serverKilledMidSend() async throws {
        let server = try await ServeChild(database: directory.file("db.sqlite"))
        let sli = try makeClient(endpoint: server.endpoint, directory: URL(fileURLWithPath: directory.file("queue")))
        let events = numberedEvents(6000, prefix: "kill")
        for start in stride(from: 0, to: events.count, by: 500) { await sli.record(Array(events[start..<(start + 500)])) }
        let sending = Task { await sli.flush() }
        while await sli.statistics.delivered == 0 { try await Task.sleep(for: .milliseconds(1)) }
        await server.stop(SIGKILL)
        await sending.value
        #expect(await sli.waitingEvents > 0, "the kill came after everything was sent: the test proves nothing")
        try await server.start()
        #expect(try await drain(sli))
        await #expect(try server.counts(from: anHourAgo).first?.counts.success == 6000)
        await server.stop(SIGTERM)
    }

    @Test("the client killed between finish and send: a new process sends what the first queued")
    func clientKilledBeforeSending() async throws {
        let server = try await ServeChild(database: directory.file("db.sqlite"))
        let endpoint = server.endpoint
        let queue = URL(fileURLWithPath: directory.file("queue"))
        // A process of its own (an exit test: this test binary started again) records 300 purchases as an
        // app would, every finish returned, and is killed before it sends anything.
        await #expect(processExitsWith: .signal(SIGKILL)) { [endpoint = endpoint as URL, queue = queue as URL] in
            let sli = try makeClient(endpoint: endpoint, directory: queue) { $0.sendInterval = .seconds(86_400) }
            for index in 0..<300 {
                await sli.begin(.purchase, productID: "probe_first").finish(.success(transactionID: "first-\(index)"))
            }
            kill(getpid(), SIGKILL)
        }
        await #expect(try server.counts(from: anHourAgo).isEmpty)
        // A client in this process, on the queue the killed one left, sends it all.
        let sender = try makeClient(endpoint: endpoint, directory: queue)
        #expect(try await drain(sender))
        #expect(await sender.statistics.delivered == 600)
        let counts = try await #require(server.counts(from: anHourAgo).first?.counts)
        #expect(counts.start == 300 && counts.success == 300 && counts.total == 600)
        await server.stop(SIGTERM)
    }

    @Test("a 429 storm: the client waits the Retry-After it is given instead of hammering, and loses nothing")
    func rateLimitStorm() async throws {
        let config = try directory.write("serve.json", #"{"requestsPerSecondPerKey": 2, "requestBurstPerKey": 1}"#)
        let server = try await ServeChild(database: directory.file("db.sqlite"), arguments: ["--config", config])
        // Retries a millisecond apart if it ignored Retry-After (1 s here).
        let sli = try makeClient(endpoint: server.endpoint, directory: URL(fileURLWithPath: directory.file("queue"))) {
            $0.maximumBatchEvents = 100
            $0.initialRetryDelay = .milliseconds(1)
            $0.maximumRetryDelay = .milliseconds(1)
        }
        let batches = 8
        for batch in 0..<batches { await sli.record(Array(numberedEvents(800, prefix: "storm")[(batch * 100)..<(batch * 100 + 100)])) }
        #expect(try await drain(sli))
        await #expect(try server.counts(from: anHourAgo).first?.counts.success == 800)
        let statistics = await sli.statistics
        let refusals = try await server.metrics().split(separator: "\n")
            .filter { $0.hasPrefix("purchase_sli_http_request_duration_seconds_count") && $0.contains(#"status="429""#) }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
        #expect(statistics.retried > 0 && refusals == statistics.retried)
        #expect(refusals <= batches + 2, "\(refusals) refusals for \(batches) batches: Retry-After was not honoured")
        await server.stop(SIGTERM)
    }

    @Test("413: the batch is split until the service takes it; every event once")
    func payloadTooLargeSplits() async throws {
        let config = try directory.write("serve.json", #"{"maximumEventsPerRequest": 100}"#)
        let server = try await ServeChild(database: directory.file("db.sqlite"), arguments: ["--config", config])
        let sli = try makeClient(endpoint: server.endpoint, directory: URL(fileURLWithPath: directory.file("queue")))
        await sli.record(numberedEvents(500, prefix: "split"))
        #expect(try await drain(sli))
        await #expect(try server.counts(from: anHourAgo).first?.counts.success == 500)
        #expect(await sli.statistics.split >= 3)
        await server.stop(SIGTERM)
    }

    @Test("a full queue drops the oldest events first and reports how many with the next batches, at most 10,000 a request")
    func diskCapDropsOldest() async throws {
        // No service yet: everything waits on disk, under a cap of 64 KiB (about 500 events), so more
        // than one request's worth of drops pile up.
        let server = try await ServeChild(database: directory.file("db.sqlite"))
        await server.stop(SIGTERM)
        let sli = try makeClient(endpoint: server.endpoint, directory: URL(fileURLWithPath: directory.file("queue"))) {
            $0.maximumQueueBytes = 64 << 10
        }
        let events = numberedEvents(12_000, prefix: "cap", products: 120)
        for event in events { await sli.record(event) }
        let dropped = sli.droppedEvents
        let waiting = await sli.waitingEvents
        #expect(dropped > PurchaseSLIClient.DroppedEventsHeader.maximumPerRequest && dropped + waiting == 12_000)
        try await server.start()
        #expect(try await drain(sli))
        // The newest events arrived, the oldest did not: products p0… are missing, the last ones whole.
        let byProduct = try await server.counts(from: anHourAgo, groupBy: [.productID])
        #expect(byProduct.reduce(0) { $0 + $1.counts.total } == Int64(waiting))
        #expect(byProduct.contains { $0.key == ["p119"] && $0.counts.total == 100 })
        #expect(!byProduct.contains { $0.key == ["p0"] })
        #expect(try await server.metrics().contains("purchase_sli_client_dropped_events_total \(dropped)"))
        await #expect(try SQLiteBucketStore(path: server.database).clientDroppedEvents(fromMillis: 0, toMillis: .max / 2) == Int64(dropped))
        #expect(sli.droppedEvents == 0)
        await server.stop(SIGTERM)
    }

    @Test("the simulator's traffic replayed through the SDK gives the same query as ingesting its file")
    func simulateReplay() async throws {
        let executable = try #require(builtExecutable)
        let start = RFC3339.format(seconds: Int64(Date().timeIntervalSince1970) - 86_400)
        let simulated = try await ChildProcess.run(
            executable, ["simulate", "--scenario", "outage", "--days", "1", "--rate", "3", "--seed", "11", "--start", start])
        let file = try directory.write("traffic.ndjson", simulated.output)
        let ingested = directory.file("ingested.sqlite")
        #expect(try await ChildProcess.run(executable, ["ingest", "--db", ingested, "--quiet", file]).termination == .exit(0))
        let server = try await ServeChild(database: directory.file("replayed.sqlite"))
        let sli = try makeClient(endpoint: server.endpoint, directory: URL(fileURLWithPath: directory.file("queue")))
        let validator = EventValidator(nowMillis: Int64(Date().timeIntervalSince1970 * 1000))
        var events: [SLIEvent] = []
        for line in simulated.output.split(separator: "\n") {
            var text = String(line)
            events.append(SLIEvent(try text.withUTF8 { try validator.validate(record: UnsafeRawBufferPointer($0)).get().event }))
        }
        for start in stride(from: 0, to: events.count, by: 1000) { await sli.record(Array(events[start..<min(events.count, start + 1000)])) }
        #expect(try await drain(sli))
        await server.stop(SIGTERM)
        let query = ["query", "--from", start, "--to", "now", "--by", "productID,planID,appVersion,resultType", "--step", "1h", "--format", "csv"]
        let fromFile = try await ChildProcess.run(executable, query + ["--db", ingested])
        let fromSDK = try await ChildProcess.run(executable, query + ["--db", server.database])
        #expect(fromFile.termination == .exit(0) && fromFile.output.split(separator: "\n").count > 100)
        #expect(fromSDK.output == fromFile.output)
    }
}

extension SLIEvent {
    /// The SDK's event of a validated event, every field kept.
    init(_ event: PurchaseEvent) {
        self.init(
            eventID: event.eventID, timestamp: Date(timeIntervalSince1970: Double(event.timestampMillis) / 1000),
            productID: event.productID, actionType: SLIAction(rawValue: event.actionType.rawValue),
            resultType: SLIResultType(rawValue: event.resultType.rawValue)!)
        (planID, groupID, offerID, statusCode) = (event.planID, event.groupID, event.offerID, event.statusCode)
        (appVersion, platform, osVersion, variant) = (event.appVersion, event.platform, event.osVersion, event.variant)
        (transactionID, appAccountToken, durationMs) = (event.transactionID, event.appAccountToken, event.durationMs.map { Int($0) })
        (resultDescription, responseDescription, errorDescription) = (event.resultDescription, event.responseDescription, event.errorDescription)
        (price, currency, app) = (event.price, event.currency, event.app)
    }
}
