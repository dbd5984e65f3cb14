import Foundation
import PurchaseSLICore
import PurchaseSLISimulation
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@Suite struct KillTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func totals(_ path: String) async throws -> [CountRow] {
        try await SQLiteBucketStore(path: path).counts(
            CountQuery(
                fromSeconds: RFC3339.parseMillis("2026-11-01T00:00:00Z")! / 1000,
                toSeconds: RFC3339.parseMillis("2026-12-01T00:00:00Z")! / 1000, groupBy: [.actionType, .resultType]))
    }

    /// Runs `purchase-sli ingest --quiet`, killing it with SIGKILL after `delay` seconds when one is given.
    private func ingest(_ arguments: [String], killAfter delay: Double?) async throws -> ChildProcess.Termination {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let child = try ChildProcess(executable, ["ingest", "--quiet"] + arguments)
        if let delay {
            // Timed on a thread of its own: a sleeping task could wake long after `delay` when the rest of
            // the suite keeps the cooperative threads busy, and the kill would come after the run's end.
            try await onDedicatedThread {
                Thread.sleep(forTimeInterval: delay)
                child.send(SIGKILL)
            }
        }
        return await child.terminated()
    }

    @Test func killingIngestAtAnyMomentThenRunningItAgainGivesExactlyTheSameCounts() async throws {
        let parameters = SimulationParameters(
            scenario: .outage, startMillis: RFC3339.parseMillis("2026-11-14T00:00:00Z")!, days: 2, seed: 3, attemptsPerMinute: 40)
        let lines = TrafficSimulator(parameters).map(\.jsonLine)
        let file = try directory.write("events.ndjson", lines.joined(separator: "\n") + "\n")
        let expected = directory.file("expected.sqlite")
        #expect(try await ingest(["--db", expected, file], killAfter: nil) == .exit(0))

        let killed = directory.file("killed.sqlite")
        for delay in [0.3, 0.8, 1.5] {
            #expect(
                try await ingest(["--db", killed, file], killAfter: delay) == .signal(SIGKILL),
                "the run finished before the kill")
        }
        #expect(try await ingest(["--db", killed, file], killAfter: nil) == .exit(0))
        let expectedRows = try await totals(expected)
        #expect(expectedRows.map(\.counts.total).reduce(0, +) > 100_000)
        await #expect(try totals(killed) == expectedRows)
    }
}
