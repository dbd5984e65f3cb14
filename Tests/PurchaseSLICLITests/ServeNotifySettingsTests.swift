import Foundation
import Logging
import PurchaseSLIServer
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// How `serve` resolves its alert notification settings from the config file, the environment and the options.
@Suite struct ServeNotifySettingsTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func resolve(_ arguments: [String], environment: [String: String] = [:]) throws -> ServerConfiguration {
        try ServeCommand.parse(arguments).resolve(environment: environment).server
    }

    @Test func notificationsAreOffUnlessANotifyURLIsGiven() throws {
        let server = try resolve([])
        #expect(server.notifyURL == nil && server.notifyFormat == .alertmanager && server.alertsEverySeconds == 60)
    }

    @Test func theOptionsOverrideTheEnvironmentWhichOverridesTheConfigFile() throws {
        let policy = try directory.write("policy.yaml", "keepFiringFor: 10m\n")
        let config = try directory.write("config.json", """
            {"notify": "http://alertmanager:9093/api/v2/alerts", "notifyFormat": "slack", "alertsEvery": "5m", "policy": "\(policy)"}
            """)
        let fromFile = try resolve(["--config", config])
        #expect(fromFile.notifyURL?.absoluteString == "http://alertmanager:9093/api/v2/alerts")
        #expect(fromFile.notifyFormat == .slack && fromFile.alertsEverySeconds == 300 && fromFile.alertPolicy.keepFiringForSeconds == 600)
        let environment = ["PURCHASE_SLI_NOTIFY": "https://hooks.example/x", "PURCHASE_SLI_ALERTS_EVERY": "2m",
                           "PURCHASE_SLI_NOTIFY_FORMAT": "alertmanager"]
        let fromEnvironment = try resolve(["--config", config], environment: environment)
        #expect(fromEnvironment.notifyURL?.absoluteString == "https://hooks.example/x")
        #expect(fromEnvironment.notifyFormat == .alertmanager && fromEnvironment.alertsEverySeconds == 120)
        let fromOptions = try resolve(["--config", config, "--alerts-every", "1m", "--notify-format", "slack"], environment: environment)
        #expect(fromOptions.notifyFormat == .slack && fromOptions.alertsEverySeconds == 60)
        // The base URL of the links loses its trailing slash, wherever it came from.
        let linked = try directory.write("linked.json", #"{"baseURL": "https://a.example/"}"#)
        #expect(try resolve(["--config", linked]).baseURL == "https://a.example")
        #expect(try resolve(["--config", linked], environment: ["PURCHASE_SLI_BASE_URL": "https://b.example/sli/"]).baseURL == "https://b.example/sli")
        #expect(try resolve(["--config", linked, "--base-url", "http://c.example"]).baseURL == "http://c.example")
    }

    @Test func aWrongValueIsAnErrorNamingTheOptionOrVariableItCameFrom() throws {
        let cases: [([String], [String: String], String)] = [
            (["--notify", "ftp://x/"], [:], "--notify: expected an http or https URL"),
            ([], ["PURCHASE_SLI_NOTIFY": "ftp://x/"], "PURCHASE_SLI_NOTIFY: expected an http or https URL"),
            (["--notify", "http://x/", "--alerts-every", "90s"], [:], "--alerts-every: expected a whole number of minutes"),
            ([], ["PURCHASE_SLI_NOTIFY": "http://x/", "PURCHASE_SLI_NOTIFY_FORMAT": "teams"],
             "PURCHASE_SLI_NOTIFY_FORMAT: expected alertmanager or slack"),
            ([], ["PURCHASE_SLI_PORT": "80800"], "PURCHASE_SLI_PORT: expected a port from 0 to 65535, got \"80800\""),
            (["--render-every", "0m"], [:], "--render-every: expected a whole number of minutes"),
            ([], ["PURCHASE_SLI_RENDER_RANGE": "soon"], "PURCHASE_SLI_RENDER_RANGE: expected a whole number of minutes"),
            ([], ["PURCHASE_SLI_INGEST_KEYS": directory.file("missing-keys")], "PURCHASE_SLI_INGEST_KEYS: cannot read"),
            (["--config", try directory.write("bad.json", #"{"alertsEvery": "1h30s"}"#)], [:], "alertsEvery expects a whole number of minutes"),
            (["--notify", "http://x/", "--policy", directory.file("missing.yaml")], [:], "cannot read the policy file"),
            (["--base-url", "sli.example.com"], [:], "--base-url: expected an http or https URL"),
            ([], ["PURCHASE_SLI_BASE_URL": "https://sli.example.com/?x=1"], "PURCHASE_SLI_BASE_URL: expected an http or https URL"),
            (["--config", try directory.write("bad-url.json", #"{"baseURL": "javascript:alert(1)"}"#)], [:], "baseURL expects an http or https URL"),
        ]
        for (arguments, environment, message) in cases {
            #expect {
                try resolve(arguments, environment: environment)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
        #expect {
            try ServeCommand.logLevel(environment: ["PURCHASE_SLI_LOG_LEVEL": "verbose"])
        } throws: { error in
            "\(error)".contains("PURCHASE_SLI_LOG_LEVEL: expected one of trace, debug, info")
        }
        #expect(try ServeCommand.logLevel(environment: ["PURCHASE_SLI_LOG_LEVEL": "debug"]) == .debug)
        #expect(try ServeCommand.logLevel(environment: ["PURCHASE_SLI_LOG_LEVEL": "WARN"]) == .warning)
        #expect(try ServeCommand.logLevel(environment: [:]) == .info)
    }

    @Test func settingsThatTakeNoEffectAreWarnedAbout() throws {
        let warnings: ([String], [String: String]) throws -> [String] = { arguments, environment in
            try ServeCommand.parse(arguments).resolve(environment: environment).warnings
        }
        #expect(try warnings(["--render-range", "3d", "--alerts-every", "5m"], ["PURCHASE_SLI_DASHBOARDS": "boards"]) == [
            "--alerts-every has no effect without --notify",
            "--render-range has no effect without --render-every",
            "PURCHASE_SLI_DASHBOARDS has no effect without --notify or --render-every",
        ])
        #expect(try warnings(["--policy", "p.yaml"], [:]) == ["--policy has no effect without --notify or --render-every"])
        #expect(try warnings(["--notify", "http://x/", "--dashboards", directory.path], [:]).isEmpty)
        #expect(try warnings(["--notify", "http://x/", "--alerts-every", "5m", "--notify-format", "slack"], [:]).isEmpty)
    }
}
