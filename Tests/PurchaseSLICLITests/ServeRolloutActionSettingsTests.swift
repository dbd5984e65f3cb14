import Foundation
import PurchaseSLIOutbound
import PurchaseSLIServer
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// How `serve` resolves acting on rollout verdicts: off unless a store is set up, a dry run unless live,
/// each setting from the options, else the environment, else the config file; errors name the setting.
@Suite struct ServeRolloutActionSettingsTests {
    let directory: TemporaryDirectory
    let keyFile: String
    let playFile: String

    init() throws {
        directory = try TemporaryDirectory()
        keyFile = try directory.write("AuthKey_ABC123DEFG.p8", FakeStoreAPIs.applePEM)
        let play = directory.file("play.json")
        try FakeStoreAPIs.serviceAccountJSON(tokenURL: "https://oauth2.googleapis.com/token").write(to: URL(fileURLWithPath: play))
        playFile = play
    }

    private func resolve(_ arguments: [String], environment: [String: String] = [:]) throws -> ServerConfiguration {
        try ServeCommand.parse(arguments).resolve(environment: environment).server
    }

    @Test func offUnlessAStoreIsSetUpThenADryRunUnlessLive() async throws {
        #expect(try resolve([]).rolloutActions.summary == "off")
        let apple = ["--asc-key-file", keyFile, "--asc-key-id", "ABC123DEFG", "--asc-issuer-id", "issuer", "--asc-app-id", "1234567890"]
        let dry = try resolve(["--rollout-every", "1h"] + apple)
        #expect(dry.rolloutActions.summary == "dry run: App Store app 1234567890 (IOS)")
        #expect(dry.rolloutActions.appStore?.keyPEM == FakeStoreAPIs.applePEM)
        #expect(try await RolloutActionOptions.controls(dry.rolloutActions, transport: HTTPClientTransport()).map(\.store) == [.apple])
        let environment = [
            "PURCHASE_SLI_PLAY_SERVICE_ACCOUNT": playFile, "PURCHASE_SLI_PLAY_PACKAGE": "com.example.app", "PURCHASE_SLI_ROLLOUT_ACTIONS": "live",
        ]
        let both = try resolve(["--rollout-every", "1h"] + apple, environment: environment)
        #expect(
            both.rolloutActions.summary
                == "live, each action confirmed by a person: App Store app 1234567890 (IOS), Play com.example.app on production")
        // Without confirmation, on the verdict alone: said at start, with why it is unsafe where apps hold ingest keys.
        let unconfirmed = try ServeCommand.parse(["--rollout-every", "1h", "--rollout-confirm", "none"] + apple)
            .resolve(environment: environment)
        #expect(unconfirmed.server.rolloutActions.summary.hasPrefix("live, without confirmation: "))
        #expect(unconfirmed.warnings.contains { $0.hasPrefix("--rollout-actions live with --rollout-confirm none: a verdict alone pauses") })
        let config = try directory.write(
            "config.json", #"{"rolloutActions": "live", "playServiceAccount": "\#(playFile)", "playPackage": "com.example.x", "playTrack": "beta"}"#)
        let fromFile = try resolve(["--config", config, "--rollout-actions", "dry-run"])
        #expect(fromFile.rolloutActions.summary == "dry run: Play com.example.x on beta")
        // Without --rollout-every nothing checks the rollout: a warning says so.
        let warnings = try ServeCommand.parse(apple).resolve(environment: [:]).warnings
        #expect(warnings.contains("--asc-key-file / --play-service-account has no effect without --rollout-every"), "\(warnings)")
    }

    @Test(
        arguments: [
            (["--asc-key-file", "KEY", "--asc-key-id", "A"], "acting on App Store releases needs --asc-issuer-id, --asc-app-id as well"),
            (["--play-package", "com.example.app"], "acting on Google Play releases needs --play-service-account as well"),
            (["--rollout-actions", "yes"], #"--rollout-actions: expected dry-run or live, got "yes""#),
            (["--rollout-confirm", "no"], #"--rollout-confirm: expected required or none, got "no""#),
            (["--play-service-account", "/nonexistent.json", "--play-package", "p"], "--play-service-account: cannot read /nonexistent.json"),
            (
                ["--asc-key-file", "KEY", "--asc-key-id", "A", "--asc-issuer-id", "I", "--asc-app-id", "1", "--asc-platform", "ANDROID"],
                #"--asc-platform: expected IOS, MAC_OS, TV_OS or VISION_OS, got "ANDROID""#
            ),
            (
                ["--play-service-account", "PLAY", "--play-package", "p", "--play-url", "ftp://x"],
                #"--play-url: expected an http or https URL, got "ftp://x""#
            ),
        ] as [([String], String)])
    func aWrongSettingIsAnErrorNamingIt(arguments: [String], message: String) throws {
        let resolved = arguments.map { $0 == "KEY" ? keyFile : $0 == "PLAY" ? playFile : $0 }
        let error = #expect(throws: CommandFailure.self) { try resolve(resolved) }
        #expect(error?.message == message)
    }

    @Test func aKeyThatCannotSignStopsServeAtStart() async throws {
        let bad = try directory.write("bad.p8", "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n")
        let settings = try resolve(["--asc-key-file", bad, "--asc-key-id", "A", "--asc-issuer-id", "I", "--asc-app-id", "1"]).rolloutActions
        await #expect {
            // Nothing is sent: the transport opens nothing until a request.
            try await RolloutActionOptions.controls(settings, transport: HTTPClientTransport())
        } throws: { "\($0)".contains("not a P-256 private key in PEM") }
    }
}
