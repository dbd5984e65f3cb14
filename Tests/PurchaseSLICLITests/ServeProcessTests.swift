import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PurchaseSLICore
import PurchaseSLISimulation
import PurchaseSLIStorage
import Testing

/// `purchase-sli serve` as a child process, talked to over HTTP.
private final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let errors = Pipe()

    init(executable: URL, database: String) throws {
        process.executableURL = executable
        process.arguments = ["serve", "--db", database, "--port", "0"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        var log = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
            if let range = log.range(of: #"listening on 127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
               let port = Int(log[range].split(separator: ":").last!) {
                self.port = port
                return
            }
        }
        process.terminate()
        throw ServeFailure(message: "serve did not start: \(log)")
    }

    /// Posts one NDJSON batch; the status code, or nil when the connection failed.
    func post(_ lines: [String]) async -> Int? {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/events")!)
        request.httpMethod = "POST"
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(lines.joined(separator: "\n").utf8)
        request.timeoutInterval = 20
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    func stop(signal: Int32) -> Int32? {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }
}

private struct ServeFailure: Error { let message: String }

/// The built `purchase-sli` next to the test bundle.
private var builtExecutable: URL? {
    let directory = Bundle.main.bundleURL.deletingLastPathComponent()
    return [directory, Bundle.main.bundleURL].map { $0.appendingPathComponent("purchase-sli") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
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

    private func counts(_ path: String) throws -> [CountRow] {
        let now = Int64(Date().timeIntervalSince1970)
        return try SQLiteBucketStore(path: path).counts(CountQuery(
            fromSeconds: now - 3 * 86_400, toSeconds: now + 3600, groupBy: [.actionType, .resultType]))
    }

    /// The counts the batches give when ingested directly, each exactly once.
    private func expectedCounts() throws -> [CountRow] {
        let path = directory.file("expected.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let validator = EventValidator(nowMillis: Int64(Date().timeIntervalSince1970 * 1000))
        let events = batches.joined().map { line in
            var bytes = Array(line.utf8)
            return try! bytes.withUnsafeMutableBytes { validator.validate(record: UnsafeRawBufferPointer($0)) }.get()
        }
        _ = try store.record(events, receivedAtMillis: 0)
        return try counts(path)
    }

    /// Posts every batch, `concurrency` at a time; returns the indexes of batches not acknowledged with 202.
    /// Each acknowledgment is counted in `acknowledged` as it arrives.
    private func postAll(
        _ server: ServerProcess, indexes: [Int], concurrency: Int = 8, acknowledged: AcknowledgmentCount? = nil
    ) async -> [Int] {
        let batches = batches
        return await withTaskGroup(of: (Int, Int?).self) { group in
            var pending = indexes[...]
            var unacknowledged: [Int] = []
            for _ in 0..<concurrency {
                guard let index = pending.popFirst() else { break }
                group.addTask { (index, await server.post(batches[index])) }
            }
            while let (index, status) = await group.next() {
                if status != 202 { unacknowledged.append(index) } else { acknowledged?.increment() }
                if let next = pending.popFirst() { group.addTask { (next, await server.post(batches[next])) } }
            }
            return unacknowledged.sorted()
        }
    }

    @Test func killNineAtRandomMomentsThenResendingUnacknowledgedBatchesGivesExactCounts() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let database = directory.file("served.sqlite")
        var unacknowledged = Array(batches.indices)
        for _ in 0..<3 {
            let server = try ServerProcess(executable: executable, database: database)
            // The kill comes at a random moment after the first acknowledgment, however slow the machine.
            let delay = Int.random(in: 0...300)
            let acknowledged = AcknowledgmentCount()
            let killer = Task {
                while acknowledged.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
                try await Task.sleep(for: .milliseconds(delay))
                _ = server.stop(signal: SIGKILL)
            }
            let sent = unacknowledged.count
            unacknowledged = await postAll(server, indexes: unacknowledged, acknowledged: acknowledged)
            if acknowledged.value == 0 { killer.cancel(); _ = server.stop(signal: SIGKILL) }
            _ = await killer.result
            #expect(unacknowledged.count < sent || sent == 0, "the kill came before any batch was acknowledged")
        }
        #expect(!unacknowledged.isEmpty, "every batch was acknowledged before the kills")
        let server = try ServerProcess(executable: executable, database: database)
        unacknowledged = await postAll(server, indexes: unacknowledged)
        #expect(unacknowledged.isEmpty)
        #expect(server.stop(signal: SIGTERM) == 0)
        #expect(try counts(database) == expectedCounts())
    }

    @Test func sigtermFinishesRequestsInFlightCommitsAndExitsZero() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let database = directory.file("served.sqlite")
        let server = try ServerProcess(executable: executable, database: database)
        let stopper = Task {
            try await Task.sleep(for: .milliseconds(300))
            return server.stop(signal: SIGTERM)
        }
        let unacknowledged = await postAll(server, indexes: Array(batches.indices))
        #expect(try await stopper.value == 0)
        // Every acknowledged batch was committed: re-sending them all counts nothing new.
        let restarted = try ServerProcess(executable: executable, database: database)
        let acknowledged = Set(batches.indices).subtracting(unacknowledged).sorted()
        #expect(!acknowledged.isEmpty)
        let before = try counts(database)
        #expect(await postAll(restarted, indexes: acknowledged).isEmpty)
        #expect(try counts(database) == before)
        #expect(await postAll(restarted, indexes: unacknowledged).isEmpty)
        #expect(restarted.stop(signal: SIGINT) == 0)
        #expect(try counts(database) == expectedCounts())
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
