import Foundation
import Logging
import PurchaseSLICore
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
        let config = try directory.write(
            "config.json",
            """
            {"notify": "http://alertmanager:9093/api/v2/alerts", "notifyFormat": "slack", "alertsEvery": "5m", "policy": "\(policy)"}
            """)
        let fromFile = try resolve(["--config", config])
        #expect(fromFile.notifyURL?.absoluteString == "http://alertmanager:9093/api/v2/alerts")
        #expect(fromFile.notifyFormat == .slack && fromFile.alertsEverySeconds == 300 && fromFile.alertPolicy.keepFiringForSeconds == 600)
        let environment = [
            "PURCHASE_SLI_NOTIFY": "https://hooks.example/x", "PURCHASE_SLI_ALERTS_EVERY": "2m",
            "PURCHASE_SLI_NOTIFY_FORMAT": "alertmanager",
        ]
        let fromEnvironment = try resolve(["--config", config], environment: environment)
        #expect(fromEnvironment.notifyURL?.absoluteString == "https://hooks.example/x")
        #expect(fromEnvironment.notifyFormat == .alertmanager && fromEnvironment.alertsEverySeconds == 120)
        let fromOptions = try resolve(["--config", config, "--alerts-every", "1m", "--notify-format", "slack"], environment: environment)
        #expect(fromOptions.notifyFormat == .slack && fromOptions.alertsEverySeconds == 60)
        // The base URL of the links loses its trailing slash, wherever it came from.
        let linked = try directory.write("linked.json", #"{"baseURL": "https://a.example/"}"#)
        #expect(try resolve(["--config", linked]).baseURL == "https://a.example")
        #expect(
            try resolve(["--config", linked], environment: ["PURCHASE_SLI_BASE_URL": "https://b.example/sli/"]).baseURL == "https://b.example/sli")
        #expect(try resolve(["--config", linked, "--base-url", "http://c.example"]).baseURL == "http://c.example")
        // The apps whose alerts are evaluated apart.
        let apps = try directory.write("apps.json", #"{"notify": "http://x/", "alertApps": ["com.example.coins"]}"#)
        #expect(try resolve(["--config", apps]).alertApps == ["com.example.coins"])
        let listed = ["PURCHASE_SLI_ALERT_APPS": "com.example.coins, com.example.premium"]
        #expect(try resolve(["--config", apps], environment: listed).alertApps == ["com.example.coins", "com.example.premium"])
        #expect(try resolve(["--config", apps, "--alert-app", "com.example.x"], environment: listed).alertApps == ["com.example.x"])
    }

    /// The alerts' fallbacks: those given, else the rollout receiver when it is a Slack webhook of its own.
    @Test func theFallbacksAreThoseGivenElseTheRolloutSlackWebhook() throws {
        let alertmanager = ["--notify", "http://alertmanager:9093/api/v2/alerts"]
        #expect(try resolve(alertmanager).alertFallbacks.isEmpty)
        let rollout = ["--rollout-every", "1h", "--rollout-notify", "https://hooks.slack.com/services/T/B/R"]
        #expect(
            try resolve(alertmanager + rollout).alertFallbacks.map { "\($0.url) \($0.format)" } == ["https://hooks.slack.com/services/T/B/R slack"])
        #expect(try resolve(alertmanager + rollout + ["--rollout-notify-format", "json"]).alertFallbacks.isEmpty, "JSON is for machines")
        let given = try resolve(
            alertmanager + rollout + [
                "--notify-fallback", "https://hooks.slack.com/services/T/B/F", "--notify-fallback", "http://am-2:9093/api/v2/alerts",
                "--notify-fallback-format", "alertmanager", "--notify-heartbeat",
            ])
        #expect(
            given.alertFallbacks.map { "\($0.url) \($0.format)" } == [
                "https://hooks.slack.com/services/T/B/F alertmanager", "http://am-2:9093/api/v2/alerts alertmanager",
            ])
        #expect(given.notifyHeartbeat)
        let file = try directory.write(
            "fallbacks.json", #"{"notify": "http://x/", "notifyFallbacks": ["https://hooks.slack.com/services/T/B/F"], "notifyHeartbeat": true}"#)
        let fromFile = try resolve(["--config", file])
        #expect(fromFile.notifyFallbackURLs.map(\.absoluteString) == ["https://hooks.slack.com/services/T/B/F"] && fromFile.notifyHeartbeat)
        #expect(try resolve(["--config", file], environment: ["PURCHASE_SLI_NOTIFY_HEARTBEAT": "false"]).notifyHeartbeat == false)
    }

    @Test func aWrongValueIsAnErrorNamingTheOptionOrVariableItCameFrom() throws {
        let cases: [([String], [String: String], String)] = [
            (["--notify", "ftp://x/"], [:], "--notify: expected an http or https URL"),
            ([], ["PURCHASE_SLI_NOTIFY": "ftp://x/"], "PURCHASE_SLI_NOTIFY: expected an http or https URL"),
            (["--notify", "http://x/", "--alerts-every", "90s"], [:], "--alerts-every: expected a whole number of minutes"),
            (
                [], ["PURCHASE_SLI_NOTIFY": "http://x/", "PURCHASE_SLI_NOTIFY_FORMAT": "teams"],
                "PURCHASE_SLI_NOTIFY_FORMAT: expected alertmanager or slack"
            ),
            ([], ["PURCHASE_SLI_PORT": "80800"], "PURCHASE_SLI_PORT: expected a whole number from 0 to 65535, got \"80800\""),
            (["--render-every", "0m"], [:], "--render-every: expected a whole number of minutes"),
            ([], ["PURCHASE_SLI_RENDER_RANGE": "soon"], "PURCHASE_SLI_RENDER_RANGE: expected a whole number of minutes"),
            ([], ["PURCHASE_SLI_INGEST_KEYS": directory.file("missing-keys")], "PURCHASE_SLI_INGEST_KEYS: cannot read"),
            ([], ["PURCHASE_SLI_READ_KEYS": directory.file("missing-keys")], "PURCHASE_SLI_READ_KEYS: cannot read the read keys file"),
            (["--read-keys", try directory.write("empty-keys", "# none yet\n")], [:], "--read-keys: the read keys file"),
            (
                [
                    "--read-keys", try directory.write("read-keys", "app-key\nsecret\n"), "--ingest-keys",
                    try directory.write("ingest-keys", "app-key\n"),
                ],
                [:], "the read keys hold an ingest key"
            ),
            (
                [
                    "--admin-keys", try directory.write("admin-keys", "admin\napp-key\n"), "--ingest-keys",
                    try directory.write("ingest-keys-2", "app-key\n"),
                ],
                [:], "the admin keys hold an ingest key (app-…): ingest keys ship inside apps and are public, so no admin key may be one"
            ),
            ([], ["PURCHASE_SLI_ADMIN_KEYS": directory.file("missing-keys")], "PURCHASE_SLI_ADMIN_KEYS: cannot read the admin keys file"),
            (
                ["--config", try directory.write("bad-admin.json", #"{"adminKeys": "admin"}"#)], [:],
                "bad-admin.json: adminKeys: expected an array of strings, got \"admin\""
            ),
            ([], ["PURCHASE_SLI_TIME_ZONE": String(repeating: "Europe/", count: 20_000)], "a time zone name is at most 64 bytes"),
            (
                ["--config", try directory.write("bad.json", #"{"alertsEvery": "1h30s"}"#)], [:],
                "bad.json: alertsEvery: expected a whole number of minutes from 1m to 1d, got \"1h30s\""
            ),
            (["--notify", "http://x/", "--policy", directory.file("missing.yaml")], [:], "cannot read the policy file"),
            (["--base-url", "sli.example.com"], [:], "--base-url: expected an http or https URL"),
            (["--notify", "http://x/", "--alert-app", "com.example\u{7}"], [:], "--alert-app: must not contain control characters"),
            ([], ["PURCHASE_SLI_ALERT_APPS": "com.example.coins,\(String(repeating: "a", count: 300))"], "PURCHASE_SLI_ALERT_APPS: longer than"),
            (
                ["--config", try directory.write("bad-apps.json", #"{"alertApps": "com.example.coins"}"#)], [:],
                "bad-apps.json: alertApps: expected an array of strings"
            ),
            ([], ["PURCHASE_SLI_BASE_URL": "https://sli.example.com/?x=1"], "PURCHASE_SLI_BASE_URL: expected an http or https URL"),
            (
                ["--config", try directory.write("bad-url.json", #"{"baseURL": "javascript:alert(1)"}"#)], [:],
                "bad-url.json: baseURL: expected an http or https URL"
            ),
            (
                ["--notify", "http://x/", "--notify-fallback", "hooks.slack.com/x"], [:],
                "--notify-fallback[0]: expected an http or https URL, got \"hooks.slack.com/x\""
            ),
            (
                ["--notify", "http://x/"], ["PURCHASE_SLI_NOTIFY_FALLBACKS": "https://a.example/x, mailto:b@c"],
                "PURCHASE_SLI_NOTIFY_FALLBACKS[1]: expected an http or https URL, got \"mailto:b@c\""
            ),
            (
                ["--config", try directory.write("bad-fallback.json", #"{"notify": "http://x/", "notifyFallbacks": ["https://a/", "b"]}"#)], [:],
                "bad-fallback.json: notifyFallbacks[1]: expected an http or https URL, got \"b\""
            ),
            (
                ["--notify", "http://x/"], ["PURCHASE_SLI_NOTIFY_FALLBACK_FORMAT": "teams"],
                "PURCHASE_SLI_NOTIFY_FALLBACK_FORMAT: expected slack or alertmanager"
            ),
            (
                ["--notify", "http://x/", "--notify-format", "slack", "--notify-heartbeat"], [:],
                "--notify-heartbeat: expected false unless notifyFormat is alertmanager"
            ),
            (["--notify", "http://x/"], ["PURCHASE_SLI_NOTIFY_HEARTBEAT": "yes"], "PURCHASE_SLI_NOTIFY_HEARTBEAT: expected true or false"),
        ]
        for (arguments, environment, message) in cases {
            #expect {
                try resolve(arguments, environment: environment)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
        func level(_ arguments: [String], _ environment: [String: String]) throws -> Logger.Level {
            try ServeCommand.parse(arguments).resolve(environment: environment).logLevel
        }
        #expect {
            try level([], ["PURCHASE_SLI_LOG_LEVEL": "verbose"])
        } throws: { error in
            "\(error)".contains(#"PURCHASE_SLI_LOG_LEVEL: expected trace, debug, info, notice, warning, error or critical, got "verbose""#)
        }
        #expect(try level([], ["PURCHASE_SLI_LOG_LEVEL": "debug"]) == .debug)
        #expect(try level([], ["PURCHASE_SLI_LOG_LEVEL": "WARN"]) == .warning)
        #expect(try level(["--log-level", "error"], ["PURCHASE_SLI_LOG_LEVEL": "WARN"]) == .error)
        #expect(try level([], [:]) == .info)
    }

    /// Values that would stop or stall the service later (a rate of 0 refused every request from the third
    /// POST on, a timeout of 10¹¹ seconds overflowed) are refused at start, naming the key.
    @Test(
        arguments: [
            (#"{"requestsPerSecondPerKey": 0}"#, [], "config.json: requestsPerSecondPerKey: expected a number from 0.001 to 1000000"),
            // A rate this small made the second request's Retry-After overflow Int and trap.
            (#"{"requestsPerSecondPerKey": 1e-300}"#, [], "config.json: requestsPerSecondPerKey: expected a number from 0.001 to 1000000"),
            (#"{"readRequestsPerSecond": 1e-300}"#, [], "config.json: readRequestsPerSecond: expected a number from 0.001 to 1000000"),
            (#"{"requestBurstPerKey": 0.5}"#, [], "requestBurstPerKey: expected a number from 1"),
            (#"{"latenessLimit": "9999999999999d"}"#, [], "latenessLimit: expected a duration from 1m to 366d"),
            (#"{"latenessLimit": "30d"}"#, [], "latenessLimit (30d) must not exceed --dedup-horizon (8d)"),
            (
                #"{"latenessLimit": "10d", "dedupHorizon": "9d"}"#, [],
                "config.json: dedupHorizon (9d): an event re-sent"
            ),
            (#"{"seriesCap": 500, "totalSeriesCap": 400}"#, [], "config.json: seriesCap (500), got 400"),
            (#"{"totalCardinalityCap": 1000}"#, [], "config.json: totalCardinalityCap must be at least --cardinality-cap (2000)"),
            (#"{"seriesCap": 0}"#, [], "config.json: seriesCap: expected a whole number from 1 to 1000000000"),
            (#"{"dedupHorizon": "7d"}"#, [], "config.json: dedupHorizon: expected a duration of at least 8d"),
            (#"{"storeRetention": "6d"}"#, [], "config.json: storeRetention: expected a duration of at least 7d"),
            (#"{}"#, ["--minute-retention", "soon"], "--minute-retention: expected a duration of at least 1s"),
            (#"{"latenessLimit": "30s"}"#, [], "latenessLimit: expected a duration from 1m to 366d"),
            (#"{"idleTimeoutSeconds": 100000000000}"#, [], "idleTimeoutSeconds: expected a whole number from 1 to 86400"),
            (#"{"bodyTimeoutSeconds": 90000}"#, [], "bodyTimeoutSeconds: expected a whole number from 1 to 86400"),
            (#"{"maximumBodyBytes": 900000000000}"#, [], "maximumBodyBytes: expected a whole number from 1 to 1073741824"),
            (#"{"maximumCompressionRatio": 999999999}"#, [], "maximumCompressionRatio: expected a whole number from 1 to 100000"),
            (#"{"maximumEventsPerCommit": 999999999}"#, [], "maximumEventsPerCommit: expected a whole number from 1"),
            (#"{"renderRange": "36500d", "renderEvery": "5m"}"#, [], "renderRange: expected a whole number of minutes from 1h to 35d"),
            (
                #"{}"#, ["--alerts-every", "36500d", "--notify", "http://x/"],
                "--alerts-every: expected a whole number of minutes from 1m to 1d, got \"36500d\""
            ),
            (#"{}"#, ["--render-range", "9999999999999d"], "--render-range: expected a whole number of minutes"),
        ] as [(String, [String], String)])
    func senselessSettingsAreRefusedAtStartNamingTheKey(config: String, arguments: [String], message: String) throws {
        let file = try directory.write("config.json", config)
        #expect {
            try resolve(["--config", file] + arguments)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    /// The caps and retention from the environment, the config file and the options, as `ingest` takes them:
    /// what the store is opened with, totals ten times their app's cap unless given.
    @Test func capsAndRetentionAreSettingsOfTheirOwn() throws {
        let file = try directory.write("caps.json", #"{"seriesCap": 500, "minuteRetention": "20d", "dayRetention": "800d"}"#)
        let resolved = try ServeCommand.parse(["--config", file, "--store-retention", "30d"]).resolve(environment: [
            "PURCHASE_SLI_SERIES_CAP": "700", "PURCHASE_SLI_TOTAL_CARDINALITY_CAP": "30000",
        ])
        #expect(resolved.storage.seriesCap == 700, "the variable before the file")
        #expect(resolved.storage.totalSeriesCap == 7000)
        #expect(resolved.storage.cardinalityCap == 2000 && resolved.storage.totalCardinalityCap == 30000)
        #expect(resolved.storage.minuteRetentionSeconds == 20 * 86_400 && resolved.storage.dayRetentionSeconds == 800 * 86_400)
        #expect(resolved.storage.storeRecordRetentionSeconds == 30 * 86_400)
        #expect(resolved.storage.hourRetentionSeconds == 400 * 86_400 && resolved.storage.dedupHorizonSeconds == 8 * 86_400)
        for (arguments, message) in [
            (["--series-cap", "0"], "--series-cap must be from 1 to 1000000000, got 0."),
            (["--total-series-cap", "10", "--series-cap", "20"], "--total-series-cap must be at least --series-cap (20), got 10."),
            (["--store-retention", "6d"], "--store-retention must be at least 7d"),
        ] {
            do {
                _ = try RetentionOptions.parse(arguments)
                Issue.record("ingest took \(arguments)")
            } catch {
                #expect(RetentionOptions.message(for: error).contains(message), "\(arguments)")
            }
        }
    }

    /// The stores' notification settings from the config file, the environment and the options in that
    /// order; a Play package without a push token, an unreadable or bad root, are errors naming the key.
    @Test func storeNotificationSettingsAreResolved() throws {
        let root = packageRoot + "/certificates/AppleRootCA-G3.cer"
        let config = try directory.write(
            "stores.json",
            """
            {"appleBundleIDs": ["com.example.a"], "appleRootCA": ["\(root)"], "googlePackages": ["com.example.g"],
             "googlePushTokens": ["push-secret"]}
            """)
        let fromFile = try resolve(["--config", config])
        #expect(fromFile.appleBundleIDs == ["com.example.a"] && fromFile.googlePackageNames == ["com.example.g"])
        #expect(fromFile.appleRootCertificates?.count == 1 && fromFile.googlePushTokens.isEnabled)
        let fromEnvironment = try resolve(["--config", config], environment: ["PURCHASE_SLI_APPLE_BUNDLE_IDS": "com.example.b, com.example.c"])
        #expect(fromEnvironment.appleBundleIDs == ["com.example.b", "com.example.c"] && fromEnvironment.googlePackageNames == ["com.example.g"])
        let fromOptions = try resolve(
            ["--config", config, "--apple-bundle-id", "com.example.d"], environment: ["PURCHASE_SLI_APPLE_BUNDLE_IDS": "com.example.b"])
        #expect(fromOptions.appleBundleIDs == ["com.example.d"])
        let cases: [(String, String)] = [
            (#"{"googlePackages": ["com.example.g"]}"#, "googlePackages needs googlePushTokens"),
            (#"{"appleRootCA": ["\#(directory.file("missing.pem"))"]}"#, "appleRootCA: cannot read"),
            (#"{"appleRootCA": ["\#(try directory.write("not-a-certificate.pem", "hello"))"]}"#, "config appleRootCA:"),
            (#"{"appleBundleIDs": "com.example.a"}"#, "appleBundleIDs: expected an array of strings, got \"com.example.a\""),
            (#"{"googlePushTokens": "push-secret"}"#, "googlePushTokens: expected an array of strings"),
        ]
        for (text, message) in cases {
            let file = try directory.write("bad-stores.json", text)
            #expect {
                try resolve(["--config", file])
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    /// `--rollout-every` with its candidate, baseline and receiver, from the config file, the environment
    /// and the options in that order; `auto` is the newest version.
    @Test func rolloutChecksAreResolved() throws {
        #expect(try resolve([]).rolloutEverySeconds == nil)
        let config = try directory.write(
            "rollout.json",
            """
            {"rolloutEvery": "2h", "rolloutCandidate": "5.0.0", "rolloutNotify": "http://hooks.example/r", "rolloutNotifyFormat": "json"}
            """)
        let fromFile = try resolve(["--config", config])
        #expect(fromFile.rolloutEverySeconds == 7200 && fromFile.rolloutCandidate == "5.0.0" && fromFile.rolloutNotifyFormat == .json)
        #expect(fromFile.rolloutNotifyURL?.absoluteString == "http://hooks.example/r")
        let options = try resolve(
            ["--config", config, "--rollout-every", "1h", "--candidate", "auto", "--baseline", "4.11.0", "--rollout-notify-format", "slack"],
            environment: ["PURCHASE_SLI_ROLLOUT_EVERY": "3h"])
        #expect(options.rolloutEverySeconds == 3600 && options.rolloutCandidate == nil && options.rolloutBaseline == "4.11.0")
        #expect(options.rolloutNotifyFormat == .slack)
        #expect(try resolve([], environment: ["PURCHASE_SLI_ROLLOUT_EVERY": "30m"]).rolloutEverySeconds == 1800)
        let cases: [([String], [String: String], String)] = [
            (["--rollout-every", "90s"], [:], "--rollout-every: expected a whole number of minutes"),
            (
                [], ["PURCHASE_SLI_ROLLOUT_EVERY": "2d"],
                "PURCHASE_SLI_ROLLOUT_EVERY: expected a whole number of minutes from 1m to 1d, got \"2d\""
            ),
            (["--rollout-every", "1h", "--rollout-notify", "mailto:x"], [:], "--rollout-notify: expected an http or https URL"),
            ([], ["PURCHASE_SLI_ROLLOUT_NOTIFY_FORMAT": "teams"], "PURCHASE_SLI_ROLLOUT_NOTIFY_FORMAT: expected slack or json"),
            (["--rollout-every", "1h", "--candidate", "5.0.0", "--baseline", "5.0.0"], [:], "--baseline must differ from --candidate"),
            (
                ["--config", try directory.write("bad-rollout.json", #"{"rolloutNotifyFormat": "xml"}"#)], [:],
                "bad-rollout.json: rolloutNotifyFormat: expected slack or json, got \"xml\""
            ),
        ]
        for (arguments, environment, message) in cases {
            #expect {
                try resolve(arguments, environment: environment)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    @Test func settingsThatTakeNoEffectAreWarnedAbout() throws {
        let warnings: ([String], [String: String]) throws -> [String] = { arguments, environment in
            try ServeCommand.parse(arguments).resolve(environment: environment).warnings
        }
        #expect(
            try warnings(["--render-range", "3d", "--alerts-every", "5m"], ["PURCHASE_SLI_DASHBOARDS": "boards"]) == [
                "--alerts-every has no effect without --notify",
                "--render-range has no effect without --render-every",
            ])
        // The policy always takes effect: its apps' caps bound every write.
        let policy = try directory.write("caps.yaml", "apps:\n  com.example.big: {seriesCap: 50000}\n")
        #expect(try warnings(["--policy", policy], [:]).isEmpty)
        #expect(
            try ServeCommand.parse(["--policy", policy]).resolve(environment: [:]).server.alertPolicy.appCaps == [
                "com.example.big": AppCaps(seriesCap: 50_000)
            ])
        #expect(
            try warnings(["--candidate", "5.0.0", "--rollout-notify", "http://x/"], [:]) == [
                "--candidate has no effect without --rollout-every", "--rollout-notify has no effect without --rollout-every",
            ])
        // Listening beyond this machine with reads open is allowed, and said.
        #expect(try warnings(["--host", "0.0.0.0"], [:]).first?.hasPrefix("listening on 0.0.0.0 without read keys") == true)
        let keys = try directory.write("read-keys", "secret\n")
        #expect(try warnings(["--host", "0.0.0.0"], ["PURCHASE_SLI_READ_KEYS": keys]).isEmpty)
        #expect(try warnings(["--notify", "http://x/", "--dashboards", directory.path], [:]).isEmpty)
        #expect(try warnings(["--notify", "http://x/", "--alerts-every", "5m", "--notify-format", "slack"], [:]).isEmpty)
    }

    /// `serve` writes a page set apart for each app it judges and notifies apart, not for an app the policy
    /// names only for its caps or objectives; for none when it renders no pages.
    @Test func theAppsWithPagesOfTheirOwnAreTheAlertApps() throws {
        let policy = try directory.write("named.yaml", "apps:\n  com.example.zeta: {seriesCap: 50000}\n  com.example.big: {}\n")
        let named = ["--policy", policy, "--alert-app", "com.example.big", "--alert-app", "com.example.alpha"]
        let rendering = ["--out", directory.file("pages"), "--render-every", "5m"]
        #expect(try resolve(named + rendering).appsWithPages == ["com.example.big", "com.example.alpha"])
        #expect(try resolve(named + ["--out", directory.file("pages")]).appsWithPages == [])
        #expect(try resolve(rendering).appsWithPages == [])
    }
}
