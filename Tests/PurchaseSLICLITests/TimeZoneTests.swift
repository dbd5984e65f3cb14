import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLISimulation
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// `--time-zone` and the policy's `timeZone`: pages and text write the same instants in the zone, JSON stays
/// UTC, a review's week is the zone's Monday to Monday.
@Suite struct TimeZoneTests {
    static let from = RFC3339.parseMillis("2026-11-14T00:00:00Z")! / 1000
    static let range = ["--from", "2026-11-14T00:00:00Z", "--to", "2026-11-15T00:00:00Z"]

    /// A day with a purchase outage.
    private func outage() async throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let path = directory.file("outage.sqlite")
        let parameters = SimulationParameters(scenario: .outage, startMillis: Self.from * 1000, days: 1, seed: 2, attemptsPerMinute: 20)
        _ = try await SQLiteBucketStore(path: path).record(Array(TrafficSimulator(parameters)), receivedAtMillis: (Self.from + 86_400) * 1000)
        return (directory, path)
    }

    /// The instants of every "since …" in an alert text.
    private func sinceTimes(_ text: String) -> [Int64?] {
        text.split(separator: "\n").compactMap { line in
            line.range(of: "since ").map { range in RFC3339.parseMillis(line[range.upperBound...].prefix { $0 != " " }) }
        }
    }

    @Test func alertTextWritesTheSameInstantsInTheZoneAndJSONStaysUTC() async throws {
        let executable = try #require(builtExecutable)
        let (directory, path) = try await outage()
        let (utcEnd, utc) = try await ChildProcess.run(executable, ["alerts", "--db", path] + Self.range)
        let (berlinEnd, berlin) = try await ChildProcess.run(executable, ["alerts", "--db", path, "--time-zone", "Europe/Berlin"] + Self.range)
        #expect(utcEnd == .exit(0) && berlinEnd == .exit(0), "\(berlin)")
        #expect(berlin.hasPrefix("backtest 2026-11-14T01:00:00+01:00 to 2026-11-15T01:00:00+01:00 every 1m: "), "\(berlin)")
        let times = sinceTimes(berlin)
        #expect(!times.isEmpty && times == sinceTimes(utc) && !times.contains(nil), "\(berlin)")
        #expect(berlin.contains("since 2026-11-14T") && berlin.contains("+01:00 (") && !berlin.contains(":00Z ("), "\(berlin)")
        let (_, json) = try await ChildProcess.run(
            executable, ["alerts", "--db", path, "--format", "json", "--time-zone", "Europe/Berlin"] + Self.range)
        #expect(json.contains("\"startsAt\":\"2026-11-14T") && !json.contains("+01:00"), "\(json)")
        // A name longer than any zone's is refused at once, without a suggestion.
        let (long, refusal) = try await ChildProcess.run(
            executable, ["alerts", "--db", path, "--time-zone", String(repeating: "Europe/Berlin", count: 10_000)] + Self.range)
        #expect(
            long == .exit(1) && refusal.contains("--time-zone: a time zone name is at most 64 bytes (the longest IANA name has 32), got 130000"),
            "\(refusal)")
        _ = directory
    }

    @Test func pagesNameTheirZoneAndLabelItsHours() async throws {
        let executable = try #require(builtExecutable)
        let (directory, path) = try await outage()
        let out = directory.file("out")
        let (ended, output) = try await ChildProcess.run(
            executable,
            [
                "render", "--db", path, "--at", "2026-11-15T00:00:00Z", "--range", "1d", "--time-zone", "Asia/Kolkata", "--out", out,
                "--dashboards", packageRoot + "/dashboards",
            ])
        #expect(ended == .exit(0), "\(output)")
        let page = try String(contentsOfFile: out + "/oncall.html", encoding: .utf8)
        #expect(page.contains("Times are Asia/Kolkata (UTC+05:30)") && !page.contains("Times are UTC"))
        #expect(page.contains("2026-11-14T05:30:00+05:30 to 2026-11-15T05:30:00+05:30 (1 d)"))
        #expect(page.contains(">Asia/Kolkata</text>") && page.contains("<th class=\"text\">time (Asia/Kolkata)</th>"))
        // Hourly ticks at the zone's whole hours: 06:00 local is 00:30 UTC.
        #expect(page.contains(">06:00</text>"))
    }

    @Test func thePolicysZoneAppliesUnlessTheOptionSaysOtherwise() async throws {
        let executable = try #require(builtExecutable)
        let (directory, path) = try await outage()
        let policy = directory.file("slos.yaml")
        try "timeZone: Asia/Tokyo\n".write(toFile: policy, atomically: true, encoding: .utf8)
        let (_, tokyo) = try await ChildProcess.run(executable, ["alerts", "--db", path, "--policy", policy] + Self.range)
        #expect(tokyo.hasPrefix("backtest 2026-11-14T09:00:00+09:00 to"), "\(tokyo)")
        let (_, utc) = try await ChildProcess.run(executable, ["alerts", "--db", path, "--policy", policy, "--time-zone", "UTC"] + Self.range)
        #expect(utc.hasPrefix("backtest 2026-11-14T00:00:00Z to"), "\(utc)")
        try "timeZone: Mars/Olympus_Mons\n".write(toFile: policy, atomically: true, encoding: .utf8)
        let (refused, message) = try await ChildProcess.run(executable, ["alerts", "--db", path, "--policy", policy] + Self.range)
        #expect(refused == .exit(1) && message.contains("\(policy): timeZone: unknown time zone \"Mars/Olympus_Mons\""), "\(message)")
        let (typo, said) = try await ChildProcess.run(executable, ["alerts", "--db", path, "--time-zone", "Europe/Berln"] + Self.range)
        #expect(
            typo == .exit(1) && said.contains("--time-zone: unknown time zone \"Europe/Berln\"") && said.contains("did you mean Europe/Berlin?"),
            "\(said)")
        _ = directory
    }

    /// The system's time zone database gives Europe/Berlin's changes; fixed offsets need none; names whose
    /// meaning varies (abbreviations, "GMT+1", whose sign is the reverse of ISO 8601's) are refused.
    @Test func zonesComeFromTheSystemDatabase() throws {
        let berlin = try #require(TimeZoneOffsets.named("Europe/Berlin"))
        let changes2026 = berlin.changes.filter { RFC3339.format(seconds: $0.atSeconds).hasPrefix("2026-") }
        #expect(changes2026.map { RFC3339.format(seconds: $0.atSeconds) } == ["2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z"])
        #expect(changes2026.map(\.offsetSeconds) == [7200, 3600])
        #expect(berlin.offsetSeconds(at: RFC3339.parseMillis("2090-07-01T00:00:00Z")! / 1000) == 7200)
        #expect(TimeZoneOffsets.named("+05:30")?.offsetSeconds(at: 0) == 19_800)
        #expect(TimeZoneOffsets.named("-03:00")?.offsetSeconds(at: 0) == -10_800)
        #expect(TimeZoneOffsets.named("UTC")?.isUTC == true)
        for refused in ["GMT+1", "CET", "Mars/Olympus_Mons", "+5:30", "+25:00", ""] {
            #expect(TimeZoneOffsets.named(refused) == nil, "\(refused)")
        }
    }
}
