import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLISimulation
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// Two apps in one store, a purchase outage in one of them: `--app` (and a dashboard's `app:`) shows one
/// app as if it had the store to itself, and every surface names it.
@Suite struct AppScopeTests {
    static let troubled = "com.example.premium"
    static let calm = "com.example.coins"
    static let from = RFC3339.parseMillis("2026-11-14T00:00:00Z")! / 1000
    static let to = from + 86_400

    /// A SQLite store holding a steady day of the calm app and the outage of the troubled one.
    private func twoApps() async throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let path = directory.file("apps.sqlite")
        let store = try SQLiteBucketStore(path: path)
        for (scenario, seed, app) in [(Scenario.steady, UInt64(1), Self.calm), (.outage, 2, Self.troubled)] {
            var parameters = SimulationParameters(
                scenario: scenario, startMillis: Self.from * 1000, days: 1, seed: seed, attemptsPerMinute: 20)
            parameters.app = app
            _ = try await store.record(Array(TrafficSimulator(parameters)), receivedAtMillis: Self.to * 1000)
        }
        return (directory, path)
    }

    @Test func anAppsAlertsAreItsOwnAndNameIt() async throws {
        let (directory, path) = try await twoApps()
        let (troubled, calm) = try await onDedicatedThread {
            let store = try SQLiteBucketStore(path: path)
            let policy = try SLOPolicy(yaml: String(contentsOfFile: packageRoot + "/dashboards/slos.yaml", encoding: .utf8))
            func backtest(_ app: String) async throws -> [AlertReport] {
                try await AlertContext(store: store, storedMaintenance: [], policy: policy, app: app, databasePath: path)
                    .episodeReports(from: Self.from, to: Self.to, stepSeconds: 60)
            }
            return await (try await backtest(Self.troubled), try backtest(Self.calm))
        }
        #expect(calm.allSatisfy { $0.finding.kind != .successRateBurn }, "\(calm.map(\.finding.identity))")
        let pages = troubled.filter { $0.finding.kind == .successRateBurn && $0.severity == .page }
        #expect(Set(pages.map(\.finding.labels.actionType)).isSuperset(of: ["purchase", "restore"]))
        #expect(troubled.allSatisfy { $0.app == Self.troubled })
        let text = AlertOutput.text(pages, now: Self.to)
        #expect(text.contains("RESOLVED PAGE · \(Self.troubled)  purchase"))
        let lookNext = text.split(separator: "\n").filter { $0.contains("look next:") }
        #expect(!lookNext.isEmpty && lookNext.allSatisfy { $0.contains("--where app=\(Self.troubled)") })
        #expect(AlertOutput.alertmanagerJSON(pages, now: Self.to).contains(#""app":"\#(Self.troubled)","actionType":"purchase""#))
        #expect(AlertOutput.slackWebhookJSON(pages, now: Self.to).contains("purchase-sli (`\(Self.troubled)`) at"))
        _ = directory
    }

    @Test func theCommandsShowOneApp() async throws {
        let executable = try #require(builtExecutable)
        let (directory, path) = try await twoApps()
        let range = ["--from", "2026-11-14T00:00:00Z", "--to", "2026-11-15T00:00:00Z"]
        let (status, alerts) = try await ChildProcess.run(executable, ["alerts", "--db", path, "--app", Self.troubled] + range)
        #expect(status == .exit(0), "\(alerts)")
        #expect(alerts.contains("PAGE · \(Self.troubled)  purchase"))
        let (_, calm) = try await ChildProcess.run(executable, ["alerts", "--db", path, "--app", Self.calm] + range)
        #expect(!calm.contains("PurchaseSuccessRateBurn") && !calm.contains("PAGE"), "\(calm)")
        let out = directory.file("out")
        let (rendered, written) = try await ChildProcess.run(
            executable, ["render", "--db", path, "--app", Self.troubled, "--at", "2026-11-14T14:30:00Z", "--range", "1d", "--out", out],
            currentDirectory: packageRoot)
        #expect(rendered == .exit(0), "\(written)")
        let page = try String(contentsOfFile: out + "/oncall.html", encoding: .utf8)
        #expect(page.contains("<h1>On-call · \(Self.troubled)</h1>"))
        #expect(page.contains("--where app=\(Self.troubled)"))
        let (refused, error) = try await ChildProcess.run(executable, ["alerts", "--db", path, "--app", ""])
        #expect(refused == .exit(64) && error.contains("--app: must not be empty"), "\(error)")
    }

    /// `render --each-app` writes each app's set into `out/apps/<dir>/` beside the every-app set, whose index
    /// lists them; a bad id, or `--app` beside it, is refused before anything is written.
    @Test func renderWritesEachAppsPagesApart() async throws {
        let executable = try #require(builtExecutable)
        let (directory, path) = try await twoApps()
        let out = directory.file("out")
        let (rendered, written) = try await ChildProcess.run(
            executable,
            [
                "render", "--db", path, "--at", "2026-11-14T14:30:00Z", "--range", "1d", "--out", out, "--each-app", Self.troubled,
                "--each-app", Self.calm, "--each-app", Self.troubled, "--base-url", "https://sli.example.com",
            ],
            currentDirectory: packageRoot)
        #expect(rendered == .exit(0), "\(written)")
        #expect(written.contains("\(out)/apps/\(Self.troubled)/oncall.html") && written.contains("\(out)/index.html"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/apps").sorted() == [Self.calm, Self.troubled])
        let troubled = try String(contentsOfFile: out + "/apps/\(Self.troubled)/oncall.html", encoding: .utf8)
        #expect(
            troubled.contains("<h1>On-call · \(Self.troubled)</h1>") && troubled.contains("https://sli.example.com/apps/\(Self.troubled)/incident-"))
        let calm = try String(contentsOfFile: out + "/apps/\(Self.calm)/index.html", encoding: .utf8)
        #expect(calm.contains("No alert firing") && calm.contains("<a href=\"../../index.html\">All apps</a>"))
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        // The app given twice is written and listed once.
        #expect(index.components(separatedBy: "<a href=\"apps/\(Self.troubled)/index.html\">\(Self.troubled)</a> — ").count == 2)
        for (arguments, message) in [
            (["--each-app", ""], "--each-app: must not be empty"), (["--each-app", Self.calm, "--app", Self.calm], "cannot be used with --app"),
        ] {
            let refusedOut = directory.file("refused")
            let (refused, error) = try await ChildProcess.run(
                executable, ["render", "--db", path, "--out", refusedOut] + arguments, currentDirectory: packageRoot)
            #expect(refused == .exit(64) && error.contains(message), "\(error)")
            #expect(!FileManager.default.fileExists(atPath: refusedOut))
        }
    }
}
