#if PostgreSQL
import Foundation
import PurchaseSLICore
import PurchaseSLIPostgres
import PurchaseSLISimulation
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// Several `serve` child processes on one PostgreSQL database, as behind a load balancer.
@Suite(.enabled(if: TestPostgres.isEnabled, "set PURCHASE_SLI_TEST_POSTGRES_URL (scripts/test-postgres.sh start DIR prints it)"))
struct PostgresNodesTests {
    let batches: [[String]]

    init() {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let lines = TrafficSimulator(
            SimulationParameters(
                scenario: .steady, startMillis: now - 86_400_000, days: 1, seed: 23, attemptsPerMinute: 8)
        ).map(\.jsonLine)
        batches = stride(from: 0, to: lines.count, by: 200).map { Array(lines[$0..<min(lines.count, $0 + 200)]) }
    }

    private func counts(_ store: any BucketStore) async throws -> [CountRow] {
        let now = Int64(Date().timeIntervalSince1970)
        return try await store.counts(CountQuery(fromSeconds: now - 3 * 86_400, toSeconds: now + 3600, groupBy: [.actionType, .resultType]))
    }

    /// The counts of every batch counted once.
    private func expectedCounts() async throws -> [CountRow] {
        let validator = EventValidator(nowMillis: Int64(Date().timeIntervalSince1970 * 1000))
        let events = batches.joined().map { line in
            var bytes = Array(line.utf8)
            return try! bytes.withUnsafeMutableBytes { validator.validate(record: UnsafeRawBufferPointer($0)) }.get().event
        }
        let store = InMemoryBucketStore()
        _ = try await store.record(events, receivedAtMillis: 0)
        return try await counts(store)
    }

    @Test("two nodes, a fifth of the batches sent to both, one killed with SIGKILL: every acknowledged event counts once")
    func overlappingBatchesAndAKill() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let url = try await TestPostgres.newDatabase()
        let password = try #require(URLComponents(string: url)?.password)
        // The URL from the environment, as a deployment would pass it (not in the process list).
        let first = try await ServerProcess(executable: executable, database: nil, environment: ["PURCHASE_SLI_DB": url])
        let second = try await ServerProcess(executable: executable, database: nil, environment: ["PURCHASE_SLI_DB": url])
        let split = (batches.count * 2 / 5, batches.count * 3 / 5)
        let acknowledged = AcknowledgmentCount()
        let killer = Task {
            while acknowledged.value < 3 { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...300)))
            _ = await first.stop(signal: SIGKILL)
        }
        async let missedByFirst = first.postAll(batches, indexes: Array(0..<split.1), acknowledged: acknowledged)
        async let missedBySecond = second.postAll(batches, indexes: Array(split.0..<batches.count).reversed())
        let (unacknowledged, secondMissed) = await (missedByFirst, missedBySecond)
        _ = await killer.result
        #expect(acknowledged.value >= 3 && !unacknowledged.isEmpty, "the kill came after some batches and before the last")
        // The client sends what was not acknowledged (by the killed node, or by the other with a 503 when the
        // database did not answer in time on a busy machine) to the node that is left, until it is.
        var missed = Array(Set(unacknowledged).union(secondMissed)).sorted()
        for _ in 0..<5 where !missed.isEmpty {
            missed = await second.postAll(batches, indexes: missed)
        }
        #expect(missed.isEmpty)
        let store = try await PostgresBucketStore(url: PostgresURL(url), timeout: TestPostgres.callTimeout)
        await #expect(try counts(store) == expectedCounts())
        #expect(await second.stop(signal: SIGTERM) == .exit(0))
        #expect(!first.child.output.contains(password) && !second.child.output.contains(password), "a log line shows the password")
        #expect(second.child.output.contains("postgres://purchase_sli:***@"))
    }

    @Test("PostgreSQL stopped and started under load: 503 with Retry-After and not ready meanwhile, 202 again without a restart, nothing lost")
    func databaseRestartUnderLoad() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        // A cluster of its own: stopping the one the other tests share would fail them.
        let cluster = try OwnPostgresCluster()
        let url = try await cluster.start()
        do {
            let server = try await ServerProcess(executable: executable, database: nil, environment: ["PURCHASE_SLI_DB": url])
            let load = LoadWithRetries(server: server, batches: batches)
            let loadDone = Task { await load.run() }
            while load.acknowledgedCount < 10 { try await Task.sleep(for: .milliseconds(5)) }
            try await cluster.stop()
            // Down: a write that cannot reach the database is answered 503 with Retry-After, /readyz with 503.
            #expect(try await server.waitForReadiness(503))
            for _ in 0..<2400 where load.unavailableAnswers.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            #expect(!load.unavailableAnswers.isEmpty && load.unavailableAnswers.allSatisfy { $0 == "5" }, "Retry-After: \(load.unavailableAnswers)")
            _ = try await cluster.start()
            // Up again: the same process answers ready and takes writes.
            #expect(try await server.waitForReadiness(200))
            await loadDone.value
            #expect(load.unacknowledged.isEmpty, "batches never acknowledged: \(load.unacknowledged)")
            let store = try await PostgresBucketStore(url: PostgresURL(url), timeout: TestPostgres.callTimeout)
            await #expect(try counts(store) == expectedCounts())
            #expect(await server.stop(signal: SIGTERM) == .exit(0))
        } catch {
            try? await cluster.stop()
            throw error
        }
        try await cluster.stop()
    }

    @Test("one node leads; when it is killed another takes over at its next round")
    func leaderTakeover() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let url = try await TestPostgres.newDatabase()
        let directory = try TemporaryDirectory()
        // Pruning every minute: the round at which a follower asks for the lease.
        let config = try directory.write("serve.json", #"{"pruneEvery": "1m"}"#)
        let environment = ["PURCHASE_SLI_DB": url]
        let leader = try await ServerProcess(executable: executable, database: nil, arguments: ["--config", config], environment: environment)
        _ = try await leader.child.firstMatch(of: "this node now leads")
        let follower = try await ServerProcess(executable: executable, database: nil, arguments: ["--config", config], environment: environment)
        _ = try await follower.child.firstMatch(of: "retention applied|listening on")
        #expect(!follower.child.output.contains("this node now leads"))
        _ = await leader.stop(signal: SIGKILL)
        // A fail-safe, not a measurement: the follower's next round comes within a minute.
        let tookOver = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = try await follower.child.firstMatch(of: "this node now leads")
                return true
            }
            group.addTask {
                try await Task.sleep(for: .seconds(240))
                return false
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
        #expect(tookOver)
        #expect(await follower.stop(signal: SIGTERM) == .exit(0))
    }
}

