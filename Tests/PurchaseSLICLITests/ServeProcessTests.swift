import Foundation
import PurchaseSLICore
import PurchaseSLISimulation
import PurchaseSLIStorage
import PurchaseSLIStores
import PurchaseSLITestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `purchase-sli serve` as a child process, talked to over HTTP.
struct ServerProcess {
    let child: ChildProcess
    let port: Int

    /// Starts `serve` on a free port, with `arguments` and `environment` besides, and waits until it listens.
    /// - Parameter database: `--db`; nil leaves it to `PURCHASE_SLI_DB` in `environment`.
    init(executable: URL, database: String?, arguments: [String] = [], environment: [String: String] = [:]) async throws {
        child = try ChildProcess(
            executable, ["serve", "--port", "0"] + (database.map { ["--db", $0] } ?? []) + arguments, environment: environment)
        let listening = try await child.firstMatch(of: #"listening on 127\.0\.0\.1:[0-9]+"#)
        port = try #require(Int(listening.split(separator: ":").last!))
    }

    /// Posts one NDJSON batch; the status code, or nil when the connection failed.
    func post(_ lines: [String]) async -> Int? {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/events")!)
        request.httpMethod = "POST"
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(lines.joined(separator: "\n").utf8)
        request.timeoutInterval = 60
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    /// Posts one body to `path` as JSON; the status code, or nil when the connection failed.
    func post(_ body: [UInt8], to path: String) async -> Int? {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        request.timeoutInterval = 60
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    /// Sends `signal` and waits for the process to end.
    func stop(signal: Int32) async -> ChildProcess.Termination {
        await child.stop(signal)
    }

    /// Posts `batches[indexes]`, `concurrency` at a time; returns the indexes of batches not acknowledged
    /// with 202. Each acknowledgment is counted in `acknowledged` as it arrives.
    func postAll(
        _ batches: [[String]], indexes: [Int], concurrency: Int = 8, acknowledged: AcknowledgmentCount? = nil
    ) async -> [Int] {
        await withTaskGroup(of: (Int, Int?).self) { group in
            var pending = indexes[...]
            var unacknowledged: [Int] = []
            for _ in 0..<concurrency {
                guard let index = pending.popFirst() else { break }
                group.addTask { (index, await post(batches[index])) }
            }
            while let (index, status) = await group.next() {
                if status != 202 { unacknowledged.append(index) } else { acknowledged?.increment() }
                if let next = pending.popFirst() { group.addTask { (next, await post(batches[next])) } }
            }
            return unacknowledged.sorted()
        }
    }
}

@Suite(.serialized) struct ServeProcessTests {
    let directory: TemporaryDirectory
    let batches: [[String]]

    init() throws {
        directory = try TemporaryDirectory()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let parameters = SimulationParameters(
            scenario: .steady, startMillis: now - 86_400_000, days: 1, seed: 11, attemptsPerMinute: 12)
        let lines = TrafficSimulator(parameters).map(\.jsonLine)
        batches = stride(from: 0, to: lines.count, by: 250).map { Array(lines[$0..<min(lines.count, $0 + 250)]) }
    }

    private func counts(_ path: String) async throws -> [CountRow] {
        let now = Int64(Date().timeIntervalSince1970)
        return try await SQLiteBucketStore(path: path).counts(
            CountQuery(
                fromSeconds: now - 3 * 86_400, toSeconds: now + 3600, groupBy: [.actionType, .resultType]))
    }

    /// The counts the batches give when ingested directly, each exactly once.
    private func expectedCounts() async throws -> [CountRow] {
        let path = directory.file("expected.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let validator = EventValidator(nowMillis: Int64(Date().timeIntervalSince1970 * 1000))
        let events = batches.joined().map { line in
            var bytes = Array(line.utf8)
            return try! bytes.withUnsafeMutableBytes { validator.validate(record: UnsafeRawBufferPointer($0)) }.get().event
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        return try await counts(path)
    }

    private func postAll(
        _ server: ServerProcess, indexes: [Int], concurrency: Int = 8, acknowledged: AcknowledgmentCount? = nil
    ) async -> [Int] {
        await server.postAll(batches, indexes: indexes, concurrency: concurrency, acknowledged: acknowledged)
    }

    @Test func killNineAtRandomMomentsThenResendingUnacknowledgedBatchesGivesExactCounts() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let database = directory.file("served.sqlite")
        var unacknowledged = Array(batches.indices)
        for _ in 0..<3 {
            let server = try await ServerProcess(executable: executable, database: database)
            // The kill comes at a random moment after the first acknowledgment, however slow the machine.
            let delay = Int.random(in: 0...300)
            let acknowledged = AcknowledgmentCount()
            let killer = Task {
                while acknowledged.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
                try await Task.sleep(for: .milliseconds(delay))
                _ = await server.stop(signal: SIGKILL)
            }
            let sent = unacknowledged.count
            unacknowledged = await postAll(server, indexes: unacknowledged, acknowledged: acknowledged)
            if acknowledged.value == 0 {
                killer.cancel()
                _ = await server.stop(signal: SIGKILL)
            }
            _ = await killer.result
            #expect(unacknowledged.count < sent || sent == 0, "the kill came before any batch was acknowledged")
        }
        #expect(!unacknowledged.isEmpty, "every batch was acknowledged before the kills")
        let server = try await ServerProcess(executable: executable, database: database)
        unacknowledged = await postAll(server, indexes: unacknowledged)
        #expect(unacknowledged.isEmpty)
        #expect(await server.stop(signal: SIGTERM) == .exit(0))
        await #expect(try counts(database) == expectedCounts())
    }

    @Test func sigtermFinishesRequestsInFlightCommitsAndExitsZero() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let database = directory.file("served.sqlite")
        let server = try await ServerProcess(executable: executable, database: database)
        let stopper = Task {
            try await Task.sleep(for: .milliseconds(300))
            return await server.stop(signal: SIGTERM)
        }
        let unacknowledged = await postAll(server, indexes: Array(batches.indices))
        #expect(try await stopper.value == .exit(0))
        // Every acknowledged batch was committed: re-sending them all counts nothing new.
        let restarted = try await ServerProcess(executable: executable, database: database)
        let acknowledged = Set(batches.indices).subtracting(unacknowledged).sorted()
        #expect(!acknowledged.isEmpty)
        let before = try await counts(database)
        #expect(await postAll(restarted, indexes: acknowledged).isEmpty)
        await #expect(try counts(database) == before)
        #expect(await postAll(restarted, indexes: unacknowledged).isEmpty)
        #expect(await restarted.stop(signal: SIGINT) == .exit(0))
        await #expect(try counts(database) == expectedCounts())
    }
}

/// `serve` on an address another service holds.
@Suite struct ServeAddressInUseTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// A second `serve` on the port of a running one says the port is taken and how to choose another,
    /// and exits 1, the running one untouched.
    @Test func aTakenPortIsSaidPlainly() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let first = try await ServerProcess(executable: executable, database: directory.file("first.sqlite"))
        let second = try ChildProcess(executable, ["serve", "--port", String(first.port), "--db", directory.file("second.sqlite")])
        #expect(await second.terminated() == .exit(1))
        #expect(second.output.contains("error: 127.0.0.1:\(first.port) is already in use"), "\(second.output)")
        #expect(second.output.contains("choose another port with --port or PURCHASE_SLI_PORT"))
        #expect(!second.output.contains("retention not applied"), "\(second.output)")
        #expect(await first.post([]) != nil)
        #expect(await first.stop(signal: SIGTERM) == .exit(0))
    }
}

/// App Store notifications posted to a `serve` child process killed with SIGKILL under load.
@Suite struct ServeNotificationKillTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test("kill -9 while App Store notifications arrive loses none that got 200; resending them all stores each once")
    func killNineLosesNoAcknowledgedNotification() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let now = Date()
        let chain = try AppStoreSigningChain(validity: now.addingTimeInterval(-86_400)...now.addingTimeInterval(86_400))
        let root = try directory.write("root.pem", chain.rootPEM)
        let nowMillis = Int64(now.timeIntervalSince1970 * 1000)
        let notifications = (0..<300).map { index in
            StoreNotification(
                store: .apple, notificationID: "00000000-0000-4000-8000-\(String(format: "%012d", index))", environment: "Production",
                appID: "com.example.app", type: "ONE_TIME_CHARGE", kind: .charge, signedMillis: nowMillis - 60_000,
                transactionID: "2000000\(index)", originalTransactionID: "2000000\(index)", productID: "coins_100",
                purchaseMillis: nowMillis - 61_000, price: 0.99, currency: "USD")
        }
        let bodies = try notifications.map { try StoreNotificationEncoder.appleBody($0, chain: chain) }
        let database = directory.file("served.sqlite")
        let arguments = ["--apple-bundle-id", "com.example.app", "--apple-root-ca", root]
        let server = try await ServerProcess(executable: executable, database: database, arguments: arguments)
        let acknowledged = AcknowledgmentCount()
        let killer = Task {
            while acknowledged.value < 5 { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...200)))
            _ = await server.stop(signal: SIGKILL)
        }
        let stored: [Int] = await withTaskGroup(of: (Int, Int?).self) { group in
            var pending = bodies.indices[...]
            var ok: [Int] = []
            for _ in 0..<8 {
                guard let index = pending.popFirst() else { break }
                group.addTask { (index, await server.post(bodies[index], to: "/v1/stores/apple/notifications")) }
            }
            while let (index, status) = await group.next() {
                if status == 200 {
                    ok.append(index)
                    acknowledged.increment()
                }
                if let next = pending.popFirst() {
                    group.addTask { (next, await server.post(bodies[next], to: "/v1/stores/apple/notifications")) }
                }
            }
            return ok
        }
        _ = await killer.result
        #expect(stored.count >= 5 && stored.count < bodies.count, "\(stored.count) acknowledged before the kill")
        let afterKill = await Set(
            try SQLiteBucketStore(path: database).notifications(kinds: [.charge], fromMillis: 0, toMillis: .max)
                .map(\.notification.notificationID))
        #expect(Set(stored.map { notifications[$0].notificationID }).isSubset(of: afterKill))
        // The store resends everything it did not see acknowledged (here: all of them): each is stored once.
        let restarted = try await ServerProcess(executable: executable, database: database, arguments: arguments)
        for body in bodies { #expect(await restarted.post(body, to: "/v1/stores/apple/notifications") == 200) }
        #expect(await restarted.stop(signal: SIGTERM) == .exit(0))
        let final = try await SQLiteBucketStore(path: database).notifications(kinds: [.charge], fromMillis: 0, toMillis: .max)
        #expect(final.map(\.notification.notificationID).sorted() == notifications.map(\.notificationID).sorted())
    }
}

/// How many batches were acknowledged so far, shared between the posting tasks and the killer.
final class AcknowledgmentCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
