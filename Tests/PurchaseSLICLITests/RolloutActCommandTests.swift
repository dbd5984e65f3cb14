import Foundation
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// `purchase-sli rollout` with a store set up: the text says where the store has the release, and
/// `--act` acts through the actuator `serve` uses, a dry run unless told otherwise. Against the local
/// stand-in of App Store Connect, over two days of a bad 5.0.0 (RolloutActionEndToEndTests' events).
@Suite struct RolloutActCommandTests {
    let directory: TemporaryDirectory
    let db: String
    /// The end of the two days: 5.0.0's verdict is ROLL BACK.
    let end = RFC3339.format(seconds: RolloutActionEndToEndTests.start + 48 * 3600)

    init() async throws {
        directory = try TemporaryDirectory()
        db = directory.file("act.sqlite")
        let file = try directory.write(
            "events.ndjson", (0..<48).map { RolloutActionEndToEndTests.events(hour: $0, bad: true) }.joined(separator: "\n"))
        try #require(try await run(["ingest", "--quiet", "--db", db, file]) == 0)
    }

    /// The options that reach the stand-in at `base`.
    private func appStore(_ base: URL) throws -> [String] {
        [
            "--asc-key-file", try directory.write("AuthKey.p8", FakeStoreAPIs.applePEM), "--asc-key-id", FakeStoreAPIs.keyID,
            "--asc-issuer-id", FakeStoreAPIs.issuerID, "--asc-app-id", FakeStoreAPIs.appID, "--asc-url", base.absoluteString,
        ]
    }

    @Test func theStoresReleaseIsSaidAndActOnlyReadsByDefault() async throws {
        let apis = FakeStoreAPIs()
        await apis.setAppleVersion("5.0.0", .init(id: "pr500", state: "ACTIVE", day: 2))
        let (db, end) = (db, end)
        try await FakeStoreAPIs.serve(apis) { base, _ in
            let arguments = ["--db", db, "--at", end] + (try appStore(base))
            let read = try await RolloutCommand.parse(arguments).output()
            #expect(read.hasPrefix("ROLL BACK 5.0.0"), "\(read)")
            #expect(read.contains("App Store phased release day 2 of 7 (App Store Connect): 2 % of automatic-update users"), "\(read)")
            #expect(
                try await RolloutActionRepository(SQLiteBucketStore(path: db).sql).actions(fromSeconds: 0).isEmpty,
                "without --act nothing is acted on")

            let acted = try await RolloutCommand.parse(arguments + ["--act"]).output()
            #expect(acted.contains("DRY RUN, App Store: would PATCH /v1/appStoreVersionPhasedReleases/pr500"), "\(acted)")
            let state = await apis.appleVersions["5.0.0"]??.state
            #expect(await apis.count("PATCH", "pr500") == 0 && state == "ACTIVE")
            let kept = try await RolloutActionRepository(SQLiteBucketStore(path: db).sql).actions(fromSeconds: 0)
            #expect(kept.count == 1 && kept.first?.isDryRun == true && kept.first?.outcome == .wouldPause)
            // Settled: the next run does not try again, and still says what was done.
            let again = try await RolloutCommand.parse(arguments + ["--act"]).output()
            let attempts = try await RolloutActionRepository(SQLiteBucketStore(path: db).sql).actions(fromSeconds: 0).first?.attempts
            #expect(again.contains("DRY RUN, App Store") && attempts == 1)

            // Live acting rests on the verdict now, not on a past --at.
            await #expect {
                try await RolloutCommand.parse(arguments + ["--act", "--rollout-actions", "live"]).output()
            } throws: { "\($0)".contains("--at must be within the last hour") }

            // Paused by a person: the days left of Apple's limit.
            await apis.setAppleVersion("5.0.0", .init(id: "pr500", state: "PAUSED", day: 2, pausedDays: 4))
            let paused = try await RolloutCommand.parse(arguments).output()
            #expect(
                paused.contains(
                    "App Store phased release day 2 of 7 (App Store Connect): 2 % of automatic-update users, PAUSED; 26 days left of "
                        + "Apple's 30-day pause limit, after which the release goes on"), "\(paused)")
            let json = try await RolloutCommand.parse(arguments + ["--format", "json"]).output()
            let position = try #require((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["position"] as? [String: Any])
            #expect(position["source"] as? String == "app-store-connect" && position["day"] as? Int == 2 && position["pauseDaysLeft"] as? Int == 26)
        }
    }

    @Test func actWithoutAStoreIsAnErrorNamingWhatItNeeds() async throws {
        await #expect {
            try await RolloutCommand.parse(["--db", db, "--at", end, "--act"]).output()
        } throws: { "\($0)".contains("--act needs a store to act on: --asc-key-file, --asc-key-id, --asc-issuer-id and --asc-app-id") }
    }
}