/// `purchase-sli migrate`: a SQLite store copied into PostgreSQL answers every query the same.
@Suite(.enabled(if: TestPostgres.isEnabled, "set PURCHASE_SLI_TEST_POSTGRES_URL (scripts/test-postgres.sh start DIR prints it)"))
struct MigrateCommandTests {
    @Test("SQLite → PostgreSQL gives identical query output; the dedup memory moves too; a second run copies nothing")
    func roundTrip() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let directory = try TemporaryDirectory()
        let samples = try directory.write(
            "events.ndjson",
            TrafficSimulator(
                SimulationParameters(
                    scenario: .outage, startMillis: RFC3339.parseMillis("2026-11-10T00:00:00Z")!, days: 3, seed: 5, attemptsPerMinute: 6)
            )
            .map { event in
                // Two apps, so that the app dimension's series and values move too.
                var event = event
                event.app = event.productID.hasPrefix("coins") ? "com.example.coins" : "com.example.premium"
                return event.jsonLine
            }
            .joined(separator: "\n"))
        let sqlite = directory.file("source.sqlite")
        // Three products and plans a day per app: what the caps count as __other__ moves too.
        let ingested = try await ChildProcess.run(executable, ["ingest", "--db", sqlite, "--quiet", "--cardinality-cap", "3", samples])
        #expect(ingested.termination == .exit(0), "\(ingested.output)")
        let declared = try await ChildProcess.run(
            executable,
            [
                "maintenance", "add", "--db", sqlite, "--id", "nightly", "--from", "2026-11-10T03:00:00Z", "--duration", "30m", "--rrule",
                "FREQ=DAILY",
                "--reason", "nightly batch",
            ])
        #expect(declared.termination == .exit(0), "\(declared.output)")
        // A charge nobody granted, written off by a person: a fact the charge's state rests on, which moves too.
        _ = try await SQLiteBucketStore(path: sqlite).record(
            [
                StoreNotification(
                    store: .apple, notificationID: "charge-1", environment: "Production", appID: "com.example.coins", type: "ONE_TIME_CHARGE",
                    kind: .charge, signedMillis: RFC3339.parseMillis("2026-11-11T10:00:00Z")!, transactionID: "2000000000000001",
                    productID: "coins_500", purchaseMillis: RFC3339.parseMillis("2026-11-11T10:00:00Z")!, price: 4.99, currency: "USD")
            ], receivedAtMillis: RFC3339.parseMillis("2026-11-11T10:00:01Z")!)
        let wroteOff = try await ChildProcess.run(
            executable,
            ["charges", "write-off", "2000000000000001", "--db", sqlite, "--store", "apple", "--reason", "refunded by support", "--by", "Ana"])
        #expect(wroteOff.termination == .exit(0), "\(wroteOff.output)")
        // Incidents' records, one of them taken on by a person: the acknowledgement moves with its figures.
        let source = try SQLiteBucketStore(path: sqlite)
        try await IncidentRepository(source.sql).save([
            StoredIncident(
                app: "com.example.coins", id: "20261111-1000-9c1f2e", startSeconds: 1_794_391_200, endSeconds: 1_794_398_400, status: "resolved",
                readAtSeconds: 1_794_400_000, document: #"{"usd":4.99}"#),
            StoredIncident(
                app: "", id: "20261112-0703-3fa2c1", startSeconds: 1_794_474_180, endSeconds: nil, status: "open", readAtSeconds: 1_794_480_000,
                document: "{}"),
        ])
        #expect(
            try await IncidentRepository(source.sql).acknowledge(
                app: "com.example.coins", id: "20261111-1000-9c1f2e",
                IncidentAcknowledgement(owner: "Ana", note: "granted by hand", atSeconds: 1_794_392_000)))
        let incidents = try await IncidentRepository(source.sql).incidents(app: nil, fromSeconds: .min, toSeconds: .max, statuses: nil)
        let url = try await TestPostgres.newDatabase()
        let environment = ["PURCHASE_SLI_DB": url]
        let migrated = try await ChildProcess.run(executable, ["migrate", "--from", sqlite], environment: environment)
        #expect(migrated.termination == .exit(0), "\(migrated.output)")
        #expect(migrated.output.contains("copied \(sqlite) into postgres://purchase_sli:***@"), "\(migrated.output)")
        let queries = [
            ["--from", "2026-11-10T00:00:00Z", "--to", "2026-11-13T00:00:00Z", "--by", "actionType,productID"],
            ["--from", "2026-11-10T07:13:00Z", "--to", "2026-11-12T19:41:00Z", "--by", "appVersion,resultType", "--step", "1h"],
            ["--from", "2026-11-11T00:00:00Z", "--to", "2026-11-11T06:00:00Z", "--by", "planID", "--step", "5m", "--format", "json"],
            ["--from", "2026-11-10T00:00:00Z", "--to", "2026-11-13T00:00:00Z", "--by", "errorDescription"],
            ["--from", "2026-11-10T00:00:00Z", "--to", "2026-11-13T00:00:00Z", "--by", "app,resultType", "--where", "app=com.example.coins"],
        ]
        for arguments in queries {
            let fromSQLite = try await ChildProcess.run(executable, ["query", "--db", sqlite] + arguments)
            let fromPostgres = try await ChildProcess.run(executable, ["query"] + arguments, environment: environment)
            #expect(fromSQLite.termination == .exit(0) && fromPostgres.termination == .exit(0), "\(fromPostgres.output)")
            #expect(fromPostgres.output == fromSQLite.output, "\(arguments)")
        }
        let windows = try await ChildProcess.run(executable, ["maintenance", "list", "--format", "json"], environment: environment)
        #expect(windows.output == (try await ChildProcess.run(executable, ["maintenance", "list", "--db", sqlite, "--format", "json"]).output))
        #expect(windows.output.contains(#""id":"nightly""#) && migrated.output.contains("maintenance     1"), "\(windows.output)")
        let settled = try await ChildProcess.run(
            executable, ["charges", "write-off", "2000000000000001", "--store", "apple", "--reason", "again"], environment: environment)
        #expect(
            settled.termination == .exit(1) && settled.output.contains("settled already: written off")
                && settled.output.contains("(by Ana: refunded by support)") && migrated.output.contains("settlements     1"), "\(settled.output)")
        let target = try await PostgresBucketStore(url: PostgresURL(url), timeout: TestPostgres.callTimeout)
        let overflow = try await source.overflow(fromDay: .min, toDay: .max)
        #expect(!overflow.isEmpty)
        #expect(try await target.overflow(fromDay: .min, toDay: .max) == overflow)
        #expect(try await IncidentRepository(target.sql).incidents(app: nil, fromSeconds: .min, toSeconds: .max, statuses: nil) == incidents)
        #expect(incidents.compactMap(\.acknowledgement?.owner) == ["Ana"] && migrated.output.contains("incidents       2"), "\(migrated.output)")
        let again = try await ChildProcess.run(executable, ["migrate", "--from", sqlite], environment: environment)
        #expect(again.termination == .exit(0) && again.output.contains("nothing copied"), "\(again.output)")
        #expect(try await IncidentRepository(target.sql).incidents(app: nil, fromSeconds: .min, toSeconds: .max, statuses: nil) == incidents)
        // The events sent again after the move are recognized: the dedup memory moved with the counts.
        let resent = try await ChildProcess.run(executable, ["ingest", samples], environment: environment)
        #expect(resent.output.contains("accepted    0"), "\(resent.output)")
        // Into a database that holds events already, nothing is copied.
        let other = try directory.write(
            "other.ndjson", try String(contentsOfFile: samples, encoding: .utf8).replacingOccurrences(of: "\"eventID\":\"", with: "\"eventID\":\"x"))
        let otherSQLite = directory.file("other.sqlite")
        _ = try await ChildProcess.run(executable, ["ingest", "--db", otherSQLite, "--quiet", other])
        let refused = try await ChildProcess.run(executable, ["migrate", "--from", otherSQLite], environment: environment)
        #expect(refused.termination == .exit(1) && refused.output.contains("already holds events"), "\(refused.output)")
    }
}
#endif
