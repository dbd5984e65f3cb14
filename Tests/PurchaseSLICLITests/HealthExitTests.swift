import Foundation
import PurchaseSLITestSupport
import Testing

/// A read command never reads a database that is not there as one without events (all clear), and never
/// creates it; commands that judge health exit 2 when alerts fire and 3 when they cannot judge.
@Suite struct MissingDatabaseTests {
    /// Every command that reads the store, run against a path that does not exist.
    static let reads: [[String]] = [
        ["alerts", "--at", "2026-11-02T18:30:00Z"],
        ["alerts", "--from", "2026-11-02T18:00:00Z", "--to", "2026-11-02T19:00:00Z"],
        ["report", "--week", "2026-W45"],
        ["query", "--from", "2026-11-01", "--to", "2026-11-02"],
        ["charges", "--from", "2026-11-01", "--to", "2026-11-02"],
        ["grants", "--from", "2026-11-01", "--to", "2026-11-02"],
        ["incidents", "--at", "2026-11-20T00:00:00Z"],
        ["incident", "20261102-1802-fef488", "--at", "2026-11-20T00:00:00Z"],
        ["rollout", "--at", "2026-11-20T00:00:00Z"],
        ["render", "--at", "2026-11-20T00:00:00Z"],
        ["make-whole", "--from", "2026-11-19T00:00:00Z", "--to", "2026-11-20T00:00:00Z", "--url", "http://127.0.0.1:9/grant", "--dry-run"],
        ["maintenance", "list"],
    ]

    @Test("each read command refuses a missing --db naming the path and how to make one, exits 1, creates nothing", arguments: reads)
    func aMissingDatabaseIsRefused(_ arguments: [String]) async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let directory = try TemporaryDirectory()
        let missing = directory.file("mistyped.sqlite")
        let run = try await ChildProcess.run(executable, arguments + ["--db", missing], currentDirectory: directory.path)
        #expect(run.termination == .exit(1), "\(run.output)")
        #expect(run.output.contains("--db: no database at \(missing): nothing to read"), "\(run.output)")
        #expect(run.output.contains("purchase-sli ingest FILE --db \(missing)"), "\(run.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing is created")
    }

    @Test("the default database, when absent from the current directory, is refused as the default, not created")
    func theDefaultDatabaseIsNotCreated() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let directory = try TemporaryDirectory()
        let run = try await ChildProcess.run(executable, ["alerts", "--at", "2026-11-02T18:30:00Z"], currentDirectory: directory.path)
        #expect(run.termination == .exit(1) && run.output.contains("the default --db: no database at purchase-sli.sqlite"), "\(run.output)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("purchase-sli.sqlite")))
    }

    @Test("ingest creates the database it writes to; a read command then reads it")
    func ingestCreatesIt() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let directory = try TemporaryDirectory()
        let events = directory.file("events.ndjson")
        try #"{"eventID":"e1","timestamp":"2026-11-02T18:00:00Z","productID":"coins_100","actionType":"purchase","resultType":"success"}"#
            .write(toFile: events, atomically: true, encoding: .utf8)
        let ingest = try await ChildProcess.run(executable, ["ingest", events, "--db", directory.file("new.sqlite")])
        #expect(ingest.termination == .exit(0), "\(ingest.output)")
        let query = try await ChildProcess.run(
            executable, ["query", "--db", directory.file("new.sqlite"), "--from", "2026-11-02", "--to", "2026-11-03"])
        #expect(query.termination == .exit(0) && query.output.contains("1"), "\(query.output)")
    }
}

/// `alerts` and `report` exit as a monitoring plugin would: 0 all clear, 2 firing, 3 unknown.
@Suite(.sampleLogs) struct HealthExitTests {
    /// A time of the sample logs and the exit `alerts --at` gives then.
    static let moments: [(at: String, exit: Int32, why: String)] = [
        ("2026-11-02T18:30:00Z", 2, "the purchase burn pages"),
        ("2026-11-10T00:00:00Z", 0, "nothing fires and the data is fresh"),
        ("2026-10-01T00:00:00Z", 3, "no event yet: nothing could fire"),
        ("2026-12-20T00:00:00Z", 2, "the loss of signal fires: silence is a page, not unknown"),
    ]

    @Test("alerts --at: 2 firing, 0 all clear, 3 unknown; a backtest exits 0 whatever fired", arguments: moments)
    func alertsExit(_ moment: (at: String, exit: Int32, why: String)) async throws {
        let logs = try SampleLogs.get()
        let executable = try #require(builtExecutable)
        for format in ["text", "json"] {
            let run = try await ChildProcess.run(executable, ["alerts", "--db", logs.database, "--at", moment.at, "--format", format])
            #expect(run.termination == .exit(moment.exit), "\(moment.why), \(format): \(run.output)")
        }
        let backtest = try await ChildProcess.run(
            executable, ["alerts", "--db", logs.database, "--from", "2026-11-02T18:00:00Z", "--to", "2026-11-02T19:00:00Z"])
        #expect(backtest.termination == .exit(0), "\(backtest.output)")
    }

    @Test("report of a week without any event says no alert could fire and exits 3; a week with events exits 0")
    func reportExit() async throws {
        let logs = try SampleLogs.get()
        let executable = try #require(builtExecutable)
        let directory = try TemporaryDirectory()
        let empty = try await ChildProcess.run(
            executable, ["report", "--db", logs.database, "--week", "2026-W30", "--out", directory.file("out")])
        #expect(empty.termination == .exit(3), "\(empty.output)")
        #expect(empty.output.contains("No alert could fire: the week holds no event."), "\(empty.output)")
        let whole = try await ChildProcess.run(
            executable, ["report", "--db", logs.database, "--week", "2026-W46", "--format", "markdown"])
        #expect(whole.termination == .exit(0) && !whole.output.contains("No alert could fire"), "\(whole.output)")
    }
}
