import Foundation
import PurchaseSLIClient
import PurchaseSLIGzip

/// What bench/client-sdk.sh measures; every figure is printed with the baseline of the same run.
struct ClientBenchmark {
    let configuration: SLIConfiguration
    let count: Int
    let callers: Int

    func run() async throws {
        let directory = configuration.queueDirectory
        // The baseline: what an app writing its own emitter would do, each event appended and synced.
        let baselineEvents = max(1, count / 20)
        let baselineFile = directory.appendingPathComponent("baseline.ndjson")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: baselineFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: baselineFile)
        let line = Data((SLIEvent(productID: "coins_100", actionType: .purchase, resultType: .success).jsonLine + "\n").utf8)
        let baselineSeconds = try measure {
            for _ in 0..<baselineEvents {
                try handle.write(contentsOf: line)
                try handle.synchronize()
            }
        }
        try handle.close()
        try FileManager.default.removeItem(at: baselineFile)
        report(
            "append + fsync per event (baseline)", events: baselineEvents, seconds: baselineSeconds,
            baseline: baselineSeconds / Double(baselineEvents))

        var sdkConfiguration = configuration
        sdkConfiguration.queueDirectory = directory.appendingPathComponent("one")
        let one = try PurchaseSLI(sdkConfiguration)
        let oneAttempts = baselineEvents / 2
        let oneSeconds = try await measureAsync {
            for index in 0..<oneAttempts {
                await one.begin(.purchase, productID: "coins_\(index % 5)", planID: "plan-\(index % 3)").finish(.success(transactionID: "t\(index)"))
            }
        }
        report(
            "SDK, one caller: begin + await finish", events: 2 * oneAttempts, seconds: oneSeconds, baseline: baselineSeconds / Double(baselineEvents))

        sdkConfiguration.queueDirectory = directory.appendingPathComponent("many")
        let many = try PurchaseSLI(sdkConfiguration)
        let attempts = count / 2
        let manySeconds = try await measureAsync {
            await withTaskGroup(of: Void.self) { group in
                for caller in 0..<callers {
                    group.addTask {
                        for index in stride(from: caller, to: attempts, by: callers) {
                            await many.begin(.purchase, productID: "coins_\(index % 5)", planID: "plan-\(index % 3)")
                                .finish(.success(transactionID: "t\(index)"))
                        }
                    }
                }
            }
        }
        report("SDK, \(callers) callers at once", events: 2 * attempts, seconds: manySeconds, baseline: baselineSeconds / Double(baselineEvents))

        // The queue as the SDK left it on disk: segment files of NDJSON lines, sent gzip-compressed in
        // batches of up to maximumBatchEvents lines.
        let queueDirectory = sdkConfiguration.queueDirectory
        var bytes = 0
        var events = 0
        var sent = 0
        var segments = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: queueDirectory.path) where name.hasSuffix(".ndjson") {
            let data = try Data(contentsOf: queueDirectory.appendingPathComponent(name))
            let lines = data.split(separator: 0x0A)
            segments += 1
            bytes += data.count
            events += lines.count
            for start in stride(from: 0, to: lines.count, by: configuration.maximumBatchEvents) {
                let batch = lines[start..<min(lines.count, start + configuration.maximumBatchEvents)]
                sent += try GzipCompressor.compress(Array(batch.joined(separator: [0x0A]))).count
            }
        }
        print(
            String(
                format: "on disk: %.0f bytes per event; sent (gzip, batches of up to %d): %.0f bytes per event; %d events in %d segments",
                Double(bytes) / Double(max(events, 1)), configuration.maximumBatchEvents, Double(sent) / Double(max(events, 1)),
                events, segments))
    }

    private func report(_ label: String, events: Int, seconds: Double, baseline secondsPerEvent: Double) {
        let rate = Double(events) / seconds
        let padded = label.padding(toLength: 40, withPad: " ", startingAt: 0)
        print(padded + String(format: "%9.0f events/s  (%d events, %.2f s; %.1f× the baseline)", rate, events, seconds, rate * secondsPerEvent))
    }

    private func measure(_ work: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try work()
        return Self.seconds(ContinuousClock.now - start)
    }

    private func measureAsync(_ work: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await work()
        return Self.seconds(ContinuousClock.now - start)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
