#if PostgreSQL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PurchaseSLITestSupport

/// A PostgreSQL cluster of one test's own (`scripts/test-postgres.sh` in a temporary directory), so that
/// the test can stop and start it without disturbing the server the other tests share.
final class OwnPostgresCluster: Sendable {
    private let directory: TemporaryDirectory

    /// A cluster not made yet: `start()` makes it.
    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Makes the cluster at the first call, starts it (on the same port every time), and returns its URL.
    func start() async throws -> String {
        let started = try await script("start")
        guard let url = started.split(separator: "\n").last(where: { $0.hasPrefix("postgres://") }) else {
            throw ClusterScriptError(output: started)
        }
        return String(url)
    }

    /// Stops the cluster, closing every connection to it (`pg_ctl stop --mode=fast`).
    func stop() async throws {
        _ = try await script("stop")
    }

    private func script(_ command: String) async throws -> String {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["bash", packageRoot + "/scripts/test-postgres.sh", command, directory.file("cluster")])
        guard result.termination == .exit(0) else { throw ClusterScriptError(output: result.output) }
        return result.output
    }
}

/// `scripts/test-postgres.sh` failed; what it printed.
struct ClusterScriptError: Error, CustomStringConvertible {
    let output: String
    var description: String { "scripts/test-postgres.sh failed: \(output)" }
}

/// A client that posts every batch to one `serve` at a steady pace, two at a time, and sends a batch that
/// was not acknowledged again after the `Retry-After` it was given, as an SDK would, until it is
/// acknowledged or has failed `attemptsPerBatch` times.
final class LoadWithRetries: @unchecked Sendable {
    private let server: ServerProcess
    private let batches: [[String]]
    private let attemptsPerBatch = 40
    private let lock = NSLock()
    private var waiting: [Int]
    private var attempts: [Int: Int] = [:]
    private var acknowledged = 0
    private var retryAfterValues: [String] = []
    private var givenUp: [Int] = []

    init(server: ServerProcess, batches: [[String]]) {
        self.server = server
        self.batches = batches
        waiting = Array(batches.indices.reversed())
    }

    /// Batches acknowledged with 202 so far.
    var acknowledgedCount: Int { locked { acknowledged } }
    /// The `Retry-After` header of every 503 answered so far ("" when it had none).
    var unavailableAnswers: [String] { locked { retryAfterValues } }
    /// Batches given up after `attemptsPerBatch` attempts.
    var unacknowledged: [Int] { locked { givenUp.sorted() } }

    /// Posts until every batch is acknowledged or given up.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    while let index = self.locked({ self.waiting.popLast() }) {
                        let answer = await self.post(self.batches[index])
                        let wait = self.settle(index, answer)
                        try? await Task.sleep(for: .milliseconds(wait))
                    }
                }
            }
        }
    }

    /// Books an answer; the milliseconds to wait before the next post.
    private func settle(_ index: Int, _ answer: (status: Int, retryAfter: String?)?) -> Int {
        locked {
            if answer?.status == 202 {
                acknowledged += 1
                return 100
            }
            if answer?.status == 503 { retryAfterValues.append(answer?.retryAfter ?? "") }
            attempts[index, default: 0] += 1
            if attempts[index]! < attemptsPerBatch { waiting.insert(index, at: 0) } else { givenUp.append(index) }
            return 1000 * min(5, Int(answer?.retryAfter ?? "") ?? 1)
        }
    }

    private func post(_ lines: [String]) async -> (status: Int, retryAfter: String?)? {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/v1/events")!)
        request.httpMethod = "POST"
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(lines.joined(separator: "\n").utf8)
        request.timeoutInterval = 60
        guard let (_, response) = try? await URLSession.shared.data(for: request), let http = response as? HTTPURLResponse else {
            return nil
        }
        return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"))
    }

    private func locked<Value>(_ body: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

extension ServerProcess {
    /// Asks `GET /readyz` every 200 ms until it answers `status`; false after two minutes (a fail-safe,
    /// not a measurement).
    func waitForReadiness(_ status: Int) async throws -> Bool {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/readyz")!)
        request.timeoutInterval = 60
        for _ in 0..<600 {
            if let (_, response) = try? await URLSession.shared.data(for: request),
                (response as? HTTPURLResponse)?.statusCode == status
            {
                return true
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }
}
#endif
