import Foundation
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport

@testable import PurchaseSLIClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `purchase-sli serve` child process on a SQLite file, which a test may kill and start again on the
/// same port (the client's endpoint does not change).
final class ServeChild: @unchecked Sendable {
    let database: String
    private let arguments: [String]
    private(set) var port = 0
    private var child: ChildProcess?

    /// Starts `serve --db database` with `arguments` besides, on a free port (``TCPPort/free()``: one
    /// that no other test takes while this service is stopped).
    init(database: String, arguments: [String] = []) async throws {
        self.database = database
        self.arguments = arguments
        port = try TCPPort.free()
        try await start()
    }

    /// The service's base URL.
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts the process (again, on the port it had).
    func start() async throws {
        guard let executable = builtExecutable else { throw ProbeError("purchase-sli is not built next to the tests") }
        let child = try ChildProcess(executable, ["serve", "--db", database, "--port", String(port)] + arguments)
        _ = try await child.firstMatch(of: #"listening on 127\.0\.0\.1:\#(port)\b"#)
        self.child = child
    }

    /// Sends `signal` and waits for the process to end.
    func stop(_ signal: Int32) async {
        await child?.stop(signal)
        child = nil
    }

    /// The text of `GET /metrics`.
    func metrics() async throws -> String {
        let (data, _) = try await URLSession.shared.data(from: endpoint.appendingPathComponent("metrics"))
        return String(decoding: data, as: UTF8.self)
    }

    /// Events counted in the store from `from` to now, by `groupBy`.
    func counts(from: Int64, groupBy: [EventDimension] = []) async throws -> [CountRow] {
        try await SQLiteBucketStore(path: database).counts(
            CountQuery(fromSeconds: from, toSeconds: Int64(Date().timeIntervalSince1970) + 600, groupBy: groupBy))
    }
}

/// A test's own failure.
struct ProbeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A client on `endpoint` with a queue in `directory`, sending only when told (or at its threshold), and
/// retrying fast.
func makeClient(endpoint: URL, directory: URL, configure: (inout SLIConfiguration) -> Void = { _ in }) throws -> PurchaseSLI {
    var configuration = SLIConfiguration(endpoint: endpoint, queueDirectory: directory)
    configuration.sendInterval = .seconds(3600)
    configuration.sendThreshold = .max
    configuration.initialRetryDelay = .milliseconds(20)
    configuration.maximumRetryDelay = .milliseconds(200)
    configure(&configuration)
    return try PurchaseSLI(configuration)
}

/// Flushes until the queue is empty; false if it is not after many rounds (a fail-safe, not a timing).
func drain(_ sli: PurchaseSLI) async throws -> Bool {
    for _ in 0..<3000 {
        await sli.flush()
        if await sli.waitingEvents == 0 { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return false
}

/// `count` success events a minute ago, numbered, of `products` products (`p0`, `p1`, …) in order.
func numberedEvents(_ count: Int, prefix: String, products: Int = 1) -> [SLIEvent] {
    let time = Date(timeIntervalSinceNow: -60)
    return (0..<count).map { index in
        SLIEvent(
            eventID: "\(prefix)-\(index)", timestamp: time, productID: "p\(index * products / count)", actionType: .purchase, resultType: .success)
    }
}

/// Seconds since the epoch an hour ago.
var anHourAgo: Int64 { Int64(Date().timeIntervalSince1970) - 3600 }
