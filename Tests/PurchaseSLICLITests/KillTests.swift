import Foundation
import PurchaseSLICore
import PurchaseSLISimulation
import PurchaseSLIStorage
import Testing

/// The built `purchase-sli` next to the test bundle (`swift test` builds every product).
private var executable: URL? {
    let directory = Bundle.main.bundleURL.deletingLastPathComponent()
    let candidates = [directory, Bundle.main.bundleURL].map { $0.appendingPathComponent("purchase-sli") }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

@Suite struct KillTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func totals(_ path: String) throws -> [CountRow] {
        try SQLiteBucketStore(path: path).counts(CountQuery(
            fromSeconds: RFC3339.parseMillis("2026-11-01T00:00:00Z")! / 1000,
            toSeconds: RFC3339.parseMillis("2026-12-01T00:00:00Z")! / 1000, groupBy: [.actionType, .resultType]))
    }

    private func ingest(_ arguments: [String], killAfter delay: Double?) throws -> Int32? {
        let process = Process()
        guard let executable else {
            Issue.record("purchase-sli is not built next to the tests")
            return nil
        }
        process.executableURL = executable
        process.arguments = ["ingest", "--quiet"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let delay {
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    @Test func killingIngestAtAnyMomentThenRunningItAgainGivesExactlyTheSameCounts() throws {
        let parameters = SimulationParameters(
            scenario: .outage, startMillis: RFC3339.parseMillis("2026-11-14T00:00:00Z")!, days: 2, seed: 3, attemptsPerMinute: 40)
        let lines = TrafficSimulator(parameters).map(\.jsonLine)
        let file = try directory.write("events.ndjson", lines.joined(separator: "\n") + "\n")
        let expected = directory.file("expected.sqlite")
        #expect(try ingest(["--db", expected, file], killAfter: nil) == 0)

        let killed = directory.file("killed.sqlite")
        for delay in [0.3, 0.8, 1.5] {
            #expect(try ingest(["--db", killed, file], killAfter: delay) == nil, "the run finished before the kill")
        }
        #expect(try ingest(["--db", killed, file], killAfter: nil) == 0)
        let expectedRows = try totals(expected)
        #expect(expectedRows.map(\.counts.total).reduce(0, +) > 100_000)
        #expect(try totals(killed) == expectedRows)
    }
}
